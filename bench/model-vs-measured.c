/* model-vs-measured.c — the loops bench/model-vs-measured.sh predicts with `roofline model`
 * and times here: each kernel is a plain C loop as a user would write it, built with
 * -O3 -march=x86-64-v3 (no -ffast-math: reductions stay in source order).
 *
 * Usage: model-vs-measured KERNEL N REPS
 *   Runs the kernel REPS+1 times over its data (sizes from N, see each kernel), the first
 *   pass a warm-up; times each of the REPS others and prints the fastest:
 *     kernel=NAME n=N iterations=I seconds=S gflops=G gbs=B checksum=C
 *   gflops = the loop's FLOPs (counted on paper, per kernel below) / S; gbs = the bytes its
 *   loads and stores name (no write-allocate, no cache lines) / S. With -DUSE_MARKERS the
 *   REPS timed passes are one marker region "kernel", so `roofline measure` counts them
 *   (and not the set-up or the warm-up pass). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef USE_MARKERS
#include <roofline/roofline.h>
#define REGION_BEGIN() roofline_begin("kernel")
#define REGION_END() roofline_end("kernel")
#else
#define REGION_BEGIN() ((void)0)
#define REGION_END() ((void)0)
#endif

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void* alloc(size_t bytes) {
    void* p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    memset(p, 0, bytes);
    return p;
}

static double* dalloc(size_t n, double v) {
    double* a = alloc(n * sizeof *a);
    for (size_t i = 0; i < n; ++i) a[i] = v + (double)(i % 7) * 1e-3;
    return a;
}

/* xorshift64: reproducible random indices without libc's rand. */
static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static volatile double sink;

/* ---- the loops (noinline: each is one function the tools can name) -------------------- */

/* 2-D 5-point Jacobi on an n x n grid: 4 FLOP per inner point (3 adds, 1 multiply). */
__attribute__((noinline)) static void jacobi2d(size_t n, const double* restrict a, double* restrict b) {
    for (size_t i = 1; i < n - 1; ++i)
        for (size_t j = 1; j < n - 1; ++j)
            b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
}

/* 3-D 7-point Jacobi on n^3: 8 FLOP per inner point (6 adds, 2 multiplies). */
__attribute__((noinline)) static void jacobi3d(size_t n, const double* restrict a, double* restrict b) {
    const size_t p = n * n;
    for (size_t k = 1; k < n - 1; ++k)
        for (size_t j = 1; j < n - 1; ++j)
            for (size_t i = 1; i < n - 1; ++i) {
                const size_t c = k * p + j * n + i;
                b[c] = 0.5 * a[c] + 0.125 * (a[c - 1] + a[c + 1] + a[c - n] + a[c + n] + a[c - p] + a[c + p]);
            }
}

/* Out-of-place transpose b = a^T, n x n doubles: no FLOPs. */
__attribute__((noinline)) static void transpose_naive(size_t n, const double* restrict a, double* restrict b) {
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) b[j * n + i] = a[i * n + j];
}

/* The same in 32 x 32 tiles (two tiles, 16 KiB, in L1). */
__attribute__((noinline)) static void transpose_blocked(size_t n, const double* restrict a, double* restrict b) {
    enum { T = 32 };
    for (size_t ii = 0; ii < n; ii += T)
        for (size_t jj = 0; jj < n; jj += T)
            for (size_t i = ii; i < ii + T && i < n; ++i)
                for (size_t j = jj; j < jj + T && j < n; ++j) b[j * n + i] = a[i * n + j];
}

/* Histogram: h[idx[i]] += 1 over m bins with random idx; 1 add per iteration (a double, so
 * it is a FLOP). */
__attribute__((noinline)) static void histogram(size_t n, const uint32_t* restrict idx, double* restrict h) {
    for (size_t i = 0; i < n; ++i) h[idx[i]] += 1.0;
}

/* y = A x, A m x n row-major: inner loop over j (y[i] in a register). 2 FLOP per element. */
__attribute__((noinline)) static void dmvm_row(size_t m, size_t n, const double* restrict A, const double* restrict x,
                                               double* restrict y) {
    for (size_t i = 0; i < m; ++i) {
        double s = y[i];
        for (size_t j = 0; j < n; ++j) s += A[i * n + j] * x[j];
        y[i] = s;
    }
}

/* y = A x, A stored column by column (A[j][i] is element (i, j)): inner loop over i. */
__attribute__((noinline)) static void dmvm_col(size_t m, size_t n, const double* restrict A, const double* restrict x,
                                               double* restrict y) {
    for (size_t j = 0; j < n; ++j) {
        const double xj = x[j];
        for (size_t i = 0; i < m; ++i) y[i] += A[j * m + i] * xj;
    }
}

/* Sum of every 8th double: one element per 64-byte line. 1 FLOP per iteration. */
__attribute__((noinline)) static double strided_sum(size_t n, const double* restrict a) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += a[i * 8];
    return s;
}

__attribute__((noinline)) static double dot(size_t n, const double* restrict a, const double* restrict b) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

__attribute__((noinline)) static double sum_double(size_t n, const double* restrict a) {
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += a[i];
    return s;
}

__attribute__((noinline)) static float sum_float(size_t n, const float* restrict a) {
    float s = 0;
    for (size_t i = 0; i < n; ++i) s += a[i];
    return s;
}

/* ---- the driver ------------------------------------------------------------------------ */

