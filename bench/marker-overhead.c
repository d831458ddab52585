/* Cost of one roofline_begin/roofline_end pair, in ns, on one thread.
 * Usage: marker_overhead [pairs]   (prints "ns_per_pair <value>")
 * Run it plain (library off) and with ROOFLINE_MARKER_OUT set (timing). */
#include <roofline/roofline.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
    long pairs = argc > 1 ? atol(argv[1]) : 2000000;
    if (pairs < 1) pairs = 1;
    roofline_init();
    /* Warm up: thread state, region table, page faults. */
    for (int i = 0; i < 1000; ++i) {
        roofline_begin("overhead");
        roofline_end("overhead");
    }
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
        double t0 = now_s();
        for (long i = 0; i < pairs; ++i) {
            roofline_begin("overhead");
            roofline_end("overhead");
        }
        double ns = (now_s() - t0) * 1e9 / (double)pairs;
        if (ns < best) best = ns;
    }
    printf("ns_per_pair %.1f\n", best);
    roofline_finalize();
    return 0;
}
