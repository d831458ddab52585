/* Instruction-level checks for the Valgrind tool (compiled with -mavx2 -mfma).
 * usage: special MODE N [K]
 *   addsub   N x vaddsubpd xmm              -> f64 add N, sub N, 128-bit 2N
 *   fma      N x vfmadd231pd ymm            -> f64 fma 8N FLOPs, 256-bit 8N
 *   mask     N x vmaskmovpd store + load with K active lanes -> 8*K*N bytes each way
 *   f32      N x (vsqrtps, vmaxps, vdivps) ymm -> f32 sqrt/minmax/div 8N each
 *   hadd     N x (vhaddpd, vhsubpd, vhaddps, vhsubps) ymm + N x vhaddpd xmm
 *            -> f64 add 4N+2N, sub 4N; f32 add 8N, sub 8N; 256-bit 24N, 128-bit 2N
 *            (VEX computes the ymm forms as two 128-bit halves: the width is still 256)
 *   dpp      N x (vdpps ymm mask 0xff, vdpps xmm mask 0x71, vdppd xmm mask 0x31)
 *            -> 2 FLOPs an element whatever the mask (as Intel's FP_ARITH counters count):
 *            f32 mul 8N+4N, add 8N+4N; f64 mul 2N, add 2N; 256-bit 16N, 128-bit 12N
 *   regions  region "outer" around N scalar mul + region "inner" around N scalar add,
 *            via client requests (include/roofline/roofline_vg_requests.h) */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "roofline/roofline_vg_requests.h"

__attribute__((noinline)) double kernel_addsub(long n, double s, double t)
{
    __m128d a = _mm_set_pd(s, t), b = _mm_set_pd(1e-9, 2e-9);
    for (long i = 0; i < n; i++) {
        a = _mm_addsub_pd(a, b);
        __asm__ volatile("" : "+x"(a));
    }
    return _mm_cvtsd_f64(a);
}

__attribute__((noinline)) double kernel_fma(long n, double s)
{
    __m256d a = _mm256_set1_pd(s), b = _mm256_set1_pd(0.999), c = _mm256_set1_pd(1e-3);
    for (long i = 0; i < n; i++) {
        a = _mm256_fmadd_pd(a, b, c);
        __asm__ volatile("" : "+x"(a));
    }
    return _mm256_cvtsd_f64(a);
}

__attribute__((noinline)) void kernel_mask(long n, long k, double *dst, const double *src)
{
    __m256i m = _mm256_set_epi64x(k > 3 ? -1 : 0, k > 2 ? -1 : 0, k > 1 ? -1 : 0, k > 0 ? -1 : 0);
    for (long i = 0; i < n; i++) {
        __m256d v = _mm256_maskload_pd(src + 4 * i, m);
        _mm256_maskstore_pd(dst + 4 * i, m, v);
    }
}

__attribute__((noinline)) float kernel_f32(long n, float s)
{
    __m256 a = _mm256_set1_ps(s), b = _mm256_set1_ps(1.5f);
    for (long i = 0; i < n; i++) {
        a = _mm256_sqrt_ps(a);
        a = _mm256_max_ps(a, b);
        a = _mm256_div_ps(a, b);
        __asm__ volatile("" : "+x"(a));
    }
    return _mm256_cvtss_f32(a);
}

volatile float hadd_sink_f;
volatile double hadd_sink_d;

__attribute__((noinline)) double kernel_hadd(long n, double s)
{
    __m256d a = _mm256_set1_pd(s), b = _mm256_set1_pd(1e-9);
    __m256 x = _mm256_set1_ps((float)s), y = _mm256_set1_ps(1e-6f);
    __m128d c = _mm_set1_pd(s), d = _mm_set1_pd(1e-9);
    for (long i = 0; i < n; i++) {
        a = _mm256_hadd_pd(a, b);
        a = _mm256_hsub_pd(a, b);
        x = _mm256_hadd_ps(x, y);
        x = _mm256_hsub_ps(x, y);
        c = _mm_hadd_pd(c, d);
        __asm__ volatile("" : "+x"(a), "+x"(x), "+x"(c));
    }
    hadd_sink_f = _mm256_cvtss_f32(x);  /* kept without an add of its own */
    hadd_sink_d = _mm_cvtsd_f64(c);
    return _mm256_cvtsd_f64(a);
}

__attribute__((noinline)) double kernel_dpp(long n, double s)
{
    __m256 a = _mm256_set1_ps((float)s), b = _mm256_set1_ps(1e-6f);
    __m128 x = _mm_set1_ps((float)s), y = _mm_set1_ps(1e-6f);
    __m128d c = _mm_set1_pd(s), d = _mm_set1_pd(1e-9);
    for (long i = 0; i < n; i++) {
        a = _mm256_dp_ps(a, b, 0xff);
        x = _mm_dp_ps(x, y, 0x71);
        c = _mm_dp_pd(c, d, 0x31);
        __asm__ volatile("" : "+x"(a), "+x"(x), "+x"(c));
    }
    hadd_sink_f = _mm256_cvtss_f32(a);  /* kept without an op of their own */
    hadd_sink_f = _mm_cvtss_f32(x);
    hadd_sink_d = _mm_cvtsd_f64(c);
    return 0;
}

__attribute__((noinline)) double kernel_regions(long n, double s)
{
    double p = s, q = s;
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, "outer", 0, 0, 0, 0);
    for (long i = 0; i < n; i++) {
        p *= 1.0000001;
        __asm__ volatile("" : "+x"(p));
    }
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, "inner", 0, 0, 0, 0);
    for (long i = 0; i < n; i++) {
        q += 1e-7;
        __asm__ volatile("" : "+x"(q));
    }
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, "inner", 0, 0, 0, 0);
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, "outer", 0, 0, 0, 0);
    return p + q;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s MODE N [K]\n", argv[0]); return 2; }
    const char *mode = argv[1];
    long n = atol(argv[2]);
    long k = argc > 3 ? atol(argv[3]) : 4;
    double r = 0;
    if (strcmp(mode, "addsub") == 0) r = kernel_addsub(n, (double)argc, 0.5 * argc);
    else if (strcmp(mode, "fma") == 0) r = kernel_fma(n, (double)argc);
    else if (strcmp(mode, "f32") == 0) r = kernel_f32(n, (float)argc);
    else if (strcmp(mode, "hadd") == 0) r = kernel_hadd(n, (double)argc);
    else if (strcmp(mode, "dpp") == 0) r = kernel_dpp(n, (double)argc);
    else if (strcmp(mode, "regions") == 0) r = kernel_regions(n, (double)argc);
    else if (strcmp(mode, "mask") == 0) {
        double *src = malloc(sizeof(double) * 4 * n), *dst = calloc(4 * n, sizeof(double));
        for (long i = 0; i < 4 * n; i++) src[i] = (double)i;
        kernel_mask(n, k, dst, src);
        r = dst[0];
        free(src); free(dst);
    } else { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
    printf("%g\n", r);
    return 0;
}
