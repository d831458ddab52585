/* A marked program with known counts for the measure end-to-end test:
 * 10 calls of daxpy on 2^20 doubles = 2^21 x 10 FLOPs, 24 bytes per element.
 * With "crash" as argument it aborts after the regions ended. */
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void daxpy(int n, double a, const double* x, double* y) {
    for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    const int n = 1 << 20;
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    for (int i = 0; i < n; ++i) {
        x[i] = i;
        y[i] = 1;
    }
    roofline_init();
    for (int r = 0; r < 10; ++r) {
        roofline_begin("daxpy");
        daxpy(n, 2.0, x, y);
        roofline_end("daxpy");
    }
    roofline_finalize();
    printf("%g\n", y[n / 2]);
    if (argc > 1 && strcmp(argv[1], "crash") == 0) abort();
    free(x);
    free(y);
    return argc > 1 ? atoi(argv[1]) : 0;
}
