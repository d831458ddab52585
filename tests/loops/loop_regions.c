/* Loops run inside and outside marker regions, for measure --loops (issue 36): each
 * region's loops hold only what ran while it was open.
 *
 * usage: loop_regions N   scale runs once outside every region (N FLOPs); in region
 * "solve" daxpy runs twice (4N FLOPs) and norm once (2N); daxpy runs once more outside
 * (2N); in region "check" norm runs once (2N). The loops' first lines end in comments
 * naming them. */
#include <roofline/roofline.h>

#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

NOINLINE void scale(long n, const double *restrict x, double *restrict y)
{
    for (long i = 0; i < n; i++) /* scale */
        y[i] = 3.0 * x[i];
}

NOINLINE void daxpy(long n, double a, const double *restrict x, double *restrict y)
{
    for (long i = 0; i < n; i++) /* daxpy */
        y[i] += a * x[i];
}

NOINLINE double norm(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* norm */
        s += x[i] * x[i];
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2 || atol(argv[1]) < 1) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    const long n = atol(argv[1]);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    if (!x || !y) return 1;
    for (long i = 0; i < n; i++) x[i] = (double)(i % 7);
    scale(n, x, y);
    roofline_begin("solve");
    daxpy(n, 0.5, x, y);
    daxpy(n, 0.25, y, x);
    double r = norm(n, y);
    roofline_end("solve");
    daxpy(n, 2.0, x, y);
    roofline_begin("check");
    r += norm(n, y);
    roofline_end("check");
    printf("%g\n", r);
    free(x);
    free(y);
    return 0;
}
