/* The textbook multiply C = A B, loops i, j, k: the inner loop is a dot
 * product of a row of A and a column of B with one accumulator, and B is
 * walked down a column, a stride of N doubles. GCC 12 at -O2 -march=x86-64-v3
 * vectorizes the j loop around it (four columns of C at once, A's element
 * broadcast), so each vector of C is one dependent chain of N FMAs.
 *
 * Facts: N = 256, FLOPs 2 N^3 = 33.6 M, 256-bit FMAs (scalar under other
 * compilers). Per FMA instruction (8 FLOPs) 32 B of B and 8 B of A loaded:
 * I = 0.2 FLOP/B at L1. A column of B is 256 lines 2 KiB apart: they fall
 * in 2 sets of a 64-set L1, which hold 16 of them, so every FMA's line of B
 * comes from L2: 64 B per 8 FLOPs, I = 0.125 FLOP/B at L2 (A, B and C:
 * 1.5 MiB). Stores: one vector per N FMAs.
 * One chain of 4-cycle FMAs allows 2 FLOP/cycle (7.4 GFLOP/s at 3.7 GHz),
 * and it runs at about that rate, but its chain is not what holds it: four
 * accumulators made it no faster on a Zen 4 (0.37 s against 0.33-0.36 for
 * 40 multiplies), the loop order ikj (unit stride) 7x faster (0.05 s). Its
 * accesses use 63% of the bytes of the lines they bring from L2.
 * Advice it must lead with: raise the intensity at L2, by walking memory with
 * unit stride (not: split the chain, the ILP ceiling). */
#include <roofline/roofline.h>
#include <stdio.h>

enum { N = 256 };
static double a[N][N], b[N][N], c[N][N];

int main(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) a[i][j] = 1.0 / (i + j + 1), b[i][j] = i - j;
    roofline_begin("matmul_naive");
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            double s = 0;
            for (int k = 0; k < N; ++k) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    roofline_end("matmul_naive");
    printf("%.6f\n", c[N / 2][N / 3]);
    return 0;
}
