/* C = A B blocked in 32 x 32 tiles, loops i, k, j inside a tile: the inner
 * loop updates a row of C's tile with a row of B's tile times one element of
 * A, unit stride, vectorized with FMAs at -O3 -march=x86-64-v3. Three tiles
 * (3 x 8 KiB) stay in L1 while they are reused.
 *
 * Facts: N = 256, FLOPs 2 N^3 = 33.6 M, all 256-bit FMAs. Per FMA (8 FLOPs)
 * at most 2 x 32 B loaded and 32 B stored (I >= 0.083 FLOP/B at L1; 0.11
 * counted, GCC keeps some operands in registers), 43% of the bytes stored:
 * more than a triad's third. Each tile of B and C is reused 32 times from
 * L1, so far fewer bytes reach L2.
 * Advice it must lead with: a smaller share of stores (the L1 copy ceiling:
 * keep C's row in registers across k; it writes one array, C, so not "fewer
 * store streams"). Never: vectorize, FMA, non-temporal stores
 * (its stores are re-read from L1 at once). */
#include <roofline/roofline.h>
#include <stdio.h>

enum { N = 256, T = 32 };
static double a[N][N], b[N][N], c[N][N];

int main(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) a[i][j] = 1.0 / (i + j + 1), b[i][j] = i - j, c[i][j] = 0;
    roofline_begin("matmul_blocked");
    for (int ii = 0; ii < N; ii += T)
        for (int kk = 0; kk < N; kk += T)
            for (int jj = 0; jj < N; jj += T)
                for (int i = ii; i < ii + T; ++i)
                    for (int k = kk; k < kk + T; ++k) {
                        const double aik = a[i][k];
                        for (int j = jj; j < jj + T; ++j) c[i][j] += aik * b[k][j];
                    }
    roofline_end("matmul_blocked");
    printf("%.6f\n", c[N / 2][N / 3]);
    return 0;
}
