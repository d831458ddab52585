/* The same sum with eight independent scalar accumulators: eight chains
 * overlap, so the adds run at the FP pipes' rate, several times one chain's,
 * but still one double per instruction (built with -fno-tree-vectorize, as
 * code that must stay scalar is: GCC would otherwise pack the eight into
 * vectors itself).
 *
 * Facts: N = 2048 doubles (16 KiB, L1), REPS passes. FLOPs: N x REPS adds,
 * all scalar; 8 B loaded per FLOP (I = 0.125 FLOP/B at L1); no stores.
 * Advice it must lead with: vectorize (100% scalar); never "split the
 * accumulator": it already has eight. */
#include <roofline/roofline.h>
#include <stdio.h>

enum { N = 2048, REPS = 2000 };
static double x[N];

int main(void) {
    for (int i = 0; i < N; ++i) x[i] = 1.0 / (i + 1);
    double sum = 0;
    roofline_begin("unrolled_sum");
    for (int r = 0; r < REPS; ++r) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        for (int i = 0; i < N; i += 8) {
            s0 += x[i];
            s1 += x[i + 1];
            s2 += x[i + 2];
            s3 += x[i + 3];
            s4 += x[i + 4];
            s5 += x[i + 5];
            s6 += x[i + 6];
            s7 += x[i + 7];
        }
        sum += ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
        __asm__ volatile("" : : "r"(x) : "memory");
    }
    roofline_end("unrolled_sum");
    printf("%.6f\n", sum);
    return 0;
}
