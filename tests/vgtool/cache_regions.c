/* Marker regions under the cache simulation (check_cache_regions.py):
 *   triad_l3 N REPS  writes a, b, c (N doubles each), runs two triads a[i] = b[i] + s*c[i]
 *                    to settle the caches, then REPS more inside region "triad": a working
 *                    set between L2 and L3 whose lines were all written before the region
 *   nested N         N times: region "outer" around work(16) and region "inner" around
 *                    work(8), where work(k) does k scalar multiplies and k adds over a
 *                    stack array (4 region events per iteration) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roofline/roofline_vg_requests.h"

#define BEGIN(name) VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, name, 0, 0, 0, 0)
#define END(name) VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, name, 0, 0, 0, 0)

static double *array(long n, double v) {
    double *a = aligned_alloc(64, (size_t)n * sizeof(double));
    if (!a) exit(3);
    for (long i = 0; i < n; ++i) a[i] = v;
    return a;
}

__attribute__((noinline)) static void triad(double *a, const double *b, const double *c, long n) {
    for (long i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
}

__attribute__((noipa)) static double work(const double *x, int k) {
    double s = 0;
    for (int i = 0; i < k; ++i) s += x[i] * 1.5;
    return s;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    const char *k = argv[1];
    const long n = atol(argv[2]);
    const long reps = argc > 3 ? atol(argv[3]) : 1;
    double r = 0;
    if (strcmp(k, "triad_l3") == 0) {
        double *a = array(n, 0.5), *b = array(n, 1), *c = array(n, 2);
        triad(a, b, c, n);
        triad(a, b, c, n);
        BEGIN("triad");
        for (long t = 0; t < reps; ++t) triad(a, b, c, n);
        END("triad");
        r = a[n / 2];
    } else if (strcmp(k, "nested") == 0) {
        double x[16];
        for (int i = 0; i < 16; ++i) x[i] = i;
        for (long c = 0; c < n; ++c) {
            BEGIN("outer");
            r += work(x, 16);
            BEGIN("inner");
            r += work(x, 8);
            END("inner");
            END("outer");
        }
    } else {
        return 2;
    }
    printf("%g\n", r);
    return 0;
}
