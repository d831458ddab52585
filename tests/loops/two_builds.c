// measure --loops --counts-from (tests/scenarios/measure_loops_counts_from.sh): a triad and a dot
// product in functions of their own, run REPS times over N doubles; 2 FLOPs an element each.
#include <stdio.h>
#include <stdlib.h>

static double *a, *b, *c;

__attribute__((noinline)) void triad(long n, double s) {
    for (long i = 0; i < n; ++i) /* triad */
        a[i] = b[i] + s * c[i];
}

__attribute__((noinline)) double dot(long n) {
    double sum = 0;
    for (long i = 0; i < n; ++i) /* dot */
        sum += b[i] * c[i];
    return sum;
}

int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 1 << 16, reps = argc > 2 ? atol(argv[2]) : 100;
    a = calloc(n, sizeof *a), b = malloc(n * sizeof *b), c = malloc(n * sizeof *c);
    for (long i = 0; i < n; ++i) b[i] = 1.0 / (i + 1), c[i] = 0.5;
    double check = 0;
    for (long r = 0; r < reps; ++r) {
        triad(n, 1.0 + r);
        check += dot(n) + a[r % n];
    }
    printf("%.6g\n", check);
    return 0;
}
