/* daxpy, y = a x + y, on N doubles per array, REPS passes: the same code in
 * L1, in L2 or in memory depending on N (argument 1).
 *
 * Facts: FLOPs 2 N REPS, one FMA per element (-march=x86-64-v3), vectorized
 * at -O3. Per element 16 B loaded (x, y) and 8 B stored (y): I = 2/24 =
 * 0.083 FLOP/B at L1; y is read before it is written, so a line of y is never
 * fetched only to be overwritten (no write-allocate traffic to save).
 *   N = 1024:    2 x 8 KiB, in L1 of every x86-64 CPU (32 KiB and up)
 *   N = 8192:    2 x 64 KiB, above every L1 (48 KiB at most), in every L2
 *                (256 KiB and up)
 *   N = 6 Mi:    2 x 48 MiB, three times a 32 MiB last-level cache, from DRAM
 * Advice each must lead with: raise the intensity at its level (it stores a
 * third of its bytes, a triad's mix: no access pattern to move toward). Never
 * non-temporal stores (L1, L2: the data lives in the cache; DRAM: y is read
 * before it is written, no write-allocate traffic to save), never vectorize,
 * never break a chain (it stores every result: no accumulator). */
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void daxpy(long n, double a, const double* x, double* y) {
    for (long i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 1024;
    const int reps = argc > 2 ? atoi(argv[2]) : 1;
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    if (n < 1 || reps < 1 || !x || !y) return 2;
    for (long i = 0; i < n; ++i) x[i] = 1.0, y[i] = 0.5;
    roofline_begin("daxpy");
    for (int r = 0; r < reps; ++r) daxpy(n, 1e-3, x, y);
    roofline_end("daxpy");
    printf("%.6f\n", y[n / 2]);
    free(x);
    free(y);
    return 0;
}
