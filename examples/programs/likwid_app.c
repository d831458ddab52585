/* A program instrumented for LIKWID's marker API, unchanged, running on
 * roofline's marker library: compile with -DLIKWID_PERFMON, the include path
 * pointing at roofline's headers, and link libroofline_marker instead of liblikwid.
 *
 *   likwid_app [N [REPETITIONS]]          (default N = 100000, 10 repetitions)
 *
 * Region "axpy": REPETITIONS calls of y = a * x + y, 2 * N FLOPs per call. */
#include <roofline/likwid-marker.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void axpy(long n, double a, const double* x, double* y) {
    for (long i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    const int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n <= 0 || reps < 0) {
        fprintf(stderr, "usage: %s [N [REPETITIONS]]\n", argv[0]);
        return 2;
    }
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    if (!x || !y) return 2;
    for (long i = 0; i < n; ++i) {
        x[i] = 1.0;
        y[i] = 0.0;
    }

    LIKWID_MARKER_INIT;
    LIKWID_MARKER_THREADINIT;
    LIKWID_MARKER_REGISTER("axpy");
    for (int r = 0; r < reps; ++r) {
        LIKWID_MARKER_START("axpy");
        axpy(n, 0.5, x, y);
        LIKWID_MARKER_STOP("axpy");
    }

    /* What this thread recorded so far (zero when not run under `roofline measure`). */
    int nevents = 0, count = 0;
    double events[8], time = 0.0;
    nevents = 8;
    LIKWID_MARKER_GET("axpy", &nevents, events, &time, &count);
    (void)events;
    printf("axpy: n=%ld reps=%d y[0]=%g, recorded %d calls in %.6f s\n", n, reps, y[0], count, time);

    LIKWID_MARKER_CLOSE;
    free(x);
    free(y);
    return 0;
}
