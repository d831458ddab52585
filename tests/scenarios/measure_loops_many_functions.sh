#!/usr/bin/env bash
# measure --loops on a program of many functions (python3.11: 1,412 loops in its machine code)
# says what concerns the loops it lists, not a note for every function it read: 120 cold
# functions with a computed goto each (an incomplete control-flow graph) once gave 120 notes
# under a table of one loop (python3.11: 700 lines). Now the hot function's loop is listed, the
# cold functions' notes are counted in one line, and a note of a listed function is still said.
# SKIPPED (exit 77) without a C compiler, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
cold=120
{
  echo '#include <stdio.h>'
  echo '#define NOINLINE __attribute__((noinline))'
  for k in $(seq 1 $cold); do
    cat <<EOF
NOINLINE double cold_$k(int n, const int *op) {
    static void *const step[] = {&&add, &&sub};
    double s = $k.0; int i = 0;
    goto *step[op[0] & 1];
add: s += 1.0; goto next;
sub: s -= 0.5;
next: if (++i < n) goto *step[op[i] & 1];
    return s;
}
EOF
  done
  cat <<'EOF'
NOINLINE double hot(long n, const double *x) {
    double s = 0.0;
    for (long i = 0; i < n; ++i) s += 1.5 * x[i] * x[i];
    return s;
}
static double x[4096];
static int op[4] = {0, 1, 0, 1};
int main(void) {
    double t = 0;
    for (int i = 0; i < 4096; ++i) x[i] = i * 1e-3;
    for (int r = 0; r < 300; ++r) t += hot(4096, x);
EOF
  for k in $(seq 1 $cold); do echo "    t += cold_$k(4, op);"; done
  echo '    printf("%g\n", t);'
  echo '    return 0;'
  echo '}'
} >many.c
cc -O2 -g -o many many.c || fail "cannot build the program of many functions"
out=$("$bin" measure --loops --no-store --min-share 1 -- ./many 2>&1) || fail "measure --loops of many functions"
grep -q "^in hot:" <<<"$out" || fail "the hot function's loop is not listed"
incomplete=$(grep -c "cold_[0-9]*: its control-flow graph is incomplete" <<<"$out")
[[ $incomplete -le 3 ]] || fail "$incomplete notes of cold functions' incomplete graphs (want them counted, not said)"
grep -Eq "note: ([0-9]+) more note\(s\) on ([0-9]+) function\(s\) none of whose loops is listed" <<<"$out" ||
  fail "the notes left out are not counted"
left=$(sed -nE 's/^note: [0-9]+ more note\(s\) on ([0-9]+) function\(s\).*/\1/p' <<<"$out")
[[ $left -ge $((cold - 3)) ]] || fail "$left functions' notes counted as left out, want about $cold"
lines=$(wc -l <<<"$out")
[[ $lines -le 40 ]] || fail "$lines lines of output for one listed loop"
# What the table leaves out is said under it: at --min-share 30, main's two loops (its setup
# loop holds about a quarter of the FLOPs), by the FLOPs of the loops' own code.
out=$("$bin" measure --loops --no-store --min-share 30 -- ./many 2>&1) || fail "measure --loops --min-share 30"
line=$(grep -E '^the [0-9]+ loops? listed holds? ' <<<"$out") || fail "no line saying what the loops' table leaves out"
# Text output is ASCII whatever the locale (docs/USAGE.md): no "±" in the table's legend or cells.
! LC_ALL=C grep -q '[^ -~	]' <<<"$out" || fail "non-ASCII output: $(LC_ALL=C grep '[^ -~	]' <<<"$out" | head -3)"
re='^the ([0-9]+) loops? listed holds? ([0-9.e+-]+)% of the FLOPs in (its|their) own code( and [0-9.]+% of the sampled CPU time)?; ([0-9]+) more holds? ([0-9.e+-]+)% of the FLOPs'
[[ $line =~ $re ]] || fail "the line reads otherwise: $line"
held=${BASH_REMATCH[2]} more=${BASH_REMATCH[5]} rest=${BASH_REMATCH[6]}
[[ $more -ge 1 ]] || fail "main's setup loop is not counted as left out: $line"
awk -v a="$held" -v b="$rest" 'BEGIN {exit !(a > 50 && b > 5 && a + b <= 100.01)}' ||
  fail "the listed loops hold $held% of the FLOPs and the others $rest%: want the hot loop's most, at most 100 together"
# --min-share 0 lists everything, and says every note.
out=$("$bin" measure --loops --no-store --min-share 0 -- ./many 2>&1) || fail "measure --loops --min-share 0"
incomplete=$(grep -c "cold_[0-9]*: its control-flow graph is incomplete" <<<"$out")
[[ $incomplete -eq $cold ]] || fail "--min-share 0: $incomplete notes of incomplete graphs, want $cold"
! grep -Eq '^the [0-9]+ loops? listed' <<<"$out" || fail "--min-share 0 lists every loop, yet a line says some are left out"
echo "ok: one listed loop, the cold functions' notes counted in one line"
