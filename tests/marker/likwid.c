/* A LIKWID-instrumented program, unchanged: built with and without -DLIKWID_PERFMON. */
#include <roofline/likwid-marker.h>

#include <stdio.h>

#include "common.h"

int main(void) {
    LIKWID_MARKER_INIT;
    LIKWID_MARKER_THREADINIT;
    LIKWID_MARKER_REGISTER("compute");
    for (int i = 0; i < 2; ++i) {
        LIKWID_MARKER_START("compute");
        sleep_ms(10);
        LIKWID_MARKER_STOP("compute");
    }
    LIKWID_MARKER_START("io");
    LIKWID_MARKER_START("compute");
    sleep_ms(5);
    LIKWID_MARKER_STOP("compute");
    LIKWID_MARKER_STOP("io");
    int nevents = 4, count = 0;
    double events[4], time = 0;
    LIKWID_MARKER_GET("compute", &nevents, events, &time, &count);
    (void)events;
    (void)nevents;
    printf("compute count=%d time=%.6f\n", count, time);
    LIKWID_MARKER_RESET("never_used");
    LIKWID_MARKER_CLOSE;
    return 0;
}
