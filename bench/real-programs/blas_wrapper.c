/* A driver that calls a library, both measured by --region-function. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) void solve_block(int n, const double* A, const double* B, double* C) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, A, n, B, n, 1.0, C, n);
    for (int i = 0; i < n; i++) C[i * (n + 1)] += 1.0;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 200, reps = argc > 2 ? atoi(argv[2]) : 40;
    double *A = malloc(8L * n * n), *B = malloc(8L * n * n), *C = calloc((size_t)n * n, 8);
    for (long i = 0; i < (long)n * n; i++) { A[i] = 1e-3 * (double)(i % 7); B[i] = 1e-3 * (double)(i % 5); }
    const double t0 = now();
    for (int r = 0; r < reps; r++) solve_block(n, A, B, C);
    const double t = now() - t0;
    printf("check solve_block flops=%.6e seconds=%.6f\n", (2.0 * n * n * n + n) * reps, t);
    printf("result %g\n", C[5]);
    return 0;
}