struct run {
    const char* name;
    size_t n;
    double iterations, flops, bytes;  /* per pass, on paper */
    double checksum;
};

#define TIMED(pass_stmt)                                                     \
    do {                                                                     \
        pass_stmt; /* warm-up: pages touched, caches as the loop leaves them */ \
        REGION_BEGIN();                                                      \
        for (int r = 0; r < reps; ++r) {                                     \
            const double t0 = now();                                         \
            pass_stmt;                                                       \
            const double t = now() - t0;                                     \
            if (t < best) best = t;                                          \
        }                                                                    \
        REGION_END();                                                        \
    } while (0)

int main(int argc, char** argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s KERNEL N REPS\n", argv[0]);
        return 2;
    }
    const char* k = argv[1];
    const size_t n = strtoull(argv[2], NULL, 10);
    const int reps = atoi(argv[3]);
    if (n < 4 || reps < 1) {
        fprintf(stderr, "N must be at least 4 and REPS at least 1\n");
        return 2;
    }
    double best = 1e300;
    struct run run = {k, n, 0, 0, 0, 0};
    if (!strcmp(k, "jacobi2d")) {
        double *a = dalloc(n * n, 1), *b = dalloc(n * n, 0);
        TIMED(jacobi2d(n, a, b));
        run.iterations = (double)(n - 2) * (double)(n - 2);
        run.flops = 4 * run.iterations;
        run.bytes = 48 * run.iterations;  /* 5 loads, 1 store */
        run.checksum = b[n + 1];
    } else if (!strcmp(k, "jacobi3d")) {
        double *a = dalloc(n * n * n, 1), *b = dalloc(n * n * n, 0);
        TIMED(jacobi3d(n, a, b));
        run.iterations = (double)(n - 2) * (double)(n - 2) * (double)(n - 2);
        run.flops = 8 * run.iterations;
        run.bytes = 64 * run.iterations;
        run.checksum = b[n * n + n + 1];
    } else if (!strcmp(k, "transpose_naive") || !strcmp(k, "transpose_blocked")) {
        double *a = dalloc(n * n, 1), *b = dalloc(n * n, 0);
        if (!strcmp(k, "transpose_naive")) TIMED(transpose_naive(n, a, b));
        else TIMED(transpose_blocked(n, a, b));
        run.iterations = (double)n * (double)n;
        run.bytes = 16 * run.iterations;
        run.checksum = b[1];
    } else if (!strncmp(k, "histogram", 9)) {
        /* histogram:M — M bins (default 65536: 512 KiB of doubles). */
        const size_t m = k[9] == ':' ? strtoull(k + 10, NULL, 10) : 65536;
        uint32_t* idx = alloc(n * sizeof *idx);
        for (size_t i = 0; i < n; ++i) idx[i] = (uint32_t)(next_random() % m);
        double* h = dalloc(m, 0);
        TIMED(histogram(n, idx, h));
        run.iterations = (double)n;
        run.flops = run.iterations;
        run.bytes = 20 * run.iterations;  /* idx 4 B, h 8 B loaded and stored */
        run.checksum = h[0];
    } else if (!strcmp(k, "dmvm_row") || !strcmp(k, "dmvm_col")) {
        double *A = dalloc(n * n, 1), *x = dalloc(n, 1), *y = dalloc(n, 0);
        if (!strcmp(k, "dmvm_row")) TIMED(dmvm_row(n, n, A, x, y));
        else TIMED(dmvm_col(n, n, A, x, y));
        run.iterations = (double)n * (double)n;
        run.flops = 2 * run.iterations;
        run.bytes = (!strcmp(k, "dmvm_row") ? 16 : 24) * run.iterations; /* col: y loaded and stored */
        run.checksum = y[0];
    } else if (!strcmp(k, "strided_sum")) {
        double* a = dalloc(n * 8, 1);
        double s = 0;
        TIMED(s += strided_sum(n, a));
        run.iterations = (double)n;
        run.flops = run.iterations;
        run.bytes = 8 * run.iterations;
        run.checksum = s;
    } else if (!strcmp(k, "dot")) {
        double *a = dalloc(n, 1), *b = dalloc(n, 2);
        double s = 0;
        TIMED(s += dot(n, a, b));
        run.iterations = (double)n;
        run.flops = 2 * run.iterations;
        run.bytes = 16 * run.iterations;
        run.checksum = s;
    } else if (!strcmp(k, "sum_double")) {
        double* a = dalloc(n, 1);
        double s = 0;
        TIMED(s += sum_double(n, a));
        run.iterations = (double)n;
        run.flops = run.iterations;
        run.bytes = 8 * run.iterations;
        run.checksum = s;
    } else if (!strcmp(k, "sum_float")) {
        float* a = alloc(n * sizeof *a);
        for (size_t i = 0; i < n; ++i) a[i] = 1.0f + (float)(i % 7) * 1e-3f;
        float s = 0;
        TIMED(s += sum_float(n, a));
        run.iterations = (double)n;
        run.flops = run.iterations;
        run.bytes = 4 * run.iterations;
        run.checksum = s;
    } else {
        fprintf(stderr, "unknown kernel %s\n", k);
        return 2;
    }
    sink = run.checksum;
    printf("kernel=%s n=%zu iterations=%.0f seconds=%.6g gflops=%.4g gbs=%.4g checksum=%.6g\n", run.name, run.n,
           run.iterations, best, run.flops / best / 1e9, run.bytes / best / 1e9, run.checksum);
    return 0;
}
