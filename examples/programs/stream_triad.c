/* STREAM-style triad a[i] = b[i] + s * c[i], marked with the roofline C API.
 *
 *   stream_triad [N [ITERATIONS [EXIT_STATUS]]]      (default N = 100000, 10 iterations)
 *
 * Regions: "init" (fills the arrays, no FLOPs) and "triad" (ITERATIONS calls,
 * 2 FLOPs and 24 bytes per element and call, so 2 * N * ITERATIONS FLOPs in all).
 * EXIT_STATUS (default 0) is what the program returns, to show that
 * `roofline measure` passes it through. */
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void triad(long n, double s, double* a, const double* b,
                                            const double* c) {
    for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    const int iterations = argc > 2 ? atoi(argv[2]) : 10;
    const int status = argc > 3 ? atoi(argv[3]) : 0;
    if (n <= 0 || iterations < 0) {
        fprintf(stderr, "usage: %s [N [ITERATIONS [EXIT_STATUS]]]\n", argv[0]);
        return 2;
    }
    double* a = malloc(n * sizeof *a);
    double* b = malloc(n * sizeof *b);
    double* c = malloc(n * sizeof *c);
    if (!a || !b || !c) return 2;

    roofline_init(); /* optional: otherwise the first begin reads the environment */

    roofline_begin("init");
    for (long i = 0; i < n; ++i) {
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
    roofline_end("init");

    for (int it = 0; it < iterations; ++it) {
        roofline_begin("triad");
        triad(n, 3.0, a, b, c);
        roofline_end("triad");
    }

    roofline_finalize(); /* optional: results are otherwise written at exit */
    printf("triad: n=%ld iterations=%d a[n/2]=%g\n", n, iterations, a[n / 2]);
    free(a);
    free(b);
    free(c);
    return status;
}
