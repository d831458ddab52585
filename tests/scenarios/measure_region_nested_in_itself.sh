#!/usr/bin/env bash
# A marker region opened again inside itself on one thread (recursion, a helper that marks what
# its caller marked too): the marker library times it once, from its outermost opening, and the
# Valgrind tool in process scope counted it once too; in thread scope the tool added every
# opening's counts, so the inner opening's work was counted twice (5N FLOPs below where 3N ran).
# Counts by hand, N = 100000:
#   solve (outer) s += x[i]         N adds
#   solve (inner) s += x[i] * 2.0   N muls + N adds = 2N
#   solve in all: 3N = 300000 FLOPs (the inner opening is inside the outer one), 2 calls;
#   the initialisation x[i] = i + argc is integer work converted: no FLOP, so (program) is 3N too.
set -u
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
marker_library_or_skip
cat >nest.c <<'C'
#include <stdio.h>
#include <roofline/roofline.h>
#define N 100000
static double x[N];
int main(int argc, char** argv) {
    (void)argv;
    double s = 0;
    for (int i = 0; i < N; ++i) x[i] = i + argc;
    roofline_begin("solve");
    for (int i = 0; i < N; ++i) s += x[i];
    roofline_begin("solve");
    for (int i = 0; i < N; ++i) s += x[i] * 2.0;
    roofline_end("solve");
    roofline_end("solve");
    printf("%g\n", s);
    return 0;
}
C
cc -O1 -I"$src/include" nest.c -L"$lib" -lroofline_marker -Wl,-rpath,"$lib" -o nest ||
  { echo "SKIP: cannot build the program"; exit 77; }
for scope in process thread; do
  "$bin" measure --engine instrument --region-scope $scope --no-store -o $scope.json -- ./nest >out 2>&1 ||
    { cat out; fail "$scope scope: measure exit $?"; }
  flops=$(jq -r '.points[] | select(.name == "solve") | .flops' $scope.json)
  calls=$(jq -r '.points[] | select(.name == "solve") | .details.calls' $scope.json)
  [[ $flops == 300000 ]] || fail "$scope scope: solve holds $flops FLOPs, not 3N = 300000"
  [[ $calls == 2 ]] || fail "$scope scope: solve has $calls calls, not 2"
  [[ $(jq -r '.points[] | select(.name == "(program)") | .flops' $scope.json) == 300000 ]] ||
    fail "$scope scope: (program) does not hold 3N = 300000 FLOPs"
  echo "ok: $scope scope: solve 300000 FLOPs in 2 calls, counted once"
done
