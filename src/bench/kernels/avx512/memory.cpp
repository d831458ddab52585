// 512-bit memory-bandwidth kernels (compiled with -mavx512f -mavx512dq -mavx512vl -mfma).
#include <immintrin.h>

#include "bench/kernel.hpp"

namespace roofline {
namespace {

struct Avx512Ops {
    using Vec = __m512d;
    static constexpr std::size_t lanes = 8;
    static constexpr Isa isa = Isa::avx512;
    static constexpr int bits = 512;
    static constexpr const char* suffix = "avx512.512";

    static Vec zero() { return _mm512_setzero_pd(); }
    static Vec broadcast(double x) { return _mm512_set1_pd(x); }
    static Vec load(const double* p) { return _mm512_load_pd(p); }
    static void store(double* p, Vec v) { _mm512_store_pd(p, v); }
    static void stream(double* p, Vec v) { _mm512_stream_pd(p, v); }
    static Vec add(Vec a, Vec b) { return _mm512_add_pd(a, b); }
    // b + s*c with a single rounding (FMA).
    static Vec triad(Vec b, Vec s, Vec c) { return _mm512_fmadd_pd(s, c, b); }
    // Through memory: GCC 12's 512-bit extract/shuffle intrinsics trip a false
    // -Wuninitialized, and this runs once per call.
    static double sum_lanes(Vec v) {
        alignas(64) double lane[8];
        _mm512_store_pd(lane, v);
        return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
    }
};

} // namespace
} // namespace roofline

#include "bench/kernels/memory_kernels.inl"

namespace roofline {
void append_memory_kernels_avx512(std::vector<MemoryKernel>& out) { append_memory_kernels_for<Avx512Ops>(out); }
} // namespace roofline
