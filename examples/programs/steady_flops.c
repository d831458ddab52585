/* A program with a known FLOP rate, for `roofline monitor` (tests/scenarios/monitor_known_rate.sh,
 * bench/monitor-overhead.sh): region "step" does 2*N FLOPs per call (y = a*x + y on N doubles),
 * CALLS times, paced at PACE calls per second (0: as fast as it can). It prints its own rate:
 * the FLOPs it did over the wall time of the loop.
 *
 *   steady_flops CALLS PACE [N]
 */
#include "roofline/roofline.h"

#include <errno.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: steady_flops CALLS PACE [N]\n");
        return 2;
    }
    const long calls = strtol(argv[1], NULL, 10);
    const double pace = strtod(argv[2], NULL);
    const long n = argc > 3 ? strtol(argv[3], NULL, 10) : 100000;
    if (calls < 1 || pace < 0 || n < 1) {
        fprintf(stderr, "steady_flops: CALLS and N must be positive, PACE >= 0\n");
        return 2;
    }
    double* x = malloc(sizeof(double) * (size_t)n);
    double* y = malloc(sizeof(double) * (size_t)n);
    if (!x || !y) return 1;
    for (long i = 0; i < n; ++i) {
        x[i] = 1.0 + (double)(i % 7);
        y[i] = 0.5;
    }
    roofline_init();
    const double a = 1e-9;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    const double t0 = now_s();
    for (long c = 0; c < calls; ++c) {
        if (pace > 0) {
            /* absolute deadlines: the pace does not drift with the work's own time */
            const long step_ns = (long)(1e9 / pace);
            next.tv_nsec += step_ns % 1000000000L;
            next.tv_sec += step_ns / 1000000000L + next.tv_nsec / 1000000000L;
            next.tv_nsec %= 1000000000L;
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {
            }
        }
        roofline_begin("step");
        for (long i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
        roofline_end("step");
    }
    const double seconds = now_s() - t0;
    double check = 0;
    for (long i = 0; i < n; ++i) check += y[i];
    const double flops = 2.0 * (double)n * (double)calls;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);  /* the whole process: a snapshot thread's time included */
    const double cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
                       1e-6 * (double)ru.ru_stime.tv_usec;
    printf("calls %ld flops_per_call %.0f seconds %.6f rate %.6f GFLOP/s (check %.3f) cpu %.6f\n", calls,
           2.0 * (double)n, seconds, flops / seconds * 1e-9, check, cpu);
    free(x);
    free(y);
    return 0;
}
