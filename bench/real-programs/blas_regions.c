/* Threaded OpenBLAS inside marker regions opened on the main thread. */
#include <cblas.h>
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 300, reps = argc > 2 ? atoi(argv[2]) : 20, m = 2000;
    double *A = malloc(8L * n * n), *B = malloc(8L * n * n), *C = calloc((size_t)n * n, 8);
    double *M = malloc(8L * m * m), *x = malloc(8L * m), *y = calloc(m, 8);
    for (long i = 0; i < (long)n * n; i++) { A[i] = 1e-3 * (double)(i % 7); B[i] = 1e-3 * (double)(i % 5); }
    for (long i = 0; i < (long)m * m; i++) M[i] = 1e-6 * (double)(i % 11);
    for (int i = 0; i < m; i++) x[i] = 1;
    roofline_init();
    double t0 = now();
    roofline_begin("dgemm");
    for (int r = 0; r < reps; r++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 1.0, C, n);
    roofline_end("dgemm");
    double t1 = now();
    roofline_begin("dgemv");
    for (int r = 0; r < 5 * reps; r++) cblas_dgemv(CblasRowMajor, CblasNoTrans, m, m, 1.0, M, m, x, 1, 0.5, y, 1);
    roofline_end("dgemv");
    double t2 = now();
    roofline_finalize();
    printf("check dgemm flops=%.6e seconds=%.6f\n", 2.0 * n * n * n * reps, t1 - t0);
    printf("check dgemv flops=%.6e seconds=%.6f\n", 2.0 * m * m * 5 * reps, t2 - t1);
    printf("result %g %g\n", C[7], y[3]);
    return 0;
}
