/* A program without any markers: `roofline measure` still measures the whole
 * program ("(program)"), lists the functions doing the work (--functions) and
 * turns a function into a region without recompiling (--region-function dot).
 *
 *   plain_dot [N [REPETITIONS]]          (default N = 100000, 10 repetitions)
 *
 * dot() does 2 * N FLOPs per call (one multiply, one add per element). */
#include <stdio.h>
#include <stdlib.h>

/* noinline: a function inlined into its caller has no calls to count. */
__attribute__((noinline)) double dot(long n, const double* x, const double* y) {
    double s = 0.0;
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    const int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n <= 0 || reps < 0) {
        fprintf(stderr, "usage: %s [N [REPETITIONS]]\n", argv[0]);
        return 2;
    }
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    if (!x || !y) return 2;
    for (long i = 0; i < n; ++i) {
        x[i] = 1.0;
        y[i] = 2.0;
    }
    double total = 0.0;
    for (int r = 0; r < reps; ++r) {
        total += dot(n, x, y);
        /* Change the data between calls: otherwise the compiler may see that dot()
         * only reads memory and call it once for all repetitions. */
        x[r % n] = 1.0;
    }
    printf("dot: n=%ld reps=%d total=%g\n", n, reps, total);
    free(x);
    free(y);
    return 0;
}
