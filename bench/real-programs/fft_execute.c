/* FFTW's fftw_execute: a library entry that tail-jumps through a pointer.
   Its FLOPs are printed as the nominal 5 N log2 N; FFTW's algorithms do fewer. */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 4096, reps = argc > 2 ? atoi(argv[2]) : 2000;
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * n), *out = fftw_malloc(sizeof(fftw_complex) * n);
    fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    for (int i = 0; i < n; i++) { in[i][0] = sin(i); in[i][1] = 0; }
    const double t0 = now();
    for (int r = 0; r < reps; r++) fftw_execute(p);
    const double t = now() - t0;
    printf("check fftw_execute flops=%.6e seconds=%.6f nominal\n", 5.0 * n * log2(n) * reps, t);
    printf("result %g\n", out[1][0]);
    fftw_destroy_plan(p);
    return 0;
}
