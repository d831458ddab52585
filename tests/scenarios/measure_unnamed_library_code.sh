#!/usr/bin/env bash
# Code without a symbol (a stripped library's static functions: FFTW's codelets, libgfortran's
# matmul) was one "(unknown)" row for every library, so two libraries' work merged. Now it is named
# by its file and its function's entry in the unwind table, "(no symbol: libanon.so+0x10f9)", alike
# by the Valgrind tool's counts and the sampler's time, so the row has both; the exported entry
# that calls it keeps its own name.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null && command -v strip >/dev/null || { echo "SKIP: no C compiler or strip"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >anon.c <<'C'
__attribute__((noinline)) static double work(const double* x, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * 1.5;   /* 2 FLOPs an element */
    return s;
}
double entry(double* x, long n, int reps) {
    double s = 0;
    for (int r = 0; r < reps; ++r) {
        s += work(x, n);
        x[r % n] += 1;   /* another call each time: not one call reused */
    }
    return s;
}
C
cat >main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
double entry(double* x, long n, int reps);
int main(void) {
    long n = 1 << 18;
    double* x = malloc(n * sizeof *x);
    for (long i = 0; i < n; ++i) x[i] = (double)(i % 3);
    printf("%g\n", entry(x, n, 400));
    return 0;
}
C
cc -O1 -fno-tree-vectorize -fPIC -shared -o libanon.so anon.c && strip --strip-all libanon.so &&
  cc -O1 -o prog main.c -L. -lanon -Wl,-rpath,"$tmp" || { echo "SKIP: cannot build the programs"; exit 77; }
nm -D libanon.so | grep -qw work && { echo "SKIP: work() is still named in libanon.so"; exit 77; }
"$bin" measure --engine instrument --functions --no-store -o pts.json -- ./prog >out 2>&1 ||
  { echo "FAIL: measure exit $?"; cat out; exit 1; }
fail=0
grep -qE "^\(no symbol: libanon\.so\+0x[0-9a-f]+\) " out || { echo "FAIL: no '(no symbol: libanon.so+0x...)' row"; fail=1; }
grep -qE "^\(unknown\) " out && { echo "FAIL: a bare (unknown) row remains"; fail=1; }
# Its FLOPs: 2 x 262144 x 400 = 209.7M (and the entry's 400 adds), counted by the tool under the
# file's name, with the sampler's time.
jq -e '[.points[] | select(.name | startswith("(no symbol: libanon.so+0x"))] | length == 1 and
       (.[0].flops > 209.7e6 * 0.999 and .[0].flops < 209.8e6) and .[0].seconds > 0' pts.json >/dev/null ||
  { echo "FAIL: the row is not a point with the work's FLOPs and the sampler's time"; jq -c "[.points[] | {name, flops, seconds}]" pts.json; fail=1; }
((fail)) && { cat out; exit 1; }
echo "ok: $(grep -m1 -E '^\(no symbol: libanon\.so\+0x[0-9a-f]+\) +[0-9]' out | tr -s ' ')"
