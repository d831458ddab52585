/* Loops with known FLOP counts for the Valgrind tool tests.
 * usage: loops KERNEL N   (KERNEL: daxpy dot dgemm stencil)
 * Each kernel is a noinline function named kernel_<KERNEL>; N comes from argv
 * so the compiler cannot fold the trip counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void kernel_daxpy(long n, double a, const double *restrict x,
                                            double *restrict y)
{
    for (long i = 0; i < n; i++) y[i] += a * x[i]; /* 2n FLOPs */
}

__attribute__((noinline)) double kernel_dot(long n, const double *restrict x,
                                            const double *restrict y)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) s += x[i] * y[i]; /* 2n FLOPs */
    return s;
}

__attribute__((noinline)) void kernel_dgemm(long n, const double *restrict a,
                                            const double *restrict b, double *restrict c)
{
    for (long i = 0; i < n; i++)
        for (long k = 0; k < n; k++) {
            double aik = a[i * n + k];
            for (long j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j]; /* 2n^3 */
        }
}

__attribute__((noinline)) void kernel_stencil(long n, const double *restrict a,
                                              double *restrict b)
{
    for (long i = 1; i < n - 1; i++) /* 5(n-2) FLOPs: 3 mul + 2 add */
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s daxpy|dot|dgemm|stencil N\n", argv[0]); return 2; }
    long n = atol(argv[2]);
    const char *k = argv[1];
    long m = strcmp(k, "dgemm") == 0 ? n * n : n;
    double *x = malloc(sizeof(double) * m), *y = malloc(sizeof(double) * m),
           *z = malloc(sizeof(double) * m);
    for (long i = 0; i < m; i++) { x[i] = (double)(i % 7); y[i] = 1.0; z[i] = 0.0; }
    double r = 0.0;
    if (strcmp(k, "daxpy") == 0) { kernel_daxpy(n, 2.5, x, y); r = y[n - 1]; }
    else if (strcmp(k, "dot") == 0) r = kernel_dot(n, x, y);
    else if (strcmp(k, "dgemm") == 0) { kernel_dgemm(n, x, y, z); r = z[m - 1]; }
    else if (strcmp(k, "stencil") == 0) { kernel_stencil(n, x, z); r = z[n - 2]; }
    else { fprintf(stderr, "unknown kernel %s\n", k); return 2; }
    printf("%g\n", r);
    free(x); free(y); free(z);
    return 0;
}
