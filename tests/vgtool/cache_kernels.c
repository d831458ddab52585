/* Kernels whose traffic below L1 is known on paper, for the cache simulation tests
 * (check_cache.py). Each touches memory only as its formula says; the arrays come
 * from malloc and are written once before use (so their lines are read for
 * ownership once, and written back once, in the totals).
 *   triad N REPS      a[i] = b[i] + s*c[i]: per repetition 24 N bytes read, 8 N written
 *   reuse BYTES PASSES  one write pass, then PASSES read passes over BYTES
 *   stride N          N loads of one double every 64 bytes
 *   ntstore N         N doubles stored with movntpd, never read
 *   writeonly N REPS  a[i] = i + t: an output only written (a is not written before), each
 *                     line brought by a store and never read
 *   rmw N REPS        a[i] = 2 a[i] + 1: each stored line was just loaded (a from calloc,
 *                     whose zero pages nobody stores to)
 *   jacobi ROWS COLS SWEEPS  2-D 5-point Jacobi between two ROWS x COLS grids (the layer
 *                     condition holds in a level when 3 rows of the source fit in it)
 *   transpose ROWS COLS BLOCK  b = a^T for a ROWS x COLS matrix; BLOCK 0 is the naive
 *                     row-by-row loop, BLOCK > 0 tiles it (b is not written before)
 *   none 0            nothing: the program's own start and end, subtracted as a baseline */
#include <emmintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *array(long n, double v) {
    double *a = aligned_alloc(64, (size_t)n * sizeof(double));
    if (!a) exit(3);
    for (long i = 0; i < n; ++i) a[i] = v;
    return a;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *k = argv[1];
    const long n = atol(argv[2]);
    const long reps = argc > 3 ? atol(argv[3]) : 1;
    double r = 0;
    if (strcmp(k, "triad") == 0) {
        double *a = array(n, 0.5), *b = array(n, 1), *c = array(n, 2);  /* not 0: malloc + zeroing may become calloc */
        for (long t = 0; t < reps; ++t)
            for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
        r = a[n / 2];
    } else if (strcmp(k, "reuse") == 0) {
        const long m = n / (long)sizeof(double);
        double *a = array(m, 1);
        for (long t = 0; t < reps; ++t)
            for (long i = 0; i < m; ++i) r += a[i];
    } else if (strcmp(k, "stride") == 0) {
        double *a = malloc((size_t)n * 64);
        if (!a) return 3;
        for (long i = 0; i < n; ++i) r += ((volatile double *)a)[8 * i];
    } else if (strcmp(k, "ntstore") == 0) {
        double *a = aligned_alloc(64, (size_t)n * sizeof(double));
        if (!a) return 3;
        const __m128d v = _mm_set1_pd(1.5);
        for (long i = 0; i < n; i += 2) _mm_stream_pd(a + i, v);
        _mm_sfence();
        r = 1;
    } else if (strcmp(k, "writeonly") == 0) {
        double *a = aligned_alloc(64, (size_t)n * sizeof(double));
        if (!a) return 3;
        for (long t = 0; t < reps; ++t)
            for (long i = 0; i < n; ++i) a[i] = (double)i + (double)t;
        r = a[n / 2];
    } else if (strcmp(k, "rmw") == 0) {
        double *a = calloc((size_t)n, sizeof(double));
        if (!a) return 3;
        for (long t = 0; t < reps; ++t)
            for (long i = 0; i < n; ++i) a[i] = 2 * a[i] + 1;
        r = a[n / 2];
    } else if (strcmp(k, "jacobi") == 0 && argc > 4) {
        const long rows = n, cols = atol(argv[3]), sweeps = atol(argv[4]);
        double *a = array(rows * cols, 1), *b = array(rows * cols, 0.5);
        for (long t = 0; t < sweeps; ++t) {
            for (long i = 1; i < rows - 1; ++i)
                for (long j = 1; j < cols - 1; ++j)
                    b[i * cols + j] = 0.25 * (a[(i - 1) * cols + j] + a[(i + 1) * cols + j] +
                                              a[i * cols + j - 1] + a[i * cols + j + 1]);
            double *s = a; a = b; b = s;
        }
        r = a[(rows / 2) * cols + cols / 2];
    } else if (strcmp(k, "transpose") == 0 && argc > 4) {
        const long rows = n, cols = atol(argv[3]), block = atol(argv[4]);
        double *a = array(rows * cols, 1);
        double *b = aligned_alloc(64, (size_t)(rows * cols) * sizeof(double));
        if (!b) return 3;
        if (block <= 0) {
            for (long i = 0; i < rows; ++i)
                for (long j = 0; j < cols; ++j) b[j * rows + i] = a[i * cols + j];
        } else {
            for (long ii = 0; ii < rows; ii += block)
                for (long jj = 0; jj < cols; jj += block)
                    for (long i = ii; i < ii + block && i < rows; ++i)
                        for (long j = jj; j < jj + block && j < cols; ++j) b[j * rows + i] = a[i * cols + j];
        }
        r = b[(cols / 2) * rows + rows / 2];
    } else if (strcmp(k, "none") != 0) {
        return 2;
    }
    printf("%g\n", r);
    return 0;
}
