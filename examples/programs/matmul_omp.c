/* Dense matrix product C = A * B with OpenMP, marked inside the parallel region.
 *
 *   OMP_NUM_THREADS=2 matmul_omp [N]          (default N = 64)
 *
 * Every thread of the team begins and ends region "matmul" around its share of
 * the rows (an `omp for`), so the region reports one call per thread and the
 * team's 2 * N^3 FLOPs (one multiply and one add per inner iteration). */
#include <omp.h>
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 64;
    if (n <= 0) {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        return 2;
    }
    double* a = malloc((size_t)n * n * sizeof *a);
    double* b = malloc((size_t)n * n * sizeof *b);
    double* c = malloc((size_t)n * n * sizeof *c);
    if (!a || !b || !c) return 2;
    for (int i = 0; i < n * n; ++i) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }

    int threads = 0;
#pragma omp parallel
    {
        /* Begin and end on the same thread: here, inside the parallel region. */
        roofline_begin("matmul");
#pragma omp for schedule(static)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                double sum = 0.0;
                for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
                c[i * n + j] = sum;
            }
        roofline_end("matmul");
#pragma omp single
        threads = omp_get_num_threads();
    }

    printf("matmul: n=%d threads=%d c[0]=%g\n", n, threads, c[0]);
    free(a);
    free(b);
    free(c);
    return 0;
}
