/* The program calling tests/loops/loops_lib.c's functions (measure --loops-library): a loop
 * calling sum_squares through the PLT reps times, one call of scale and one of halve.
 * usage: uses_loops_lib N REPS */
#include <stdio.h>
#include <stdlib.h>

double sum_squares(long n, const double *x);
void scale(long n, double a, double *x);
double halve(long n, double *x);

__attribute__((noinline)) double repeat_sums(long reps, long n, const double *x)
{
    double s = 0.0;
    for (long r = 0; r < reps; r++) /* repeating */
        s += sum_squares(n, x);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s N REPS\n", argv[0]);
        return 2;
    }
    const long n = atol(argv[1]), reps = atol(argv[2]);
    double *x = malloc(sizeof(double) * (size_t)n);
    if (!x) return 1;
    for (long i = 0; i < n; i++) x[i] = (double)(i % 5);
    scale(n, 0.5, x);
    halve(n, x);
    printf("%g\n", repeat_sums(reps, n, x));
    free(x);
    return 0;
}
