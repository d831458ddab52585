#!/usr/bin/env bash
# measure --loops --counts-from with marker regions: each region's loops, as without --counts-from
# (they were the whole run's, with a note). The counting build (-O1) runs under Valgrind, the timed
# build (-O3 -march=x86-64-v3) natively; both with -g, their loops matched by source lines.
# Counts by hand, n = 200000 elements, reps = 100:
#   region big:   scale(a, n)   n muls               -> its loop n*reps       = 20,000,000 FLOPs
#                 axpy(b, a, n) 1 mul + 1 add each   -> its loop 2*n*reps     = 40,000,000 FLOPs
#   region small: scale(a, n/4) n/4 muls             -> its loop n/4*reps     =  5,000,000 FLOPs
# scale's loop runs in both regions: 4/5 of its runs in big, 1/5 in small, so the timed build's
# samples of that source loop go 4:1 to the two regions (the region's share of the loop's runs in
# the counting build; the timed build's instructions are not the counting build's).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
lib=$(dirname "$bin")/lib
[[ -e $lib/libroofline_marker.so ]] || { echo "SKIPPED: no marker library in $lib"; exit 77; }
export HOME=$tmp
cat >rl.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <roofline/roofline.h>
__attribute__((noipa)) void scale(double* a, long n, double s) {
    for (long i = 0; i < n; ++i) a[i] = a[i] * s; /* scale */
}
__attribute__((noipa)) void axpy(double* y, const double* x, long n, double s) {
    for (long i = 0; i < n; ++i) y[i] = y[i] + s * x[i]; /* axpy */
}
int main(int argc, char** argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000, reps = argc > 2 ? atol(argv[2]) : 100;
    double* a = malloc(8 * n);
    double* b = malloc(8 * n);
    for (long i = 0; i < n; ++i) { a[i] = 1; b[i] = 0.5; }
    for (long r = 0; r < reps; ++r) {
        roofline_begin("big");
        scale(a, n, 1.0000001);
        axpy(b, a, n, 0.25);
        roofline_end("big");
        roofline_begin("small");
        scale(a, n / 4, 0.9999999);
        roofline_end("small");
    }
    printf("%g %g\n", a[n / 2], b[n / 3]);
    return 0;
}
C
build() { cc "$@" -g -I"$src/include" rl.c -L"$lib" -lroofline_marker -Wl,-rpath,"$lib"; }
build -O1 -o counted || { echo "SKIPPED: cannot build the program"; exit 77; }
build -O3 -march=x86-64-v3 -o timed || { echo "SKIPPED: cannot build the -march=x86-64-v3 build"; exit 77; }
n=200000 reps=100
line() { grep -n -F "$1" rl.c | cut -d: -f1; }
scale_loop="rl.c:$(line '/* scale */')" axpy_loop="rl.c:$(line '/* axpy */')"

out=$("$bin" measure --loops --min-share 0 --no-store -o p.json --counts-from ./counted -- ./timed $n $reps 2>&1) ||
  fail "measure --loops --counts-from exit $?"
grep -q "sampling the native run failed" <<<"$out" && { echo "SKIPPED: no sampled run here (perf_event_open)"; exit 77; }
point() { jq -c --arg name "$1" '.points[] | select(.name == $name)' p.json; }
check() {  # NAME FLOPs
  local p
  p=$(point "$1")
  [[ -n $p ]] || fail "no point '$1': $(jq -c '[.points[].name]' p.json)"
  [[ $(jq .flops <<<"$p") == "$2" ]] || fail "$1: $(jq .flops <<<"$p") FLOPs, by hand $2"
  jq -e '.seconds > 0 and .details.samples > 0' <<<"$p" >/dev/null || fail "$1: no time from the timed build: $p"
}
check "big: scale: $scale_loop" $((n * reps))
check "big: axpy: $axpy_loop" $((2 * n * reps))
check "small: scale: $scale_loop" $((n / 4 * reps))
# No loop point of the whole run beside the regions' (each loop point is named after its region).
jq -e '[.points[] | select(.name | test("rl\\.c:")) | select(.name | startswith("big: ") or startswith("small: ") | not)] | length == 0' \
  p.json >/dev/null || fail "loop points outside the regions: $(jq -c '[.points[].name]' p.json)"
# scale's samples shared 4:1 (rounding: within one sample either way).
big=$(point "big: scale: $scale_loop" | jq .details.samples)
small=$(point "small: scale: $scale_loop" | jq .details.samples)
(( big >= 4 * small - 5 && big <= 4 * small + 5 )) || fail "scale's samples: big $big, small $small, not 4:1"
grep -q "loops are given per marker region" <<<"$out" || fail "no note that the loops are per region"
grep -q "not given per region" <<<"$out" && fail "the old note (loops not per region) is still said"

# --region-scope thread keeps no counts by instruction per region: the whole run's loops, said (it
# was said without --counts-from only).
out=$("$bin" measure --loops --region-scope thread --min-share 0 --no-store -o t.json --counts-from ./counted -- ./timed $n $reps 2>&1) ||
  fail "measure --loops --region-scope thread --counts-from exit $?"
grep -q "not split by marker region: with --region-scope thread" <<<"$out" || fail "--region-scope thread: the whole run's loops not said"
[[ $(jq -r --arg name "scale: $scale_loop" '.points[] | select(.name == $name) | .flops' t.json) == $((n * reps + n / 4 * reps)) ]] ||
  fail "--region-scope thread: scale's loop is not the whole run's (n + n/4) * reps"

# The counting build measured alone gives each region's loops the same FLOPs.
out=$("$bin" measure --loops --min-share 0 --no-store -o q.json -- ./counted $n $reps 2>&1) || fail "measure --loops ./counted"
for name in "big: scale: $scale_loop" "big: axpy: $axpy_loop" "small: scale: $scale_loop"; do
  [[ $(jq --arg name "$name" '.points[] | select(.name == $name) | .flops' q.json) == $(point "$name" | jq .flops) ]] ||
    fail "$name: the counting build alone has other FLOPs"
done
echo "PASS: --loops --counts-from splits the loops by region: scale's samples $big (big) and $small (small), FLOPs as by hand"
