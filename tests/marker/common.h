/* Helpers shared by the marker test programs. */
#ifndef ROOFLINE_TEST_MARKER_COMMON_H
#define ROOFLINE_TEST_MARKER_COMMON_H
#include <time.h>

static inline void sleep_ms(int ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* Burns `ms` milliseconds of this thread's CPU time (not wall time: on a
 * loaded machine the thread may wait for a core). */
static inline double spin_ms(int ms) {
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    volatile double x = 1.0;
    for (;;) {
        for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        if ((double)(t.tv_sec - t0.tv_sec) * 1e3 + (double)(t.tv_nsec - t0.tv_nsec) * 1e-6 >= ms)
            break;
    }
    return x;
}
#endif
