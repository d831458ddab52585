/* Marker regions under the cache simulation (check_cache_regions.py):
 *   triad_l3 N REPS L2  writes a, b, c (N doubles each), runs two triads a[i] = b[i] + s*c[i]
 *                    to settle the caches, then REPS more inside region "triad": a working
 *                    set between L2 and L3 whose lines were all written before the region;
 *                    then reads 2 x L2 bytes nobody wrote, outside any region, so the lines
 *                    the region left dirty in L1 and L2 go down to L3 (its write-backs,
 *                    which happen after it)
 *   nested N         N times: region "outer" around work(16) and region "inner" around
 *                    work(8), where work(k) does k scalar multiplies and k adds over a
 *                    stack array (4 region events per iteration)
 *   two_regions NA NB  region "A" writes a (NA doubles, never read: its lines stay dirty in
 *                    the caches), then region "B" only reads b (NB doubles from calloc, never
 *                    written: clean lines), which evicts them
 *   contexts N       for i, j < N: region "r<i>" around region "s<j>", each storing to a
 *                    line: N x N + N + 1 distinct sets of open regions */
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
        const long evict = argc > 4 ? 2 * atol(argv[4]) / (long)sizeof(double) : 0;
        const double *e = calloc((size_t)evict + 1, sizeof(double));
        if (!e) return 3;
        for (long i = 0; i < evict; ++i) r += e[i];
        r += a[n / 2];
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
    } else if (strcmp(k, "two_regions") == 0 && argc > 3) {
        const long nb = atol(argv[3]);
        double *a = aligned_alloc(64, (size_t)n * sizeof(double));
        double *b = calloc((size_t)nb, sizeof(double));  /* large: fresh zero pages, no stores */
        if (!a || !b) return 3;
        BEGIN("A");
        for (long i = 0; i < n; ++i) a[i] = (double)i;
        END("A");
        BEGIN("B");
        for (long i = 0; i < nb; ++i) r += b[i];
        END("B");
    } else if (strcmp(k, "contexts") == 0) {
        static volatile double sink[8];
        char outer[32], inner[32];
        for (long i = 0; i < n; ++i) {
            snprintf(outer, sizeof outer, "r%ld", i);
            BEGIN(outer);
            for (long j = 0; j < n; ++j) {
                snprintf(inner, sizeof inner, "s%ld", j);
                BEGIN(inner);
                sink[j % 8] = (double)(i + j);
                END(inner);
            }
            sink[i % 8] = (double)i;
            END(outer);
        }
        r = sink[0];
    } else {
        return 2;
    }
    printf("%g\n", r);
    return 0;
}
