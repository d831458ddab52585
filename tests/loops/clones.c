/* GCC -O2 makes scale.constprop.0 of scale (its factor a constant at every call); -O0 keeps scale. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void scale(double *a, long n, double s) {
    for (long i = 0; i < n; ++i) /* scale */
        a[i] = a[i] * s + 1.0;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000, reps = argc > 2 ? atol(argv[2]) : 100;
    double *a = calloc(n, sizeof *a);
    if (!a) return 1;
    for (long r = 0; r < reps; ++r) scale(a, n, 0.5);
    printf("%g\n", a[n / 2]);
    free(a);
    return 0;
}
