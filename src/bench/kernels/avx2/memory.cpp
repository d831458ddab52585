// 256-bit memory-bandwidth kernels (compiled with -mavx2 -mfma).
#include <immintrin.h>

#include "bench/kernel.hpp"

namespace roofline {
namespace {

struct Avx2Ops {
    using Vec = __m256d;
    static constexpr std::size_t lanes = 4;
    static constexpr Isa isa = Isa::avx2;
    static constexpr int bits = 256;
    static constexpr const char* suffix = "avx2.256";

    static Vec zero() { return _mm256_setzero_pd(); }
    static Vec broadcast(double x) { return _mm256_set1_pd(x); }
    static Vec load(const double* p) { return _mm256_load_pd(p); }
    static void store(double* p, Vec v) { _mm256_store_pd(p, v); }
    static void stream(double* p, Vec v) { _mm256_stream_pd(p, v); }
    static Vec add(Vec a, Vec b) { return _mm256_add_pd(a, b); }
    // b + s*c with a single rounding (FMA).
    static Vec triad(Vec b, Vec s, Vec c) { return _mm256_fmadd_pd(s, c, b); }
    static double sum_lanes(Vec v) {
        const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
        return _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
    }
};

} // namespace
} // namespace roofline

#include "bench/kernels/memory_kernels.inl"

namespace roofline {
void append_memory_kernels_avx2(std::vector<MemoryKernel>& out) { append_memory_kernels_for<Avx2Ops>(out); }
} // namespace roofline
