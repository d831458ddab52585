/* Each rank updates its own vector (2 FLOPs per element), then one allreduce. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void update(int n, double a, const double* x, double* y) {
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int n = argc > 1 ? atoi(argv[1]) : 1000000, reps = argc > 2 ? atoi(argv[2]) : 50;
    double *x = malloc(8L * n), *y = malloc(8L * n);
    for (int i = 0; i < n; i++) { x[i] = 1; y[i] = rank; }
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++) update(n, 1.0001, x, y);
    double t = MPI_Wtime() - t0, local = y[n / 2], sum = 0, slowest = 0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) printf("check update flops=%.6e seconds=%.6f\nresult %g\n", 2.0 * n * reps * size, slowest, sum);
    MPI_Finalize();
    return 0;
}
