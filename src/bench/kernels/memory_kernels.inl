// Memory-bandwidth kernels, written once and instantiated per ISA.
//
// Included by kernels/<isa>/memory.cpp, each compiled with that ISA's flags.
// Each includer defines an `Ops` traits struct (see kernels/avx2/memory.cpp) with:
//   Vec, lanes, isa, bits, suffix ("avx2.256"),
//   zero(), broadcast(x), load(p), store(p, v), stream(p, v), add(a, b),
//   triad(b, s, c) = b + s*c (FMA where the ISA has it), sum_lanes(v).
//
// Everything here has internal linkage (anonymous namespace): the same template
// compiled with different -m flags in different files must never be merged by
// the linker (ODR).
//
// Guarding against the optimizer (the benchmark would be meaningless otherwise):
//  - `pass_barrier()` between passes: a compiler-level memory clobber, so every
//    pass's stores are really issued and no load is reused across passes.
//  - the load kernel hands every loaded vector to an empty asm, so no load is
//    dead code, and it does no arithmetic on them in the loop.

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/kernel.hpp"

namespace roofline {
namespace {

inline void pass_barrier() { asm volatile("" ::: "memory"); }

// Makes the compiler believe the values are consumed, at no run-time cost: the
// loads must be issued, and nothing else is (no arithmetic on them).
template <class Vec>
inline void keep_alive(const Vec& a, const Vec& b, const Vec& c, const Vec& d) {
    asm volatile("" : : "v"(a), "v"(b), "v"(c), "v"(d));
}

// Unroll factors. load: 8 plain vector loads per iteration into 8 registers that
// nothing reads, so only the load ports limit it (no add chain on the critical
// path). The others: 4 vectors per array per iteration hide the loop overhead.
constexpr std::size_t load_unroll = 8;
constexpr std::size_t stream_unroll = 4;

// The array is read as four interleaved streams, its four quarters side by side (two vectors of
// each per iteration): one core's DRAM bandwidth grows with the streams the prefetchers keep in
// flight, so a single stream understates what a read-only kernel reaches (a ddot of two streams
// and an MVM of four rows beat it by 10-25% on a Zen 3 core; side by side, 4 streams read 24 GB/s
// from DRAM where 1 read 19, and the same in L1, L2 and L3). n is a multiple of 8 vectors, so
// each quarter is a whole number of 2-vector steps.
template <class Ops>
double load_kernel(double* const* arrays, std::size_t n, std::uint64_t passes, double) {
    using Vec = typename Ops::Vec;
    constexpr std::size_t L = Ops::lanes;
    static_assert(load_unroll == 8, "two vectors from each of four quarters");
    const std::size_t quarter = n / 4;
    const double* q0 = arrays[0];
    const double *q1 = q0 + quarter, *q2 = q1 + quarter, *q3 = q2 + quarter;
    Vec v[load_unroll];
    for (auto& x : v) x = Ops::zero();
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < quarter; i += 2 * L) {
            v[0] = Ops::load(q0 + i);
            v[1] = Ops::load(q0 + i + L);
            v[2] = Ops::load(q1 + i);
            v[3] = Ops::load(q1 + i + L);
            v[4] = Ops::load(q2 + i);
            v[5] = Ops::load(q2 + i + L);
            v[6] = Ops::load(q3 + i);
            v[7] = Ops::load(q3 + i + L);
            keep_alive(v[0], v[1], v[2], v[3]);
            keep_alive(v[4], v[5], v[6], v[7]);
        }
        pass_barrier();  // no pass's loads may be reused by the next
    }
    // The last vectors read of each quarter, summed outside the timed loop (the self-check's witness).
    const Vec total = Ops::add(Ops::add(Ops::add(v[0], v[1]), Ops::add(v[2], v[3])),
                               Ops::add(Ops::add(v[4], v[5]), Ops::add(v[6], v[7])));
    return Ops::sum_lanes(total);
}

template <class Ops, bool nontemporal>
inline void put(double* p, typename Ops::Vec v) {
    if constexpr (nontemporal) {
        Ops::stream(p, v);
    } else {
        Ops::store(p, v);
    }
}

// Streaming stores are weakly ordered: fence once after all passes so the
// timed call includes draining the write-combining buffers.
template <bool nontemporal>
inline void finish_stores() {
    if constexpr (nontemporal) _mm_sfence();
}

template <class Ops, bool nontemporal>
double store_kernel(double* const* arrays, std::size_t n, std::uint64_t passes, double scalar) {
    constexpr std::size_t L = Ops::lanes;
    double* dst = arrays[0];
    const auto value = Ops::broadcast(scalar);
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < n; i += stream_unroll * L) {
            put<Ops, nontemporal>(dst + i + 0 * L, value);
            put<Ops, nontemporal>(dst + i + 1 * L, value);
            put<Ops, nontemporal>(dst + i + 2 * L, value);
            put<Ops, nontemporal>(dst + i + 3 * L, value);
        }
        pass_barrier();
    }
    finish_stores<nontemporal>();
    return 0.0;
}

