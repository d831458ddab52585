/* The program bench/loops-check.sh measures (issue 36's "Done when"): loops of known
 * counts side by side in one function, each in a function of its own kind.
 *
 *   sweep_reduce_copy  a 3-point stencil sweep (4 (n-2) FLOPs), a reduction (n-2) and a
 *                      scaled copy (n), on arrays of n doubles (n large: larger than the
 *                      last-level cache, so every loop reads its arrays from DRAM)
 *   matmul             a triply nested multiply of m x m matrices, 2 m^3 FLOPs
 *   matmul_blocked     the same in 8 x 8 blocks, 2 m^3 FLOPs, on matrices of its own
 *   call_in_loop       a loop calling add_scaled (2 FLOPs a call) n times
 *
 * Built with -DUSE_MARKERS, each loop nest is wrapped in a marker region named as the
 * script names it (the reference for the time shares); without, the code has no call
 * between its loops. The big arrays are initialized after the matrices, so the
 * matrices are out of every cache when the multiplies start.
 *
 * usage: loops-check N M [REPS]   (M a multiple of 8; REPS repeats everything) */
#include <stdio.h>
#include <stdlib.h>

#ifdef USE_MARKERS
#include <roofline/roofline.h>
#define BEGIN(name) roofline_begin(name)
#define END(name) roofline_end(name)
#else
#define BEGIN(name) ((void)0)
#define END(name) ((void)0)
#endif

#define NOINLINE __attribute__((noinline))

NOINLINE double sweep_reduce_copy(long n, const double *restrict a, double *restrict b,
                                  double *restrict c)
{
    BEGIN("sweep");
    for (long i = 1; i < n - 1; i++) /* sweep */
        b[i] = 0.25 * (a[i - 1] + a[i + 1]) + 0.5 * a[i];
    END("sweep");
    double s = 0.0;
    BEGIN("reduce");
    for (long i = 1; i < n - 1; i++) /* reduce */
        s += b[i];
    END("reduce");
    BEGIN("copy");
    for (long i = 0; i < n; i++) /* copy */
        c[i] = 2.0 * a[i];
    END("copy");
    return s;
}

NOINLINE void matmul(long m, const double *restrict a, const double *restrict b, double *restrict c)
{
    BEGIN("matmul");
    for (long i = 0; i < m; i++) /* matmul i */
        for (long k = 0; k < m; k++) { /* matmul k */
            const double aik = a[i * m + k];
            for (long j = 0; j < m; j++) /* matmul j */
                c[i * m + j] += aik * b[k * m + j];
        }
    END("matmul");
}

NOINLINE void matmul_blocked(long m, const double *restrict a, const double *restrict b,
                             double *restrict c)
{
    BEGIN("blocked");
    for (long ii = 0; ii < m; ii += 8) /* blocked ii */
        for (long kk = 0; kk < m; kk += 8) /* blocked kk */
            for (long i = ii; i < ii + 8; i++) /* blocked i */
                for (long k = kk; k < kk + 8; k++) { /* blocked k */
                    const double aik = a[i * m + k];
                    for (long j = 0; j < m; j++) /* blocked j */
                        c[i * m + j] += aik * b[k * m + j];
                }
    END("blocked");
}

NOINLINE double add_scaled(double s, double x) { return s + 3.0 * x; }
NOINLINE double call_in_loop(long n, const double *x)
{
    double s = 0.0;
    BEGIN("calling");
    for (long i = 0; i < n; i++) /* calling */
        s = add_scaled(s, x[i]);
    END("calling");
    return s;
}

static double *filled(long len, double first)
{
    double *p = malloc(sizeof(double) * (size_t)len);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (long i = 0; i < len; i++) p[i] = first + (double)(i % 7);
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N M [REPS]\n", argv[0]);
        return 2;
    }
    const long n = atol(argv[1]), m = atol(argv[2]);
    const long reps = argc > 3 ? atol(argv[3]) : 1;
    if (n < 3 || m < 8 || m % 8 || reps < 1) {
        fprintf(stderr, "N at least 3, M a multiple of 8 (at least 8), REPS at least 1\n");
        return 2;
    }
#ifdef USE_MARKERS
    roofline_init();
#endif
    double *ma = filled(m * m, 1), *mb = filled(m * m, 2), *mc = filled(m * m, 0);
    double *ba = filled(m * m, 1), *bb = filled(m * m, 2), *bc = filled(m * m, 0);
    double *x = filled(n, 1), *y = filled(n, 0), *z = filled(n, 0);
    double r = 0;
    for (long rep = 0; rep < reps; rep++) {
        matmul(m, ma, mb, mc);
        r += sweep_reduce_copy(n, x, y, z); /* streams every cache empty again */
        matmul_blocked(m, ba, bb, bc);
        r += call_in_loop(n, z);
    }
    printf("%g %g %g\n", r, mc[m * m - 1], bc[m * m - 1]);
#ifdef USE_MARKERS
    roofline_finalize();
#endif
    return 0;
}
