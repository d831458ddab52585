#!/usr/bin/env bash
# A stripped program's functions have no symbol. `measure --functions` and `measure --loops` name
# each of them alike, by its file and its entry in the unwind table (strip keeps it):
# "(no symbol: prog+0x1200)". Two such functions stay two rows, and one function is one name in
# both tables (the loop table once called it fn@0x1200, the function table "(unknown in prog)").
source "$(dirname "$0")/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v strip >/dev/null || { echo "SKIPPED: no strip"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq not installed"; exit 77; }
export HOME=$tmp
cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static double scale_sum(const double* x, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += x[i] * 1.5;      /* 2 FLOPs an element */
    return s;
}
__attribute__((noinline)) static void axpy(double* y, const double* x, long n) {
    for (long i = 0; i < n; ++i) y[i] = y[i] + 3.0 * x[i];   /* 2 FLOPs an element */
}
int main(int argc, char** argv) {
    long n = 1 << 16;
    double* x = malloc(n * sizeof *x);
    double* y = malloc(n * sizeof *y);
    for (long i = 0; i < n; ++i) { x[i] = (double)(i % 3); y[i] = 1; }
    double s = 0;
    for (int r = 0; r < 40 + argc; ++r) { s += scale_sum(x, n); axpy(y, x, n); }
    printf("%g %g\n", s, y[7]);
    return 0;
}
C
cc -O2 -fno-tree-vectorize -fno-inline -o prog prog.c && strip prog || { echo "SKIPPED: cannot build the program"; exit 77; }
nm prog 2>&1 | grep -q "no symbols" || { echo "SKIPPED: strip left symbols in prog"; exit 77; }

out=$("$bin" measure --engine instrument --functions --no-store -o functions.json -- ./prog 2>&1) ||
  fail "measure --functions: exit $?"
# The function table's rows for code without a symbol: one for each of the two functions that work.
mapfile -t named < <(jq -r '.points[] | select(.flops > 0) | .name | select(startswith("(no symbol: prog+0x"))' functions.json | sort)
((${#named[@]} >= 2)) || fail "not two '(no symbol: prog+0x...)' rows with FLOPs: $(jq -c '[.points[].name]' functions.json)"
grep -q "(unknown in" <<<"$out" && fail "a row is still named '(unknown in FILE)'"
for n in "${named[@]}"; do
  grep -qF "$n " <<<"$out" || fail "'$n' is in the points, not in the table"
done

out=$("$bin" measure --engine instrument --loops --no-store -o loops.json -- ./prog 2>&1) || fail "measure --loops: exit $?"
grep -q "fn@0x" <<<"$out" && fail "the loop table still names a function fn@0x..."
# Each loop table's function heading is a name the function table gave, and the two working
# functions each have one.
mapfile -t headings < <(grep -E '^in \(no symbol: prog\+0x[0-9a-f]+\):$' <<<"$out" | sed -E 's/^in (.*):$/\1/' | sort)
for n in "${named[@]}"; do
  printf '%s\n' "${headings[@]}" | grep -qxF "$n" || fail "'$n' of the function table has no loop table of that name"
done
# The FLOPs of each: the same in both tables' points.
for n in "${named[@]}"; do
  f=$(jq --arg n "$n" '[.points[] | select(.name == $n) | .flops] | first' functions.json)
  l=$(jq --arg n "$n" '[.points[] | select(.name == $n) | .flops] | first' loops.json)
  [[ $f == "$l" && $f != null ]] || fail "'$n': $f FLOPs in --functions, $l in --loops"
done
echo "ok: ${named[*]} alike in both tables"
