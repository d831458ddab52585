// A non-leaf function called too often to time call by call, for
// --region-function step: its time must come from call-stack samples.
//
//   call_tree [N [STEPS]]     (default N = 2000, 100000 steps)
//
// step() scales x (N FLOPs) and calls axpy() (2·N FLOPs): 3·N per call,
// 3·N·STEPS in all. warm_up() runs first, outside step(), for about as long, so a
// tool that credits step() with the whole run is off by about 2×. The program
// prints the CPU time of its step() loop, measured by itself around the loop
// (CPU time, as sampled function times are: on a busy machine wall time also
// counts the time the process waited for a CPU), and appends it to the file
// $CALL_TREE_LOG names, when set.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __attribute__((noinline)) void axpy(double a, const double* x, double* y, int n) {
    for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

static __attribute__((noinline)) void step(double* x, double* y, int n) {
    for (int i = 0; i < n; ++i) x[i] *= 0.999999;
    axpy(0.5, x, y, n);
}

static __attribute__((noinline)) double warm_up(double* y, int n, int reps) {
    double s = 0;
    for (int r = 0; r < reps; ++r)
        for (int i = 0; i < n; ++i) s += y[i] * 1.0000001 + (double)r;
    return s;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 2000;
    const int steps = argc > 2 ? atoi(argv[2]) : 100000;
    if (n < 1 || steps < 0) {
        fprintf(stderr, "usage: %s [N>=1 [STEPS>=0]]\n", argv[0]);
        return 2;
    }
    double* x = malloc(sizeof(double) * (size_t)n);
    double* y = malloc(sizeof(double) * (size_t)n);
    if (!x || !y) return 1;
    for (int i = 0; i < n; ++i) x[i] = y[i] = 1.0;
    const double warm = warm_up(y, n, steps);
    const double start = now();
    for (int s = 0; s < steps; ++s) step(x, y, n);
    const double seconds = now() - start;
    printf("call_tree: n=%d steps=%d y0=%g warm=%g step_seconds=%.6f\n", n, steps, y[0], warm, seconds);
    // Every run's clock, also of runs whose output a tool hides (roofline measure shows the first
    // run's only): appended to $CALL_TREE_LOG when it is set.
    const char* log = getenv("CALL_TREE_LOG");
    FILE* f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "step_seconds=%.6f\n", seconds);
        fclose(f);
    }
    free(x);
    free(y);
    return 0;
}
