#!/usr/bin/env bash
# A library stripped with its symbols kept in a separate debug file (objcopy --only-keep-debug and
# --add-gnu-debuglink; Debian's -dbg and -dbgsym packages under /usr/lib/debug, libc6-dbg for libm's
# exp) had its functions named from that file by the Valgrind tool, but the sampler read only the
# library's own .symtab/.dynsym: 'work' counted 210M FLOPs with 0.0000 s of CPU time ("holds 100% of
# the FLOPs and 0% of the sampled CPU time") and got no point, its samples lost under a name the tool
# never gave. The sampler now reads the same debug file, so the row has both.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null && command -v strip >/dev/null && command -v objcopy >/dev/null ||
  { echo "SKIP: no C compiler, strip or objcopy"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >hidden.c <<'C'
__attribute__((noinline)) static double work(const double* x, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * 1.5;   /* 2 FLOPs an element */
    return s;
}
double entry(double* x, long n, int reps) {
    double s = 0;
    for (int r = 0; r < reps; ++r) {
        s += work(x, n);
        x[r % n] += 1;
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
cc -g -O1 -fno-tree-vectorize -fPIC -shared -o libhidden.so hidden.c &&
  objcopy --only-keep-debug libhidden.so libhidden.so.debug && strip --strip-all libhidden.so &&
  objcopy --add-gnu-debuglink=libhidden.so.debug libhidden.so &&
  cc -O1 -o prog main.c -L. -lhidden -Wl,-rpath,"$tmp" || { echo "SKIP: cannot build the programs"; exit 77; }
nm libhidden.so 2>/dev/null | grep -qw work && { echo "SKIP: work() is still in libhidden.so's own symbols"; exit 77; }
"$bin" measure --engine instrument --functions --no-store -o pts.json -- ./prog >out 2>&1 ||
  { echo "FAIL: measure exit $?"; cat out; exit 1; }
# work's FLOPs: 2 x 262144 x 400 = 209.7M, named 'work' from the debug file, with the sampler's time.
jq -e '[.points[] | select(.name == "work")] | length == 1 and
       (.[0].flops > 209.7e6 * 0.999 and .[0].flops < 209.8e6) and .[0].seconds > 0' pts.json >/dev/null ||
  { echo "FAIL: 'work' is not a point with its FLOPs and the sampler's time"; jq -c "[.points[] | {name, flops, seconds}]" pts.json; cat out; exit 1; }
grep -qE "^\(no symbol: libhidden\.so" out && { echo "FAIL: a '(no symbol: libhidden.so...)' row beside 'work'"; cat out; exit 1; }
echo "ok: $(grep -m1 -E '^work +[0-9]' out | tr -s ' ')"
