// The one kernel interface. Every microbenchmark kernel is registered with its
// metadata next to its code, in kernels/<isa>/*.cpp (collected by
// kernel_registry.cpp): what it computes, FLOPs and bytes per unit of work, ISA
// and vector width. Rates are derived from this metadata in exactly one place
// (rate_g_per_s, bench/sampler.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

// Instruction-set family a kernel is compiled for; checked against CPUID
// before the kernel runs (never by catching SIGILL).
enum class Isa { sse2, avx2, avx512 };
const char* isa_name(Isa isa);

// A loop of independent (or, for "chain", dependent) floating-point chains.
// Every accumulator starts at 1.0 and each loop iteration applies, to every chain,
// `steps_per_iteration` times:   fma: x = mul*add + x;   add: x = x + add;   mul: x = x*mul.
// The FMA chain runs through the addend (vfmadd231: the accumulator is the
// destination), as compilers emit for dot products and likwid's peakflops do:
// measured 10% faster on Zen 3 than chaining through the product (vfmadd213).
// The kernel writes the final lanes of every chain to `out` (as double), chain
// after chain: fma chains first, then add chains, then mul chains.
struct ComputeKernel {
    std::string name;          // unique, e.g. "dp.avx2.256.fma8+add4"
    std::string precision;     // "dp" or "sp"
    Isa isa;
    int vector_bits;           // 64/32 for scalar dp/sp, 128, 256, 512
    std::string mix;           // "fma", "add", "mul", "mul+add", "chain", "fma+add"
    int fma_chains = 0, add_chains = 0, mul_chains = 0;
    int steps_per_iteration = 1;
    void (*run)(std::uint64_t iterations, double mul, double add, double* out) = nullptr;

    int lanes() const;                      // elements per vector
    int chains() const { return fma_chains + add_chains + mul_chains; }
    double flops_per_iteration() const;     // FMA counts 2 per lane
};

// Streams over arrays of doubles. arrays[0] is the destination when the kernel
// writes; sources follow. `n` is a multiple of `block_elements`.
struct MemoryKernel {
    std::string name;          // unique, e.g. "copy.avx2.256"
    std::string pattern;       // "load", "store", "copy", "triad", "2ld1st", "store_nt", "copy_nt", "triad_nt"
    Isa isa;
    int vector_bits;
    int arrays = 1;            // how many arrays it touches
    int reads_per_element = 0; // arrays read per element
    int writes_per_element = 0;
    bool nontemporal = false;
    int flops_per_element = 0;
    std::size_t block_elements = 8;
    // Runs `passes` passes over n elements. Returns a value that depends on
    // every element read (so loads cannot be removed); stores leave results in arrays.
    //   load:   plain vector loads of arrays[0][0..n), its four quarters read side by side,
    //           nothing computed; returns the sum of the last block read (the last
    //           block_elements / 4 elements of each quarter)
    //   store:  arrays[0][i] = scalar
    //   copy:   arrays[0][i] = arrays[1][i]
    //   triad:  arrays[0][i] = arrays[1][i] + scalar * arrays[2][i]
    //   2ld1st: arrays[0][i] = arrays[1][i] + arrays[2][i]
    double (*run)(double* const* arrays, std::size_t n, std::uint64_t passes, double scalar) = nullptr;

    double nominal_bytes_per_element() const { return 8.0 * (reads_per_element + writes_per_element); }
    // Stores that are not non-temporal first read the line (write-allocate).
    double write_allocate_bytes_per_element() const {
        return nominal_bytes_per_element() + (nontemporal ? 0.0 : 8.0 * writes_per_element);
    }
};

// The validation sweep's kernels of known arithmetic intensity: stream over
// one array and, for every group of 8 vectors loaded, issue `fmas_per_group`
// FMAs (x_j * c + acc_j on 8 independent accumulators). With 8-byte elements,
// intensity = fmas_per_group / 32 FLOP per byte, whatever the vector width.
struct IntensityKernel {
    std::string name;          // e.g. "intensity.avx2.256.k64"
    Isa isa;
    int vector_bits;
    int fmas_per_group = 1;
    std::size_t block_elements = 32;  // one group: 8 vectors
    // Returns the sum of every accumulator after `passes` passes over a[0..n) with c = scale.
    double (*run)(const double* a, std::size_t n, std::uint64_t passes, double scale) = nullptr;

    double flops_per_element() const { return fmas_per_group / 4.0; }
    double intensity() const { return flops_per_element() / 8.0; }
};

// Every kernel compiled into this binary (whatever this CPU supports).
const std::vector<ComputeKernel>& all_compute_kernels();
const std::vector<MemoryKernel>& all_memory_kernels();
const std::vector<IntensityKernel>& all_intensity_kernels();

// Per-ISA registration, one function per kernels/<isa>/ file.
void append_compute_kernels_sse2(std::vector<ComputeKernel>& out);
void append_compute_kernels_avx2(std::vector<ComputeKernel>& out);
void append_compute_kernels_avx512(std::vector<ComputeKernel>& out);
void append_memory_kernels_sse2(std::vector<MemoryKernel>& out);
void append_memory_kernels_avx2(std::vector<MemoryKernel>& out);
void append_memory_kernels_avx512(std::vector<MemoryKernel>& out);
void append_intensity_kernels_avx2(std::vector<IntensityKernel>& out);

} // namespace roofline