template <class Ops, bool nontemporal>
double copy_kernel(double* const* arrays, std::size_t n, std::uint64_t passes, double) {
    constexpr std::size_t L = Ops::lanes;
    double* dst = arrays[0];
    const double* src = arrays[1];
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < n; i += stream_unroll * L) {
            const auto v0 = Ops::load(src + i + 0 * L);
            const auto v1 = Ops::load(src + i + 1 * L);
            const auto v2 = Ops::load(src + i + 2 * L);
            const auto v3 = Ops::load(src + i + 3 * L);
            put<Ops, nontemporal>(dst + i + 0 * L, v0);
            put<Ops, nontemporal>(dst + i + 1 * L, v1);
            put<Ops, nontemporal>(dst + i + 2 * L, v2);
            put<Ops, nontemporal>(dst + i + 3 * L, v3);
        }
        pass_barrier();
    }
    finish_stores<nontemporal>();
    return 0.0;
}

// a = b + scalar * c, rounded as Ops::triad does (FMA on ISAs that have it).
template <class Ops, bool nontemporal>
double triad_kernel(double* const* arrays, std::size_t n, std::uint64_t passes, double scalar) {
    constexpr std::size_t L = Ops::lanes;
    double* dst = arrays[0];
    const double* b = arrays[1];
    const double* c = arrays[2];
    const auto s = Ops::broadcast(scalar);
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < n; i += stream_unroll * L) {
            const auto r0 = Ops::triad(Ops::load(b + i + 0 * L), s, Ops::load(c + i + 0 * L));
            const auto r1 = Ops::triad(Ops::load(b + i + 1 * L), s, Ops::load(c + i + 1 * L));
            const auto r2 = Ops::triad(Ops::load(b + i + 2 * L), s, Ops::load(c + i + 2 * L));
            const auto r3 = Ops::triad(Ops::load(b + i + 3 * L), s, Ops::load(c + i + 3 * L));
            put<Ops, nontemporal>(dst + i + 0 * L, r0);
            put<Ops, nontemporal>(dst + i + 1 * L, r1);
            put<Ops, nontemporal>(dst + i + 2 * L, r2);
            put<Ops, nontemporal>(dst + i + 3 * L, r3);
        }
        pass_barrier();
    }
    finish_stores<nontemporal>();
    return 0.0;
}

// a = b + c: two load streams, one store stream, one add per element.
template <class Ops>
double two_load_one_store_kernel(double* const* arrays, std::size_t n, std::uint64_t passes, double) {
    constexpr std::size_t L = Ops::lanes;
    double* dst = arrays[0];
    const double* b = arrays[1];
    const double* c = arrays[2];
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < n; i += stream_unroll * L) {
            const auto r0 = Ops::add(Ops::load(b + i + 0 * L), Ops::load(c + i + 0 * L));
            const auto r1 = Ops::add(Ops::load(b + i + 1 * L), Ops::load(c + i + 1 * L));
            const auto r2 = Ops::add(Ops::load(b + i + 2 * L), Ops::load(c + i + 2 * L));
            const auto r3 = Ops::add(Ops::load(b + i + 3 * L), Ops::load(c + i + 3 * L));
            Ops::store(dst + i + 0 * L, r0);
            Ops::store(dst + i + 1 * L, r1);
            Ops::store(dst + i + 2 * L, r2);
            Ops::store(dst + i + 3 * L, r3);
        }
        pass_barrier();
    }
    return 0.0;
}

using MemoryRun = double (*)(double* const*, std::size_t, std::uint64_t, double);

template <class Ops>
MemoryKernel make_memory_kernel(const char* pattern, int arrays, int reads, int writes, bool nontemporal,
                                int flops, std::size_t unroll, MemoryRun run) {
    MemoryKernel k;
    k.name = std::string(pattern) + "." + Ops::suffix;
    k.pattern = pattern;
    k.isa = Ops::isa;
    k.vector_bits = Ops::bits;
    k.arrays = arrays;
    k.reads_per_element = reads;
    k.writes_per_element = writes;
    k.nontemporal = nontemporal;
    k.flops_per_element = flops;
    k.block_elements = Ops::lanes * unroll;
    k.run = run;
    return k;
}

// The registration table for one ISA: pattern, arrays, reads, writes, non-temporal,
// FLOPs per element (triad counts its FMA as 2), elements per loop iteration.
template <class Ops>
void append_memory_kernels_for(std::vector<MemoryKernel>& out) {
    constexpr std::size_t U = stream_unroll;
    out.push_back(make_memory_kernel<Ops>("load", 1, 1, 0, false, 0, load_unroll, &load_kernel<Ops>));
    out.push_back(make_memory_kernel<Ops>("store", 1, 0, 1, false, 0, U, &store_kernel<Ops, false>));
    out.push_back(make_memory_kernel<Ops>("copy", 2, 1, 1, false, 0, U, &copy_kernel<Ops, false>));
    out.push_back(make_memory_kernel<Ops>("triad", 3, 2, 1, false, 2, U, &triad_kernel<Ops, false>));
    out.push_back(make_memory_kernel<Ops>("2ld1st", 3, 2, 1, false, 1, U, &two_load_one_store_kernel<Ops>));
    out.push_back(make_memory_kernel<Ops>("store_nt", 1, 0, 1, true, 0, U, &store_kernel<Ops, true>));
    out.push_back(make_memory_kernel<Ops>("copy_nt", 2, 1, 1, true, 0, U, &copy_kernel<Ops, true>));
    out.push_back(make_memory_kernel<Ops>("triad_nt", 3, 2, 1, true, 2, U, &triad_kernel<Ops, true>));
}

} // namespace
} // namespace roofline
