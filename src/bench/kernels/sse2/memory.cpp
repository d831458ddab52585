// 128-bit memory-bandwidth kernels (compiled with -msse2 -mno-avx).
#include <immintrin.h>

#include "bench/kernel.hpp"

namespace roofline {
namespace {

struct Sse2Ops {
    using Vec = __m128d;
    static constexpr std::size_t lanes = 2;
    static constexpr Isa isa = Isa::sse2;
    static constexpr int bits = 128;
    static constexpr const char* suffix = "sse2.128";

    static Vec zero() { return _mm_setzero_pd(); }
    static Vec broadcast(double x) { return _mm_set1_pd(x); }
    static Vec load(const double* p) { return _mm_load_pd(p); }
    static void store(double* p, Vec v) { _mm_store_pd(p, v); }
    static void stream(double* p, Vec v) { _mm_stream_pd(p, v); }
    static Vec add(Vec a, Vec b) { return _mm_add_pd(a, b); }
    // SSE2 has no FMA: b + (s*c), two roundings.
    static Vec triad(Vec b, Vec s, Vec c) { return _mm_add_pd(b, _mm_mul_pd(s, c)); }
    static double sum_lanes(Vec v) { return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v))); }
};

} // namespace
} // namespace roofline

#include "bench/kernels/memory_kernels.inl"

namespace roofline {
void append_memory_kernels_sse2(std::vector<MemoryKernel>& out) { append_memory_kernels_for<Sse2Ops>(out); }
} // namespace roofline
