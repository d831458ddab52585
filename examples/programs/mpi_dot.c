/* An MPI program of known FLOPs: each rank computes a dot product over its
 * own N elements REPS times (2 * N * REPS FLOPs per rank, in region "dot"),
 * then the ranks sum their results with MPI_Allreduce (outside the region).
 *
 *   mpirun -np 2 roofline measure -o job.json -- ./mpi_dot [N [REPS]]
 *
 * Each rank measures itself; rank 0 writes the per-rank points and their sum.
 * Default N = 200000, REPS = 20: 8e6 FLOPs per rank. dot() is not inlined,
 * so --region-function dot measures it too. */
#include <mpi.h>
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double dot(long n, const double* x, const double* y) {
    double s = 0.0;
    for (long i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 200000;
    long reps = argc > 2 ? atol(argv[2]) : 20;
    if (n <= 0 || reps <= 0) {
        if (rank == 0) fprintf(stderr, "usage: mpi_dot [N [REPS]] (both positive)\n");
        MPI_Finalize();
        return 2;
    }
    double* x = malloc(sizeof(double) * (size_t)n);
    double* y = malloc(sizeof(double) * (size_t)n);
    if (!x || !y) MPI_Abort(MPI_COMM_WORLD, 1);
    for (long i = 0; i < n; ++i) {
        x[i] = 1.0;
        y[i] = 0.5;
    }
    roofline_init();
    double local = 0.0;
    roofline_begin("dot");
    for (long r = 0; r < reps; ++r) local += dot(n, x, y);
    roofline_end("dot");
    roofline_finalize();
    double total = 0.0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double expected = 0.5 * (double)n * (double)reps * size;
    if (rank == 0) printf("dot: %.1f (expected %.1f) over %d ranks\n", total, expected, size);
    free(x);
    free(y);
    MPI_Finalize();
    return total == expected ? 0 : 1;
}
