/* Regions whose own work is known, for the marker calls' own cost
 * (scenario.measure_marker_call_cost):
 *   call_cost [N]     (default N = 20000)
 * "empty": N regions with nothing in them; "loads": N/10 regions of 512 volatile 8-byte loads
 * (4096 bytes a call, no stores); "outer": one region around N/10 regions "inside", each of
 * 512 such loads. */
#include <roofline/roofline.h>

#include <stdio.h>
#include <stdlib.h>

static volatile double v[512];

static double load_all(void) {
    double s = 0;
    for (int i = 0; i < 512; ++i) s += v[i];
    return s;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 20000;
    if (n < 10) {
        fprintf(stderr, "usage: %s [N >= 10]\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 512; ++i) v[i] = i;
    double s = 0;
    for (long i = 0; i < n; ++i) {
        roofline_begin("empty");
        roofline_end("empty");
    }
    for (long i = 0; i < n / 10; ++i) {
        roofline_begin("loads");
        s += load_all();
        roofline_end("loads");
    }
    roofline_begin("outer");
    for (long i = 0; i < n / 10; ++i) {
        roofline_begin("inside");
        s += load_all();
        roofline_end("inside");
    }
    roofline_end("outer");
    printf("call_cost: n=%ld s=%g\n", n, s);
    return 0;
}
