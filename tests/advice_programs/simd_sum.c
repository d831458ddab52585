/* The sum vectorized with four independent 256-bit accumulators (AVX2
 * intrinsics, -march=x86-64-v3): 16 doubles in flight, no scalar FLOPs in
 * the loop.
 *
 * Facts: N = 2048 doubles (16 KiB, L1), REPS passes. FLOPs: N x REPS adds
 * (plus 15 per pass folding the lanes), almost all 256-bit; 8 B loaded per
 * FLOP (I = 0.125 FLOP/B at L1); no stores. Loads alone stream slower than
 * a triad in L1, and it runs under that load ceiling.
 * Advice it must lead with: that load ceiling (fuse read-only passes, read
 * fewer bytes). Never: vectorize, split the accumulator. */
#include <immintrin.h>
#include <roofline/roofline.h>
#include <stdio.h>

enum { N = 2048, REPS = 20000 };
static double x[N] __attribute__((aligned(32)));

int main(void) {
    for (int i = 0; i < N; ++i) x[i] = 1.0 / (i + 1);
    double sum = 0;
    roofline_begin("simd_sum");
    for (int r = 0; r < REPS; ++r) {
        __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
        for (int i = 0; i < N; i += 16) {
            s0 = _mm256_add_pd(s0, _mm256_load_pd(x + i));
            s1 = _mm256_add_pd(s1, _mm256_load_pd(x + i + 4));
            s2 = _mm256_add_pd(s2, _mm256_load_pd(x + i + 8));
            s3 = _mm256_add_pd(s3, _mm256_load_pd(x + i + 12));
        }
        double lanes[4];
        _mm256_storeu_pd(lanes, _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)));
        sum += (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
        __asm__ volatile("" : : "r"(x) : "memory");
    }
    roofline_end("simd_sum");
    printf("%.6f\n", sum);
    return 0;
}
