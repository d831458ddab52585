#!/usr/bin/env bash
# A loop of AVX-512 intrinsics is named by its own source line, not by the header its intrinsics
# were inlined from. Most of its instructions' line rows are avx512fintrin.h's, so the loop was
# named 'avx512fintrin.h:6318-13324' and, under --loops --counts-from, found no partner in the
# AVX2 build's 'daxpy.c:12': an audit's daxpy got no loop point ('2 loop(s) of one build have no
# loop of the same depth and source lines in the other'). A loop is now named by the lines of
# its compilation unit's own file where it has any (measure/source_lines).
# SKIPPED (exit 77) without a C compiler taking -mavx512f and -march=x86-64-v3, a CPU with
# AVX-512, valgrind or the tool.
set -u
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
grep -qw avx512f /proc/cpuinfo || { echo "SKIPPED: this CPU (or its OS) has no AVX-512"; exit 77; }
export HOME=$tmp ROOFLINE_DB=$tmp/results.db

cat >daxpy.c <<'C'
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __AVX512F__
#define W 8
#define STEP(i) _mm512_storeu_pd(y + (i), _mm512_fmadd_pd(_mm512_set1_pd(a), _mm512_loadu_pd(x + (i)), _mm512_loadu_pd(y + (i))))
#else
#define W 4
#define STEP(i) _mm256_storeu_pd(y + (i), _mm256_fmadd_pd(_mm256_set1_pd(a), _mm256_loadu_pd(x + (i)), _mm256_loadu_pd(y + (i))))
#endif
__attribute__((noinline, noipa)) void daxpy(double a, const double *x, double *y, long n) {
    for (long i = 0; i + W <= n; i += W) STEP(i); /* the loop */
}
int main(void) {
    long n = 1 << 18;
    double *x = aligned_alloc(64, 8 * n), *y = aligned_alloc(64, 8 * n);
    for (long i = 0; i < n; ++i) { x[i] = 1; y[i] = 0; }
    for (int r = 0; r < 100; ++r) daxpy(1e-3, x, y, n);
    printf("%.3f\n", y[n / 2]);
    return 0;
}
C
cc -O2 -g -gdwarf-4 -mavx512f -mfma daxpy.c -o daxpy512 2>/dev/null || { echo "SKIPPED: the C compiler does not take -mavx512f"; exit 77; }
cc -O2 -g -gdwarf-4 -march=x86-64-v3 daxpy.c -o daxpy_v3 2>/dev/null || { echo "SKIPPED: the C compiler does not take -march=x86-64-v3"; exit 77; }
./daxpy512 >/dev/null || { echo "SKIPPED: the AVX-512 build does not run here"; exit 77; }
line=$(grep -n '/\* the loop \*/' daxpy.c | cut -d: -f1)

out=$("$bin" measure --no-store --loops --counts-from ./daxpy_v3 -- ./daxpy512 2>&1) || fail "measure exited $?"
! grep -q "intrin\.h" <<<"$out" || fail "a loop is named by an intrinsics header"
! grep -q "have no loop of the same depth" <<<"$out" || fail "the loop of one build found no partner in the other"
row=$(grep -E "^daxpy\.c:$line +" <<<"$out" | head -1)
[[ -n $row ]] || fail "no loop row daxpy.c:$line"
# 2 FLOPs an element, 2^18 elements, 100 calls: 52.4M, counted in the AVX2 build.
grep -qE "^daxpy\.c:$line +52\.4M +52\.4M" <<<"$row" || fail "daxpy.c:$line is not 52.4M FLOPs: $row"
echo "ok: $row"
