/* A sum with one accumulator: every add waits for the one before (a dependent
 * chain), and without -ffast-math GCC may not reorder it, so it stays scalar.
 *
 * Facts: N = 2048 doubles (16 KiB, in L1 on every x86-64 CPU), REPS passes.
 * FLOPs: N x REPS adds, all scalar, no FMA. Loads: 8 B per FLOP (I = 0.125
 * FLOP/B at L1), stores: none in the region. Rate: one add per add latency
 * (3-4 cycles on current cores), a fraction of the L1 roof at that intensity.
 * Advice it must lead with: split the chain (then vectorize, 100% scalar): the
 * chain is what holds it, and -O3 -march=native alone keeps it scalar. */
#include <roofline/roofline.h>
#include <stdio.h>

enum { N = 2048, REPS = 2000 };
static double x[N];

int main(void) {
    for (int i = 0; i < N; ++i) x[i] = 1.0 / (i + 1);
    double sum = 0;
    roofline_begin("chain_sum");
    for (int r = 0; r < REPS; ++r) {
        double s = 0;
        for (int i = 0; i < N; ++i) s += x[i];
        sum += s;
        __asm__ volatile("" : : "r"(x) : "memory");  /* each pass reads x again */
    }
    roofline_end("chain_sum");
    printf("%.6f\n", sum);
    return 0;
}
