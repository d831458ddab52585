// Kernels of known arithmetic intensity for the validation sweep (AVX2 + FMA,
// 256-bit). See IntensityKernel in bench/kernel.hpp for what they compute.
#include "bench/kernel.hpp"

#include <immintrin.h>

#include <cstdint>
#include <string>

namespace roofline {
namespace {

// Loads a vector and tells the compiler it is used, so loads of vectors that
// get no FMA (low intensities) are still issued.
inline __m256d load_kept(const double* p) {
    __m256d v = _mm256_load_pd(p);
    asm volatile("" : : "x"(v));
    return v;
}

template <int Fmas>
double intensity_kernel(const double* a, std::size_t n, std::uint64_t passes, double scale) {
    const __m256d c = _mm256_set1_pd(scale);
    __m256d acc[8];
    for (auto& x : acc) x = _mm256_setzero_pd();
    for (std::uint64_t pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < n; i += 32) {
            // Two halves of 4 vectors: 4 loaded + 8 accumulators + c fit the 16 registers.
#pragma GCC unroll 2
            for (int h = 0; h < 2; ++h) {
                __m256d x[4];
#pragma GCC unroll 4
                for (int j = 0; j < 4; ++j) x[j] = load_kept(a + i + 16 * h + 4 * j);
                if constexpr (Fmas < 8) {
#pragma GCC unroll 4
                    for (int j = 0; j < 4; ++j)
                        if (4 * h + j < Fmas) acc[4 * h + j] = _mm256_fmadd_pd(x[j], c, acc[4 * h + j]);
                } else if constexpr (Fmas == 8) {
#pragma GCC unroll 4
                    for (int j = 0; j < 4; ++j) acc[4 * h + j] = _mm256_fmadd_pd(x[j], c, acc[4 * h + j]);
                } else {
                    // Each vector feeds two chains, so all 8 chains advance together
                    // (8 chains x 4-cycle latency keep two FMA pipes busy).
#pragma GCC unroll 4
                    for (int r = 0; r < Fmas / 16; ++r) {
#pragma GCC unroll 4
                        for (int j = 0; j < 4; ++j) {
                            acc[j] = _mm256_fmadd_pd(x[j], c, acc[j]);
                            acc[j + 4] = _mm256_fmadd_pd(x[j], c, acc[j + 4]);
                        }
                    }
                }
            }
        }
        asm volatile("" ::: "memory");
    }
    __m256d total = _mm256_setzero_pd();
    for (auto& x : acc) total = _mm256_add_pd(total, x);
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, total);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

template <int Fmas>
IntensityKernel make() {
    IntensityKernel k;
    k.name = "intensity.avx2.256.k" + std::to_string(Fmas);
    k.isa = Isa::avx2;
    k.vector_bits = 256;
    k.fmas_per_group = Fmas;
    k.block_elements = 32;
    k.run = &intensity_kernel<Fmas>;
    return k;
}

} // namespace

void append_intensity_kernels_avx2(std::vector<IntensityKernel>& out) {
    // 1/16 ... 64 FLOP/byte, a factor of 2 apart.
    out.push_back(make<2>());
    out.push_back(make<4>());
    out.push_back(make<8>());
    out.push_back(make<16>());
    out.push_back(make<32>());
    out.push_back(make<64>());
    out.push_back(make<128>());
    out.push_back(make<256>());
    out.push_back(make<512>());
    out.push_back(make<1024>());
    out.push_back(make<2048>());
}

} // namespace roofline
