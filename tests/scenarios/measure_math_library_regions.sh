#!/usr/bin/env bash
# The math-library note ("X of its FLOPs ran inside the math library ...") of marker regions and
# function regions, not only of the whole program. The Valgrind tool's regions counted libm's FLOPs
# (a region holds what ran while it was open, the exp() it calls included) but said nothing of which
# file ran them, so only the program's point, split by its functions' files, had the note. The tool
# now writes each region's FLOPs by file ("flops_by_object"), and measure and report say the note of
# every point whose FLOPs ran in libm, with its own share.
#
# The program: N = 100000 elements; counts by hand (FLOPs are floating-point instructions' lanes):
#   region "with libm":  s += exp(x[i])  -> 1 add per element in the program's own code (N = 100000)
#                                          + whatever exp() executes inside libm (E per call: glibc's
#                                          implementation, about 20; not a figure we fix here)
#                        region FLOPs F = N + N*E; its math-library FLOPs N*E = F - N; share (F - N)/F
#   region "arithmetic": t += x[i] * 3.0 -> 1 mul + 1 add per element = 2N = 200000, none in libm:
#                                          no note
#   <function sum_exp>   (--region-function) the same loop as "with libm": the same F and share
# exp() runs only inside "with libm", so the program's math-library FLOPs are the region's (N*E).
set -u
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
marker_library_or_skip
cat >regions.c <<'C'
#include <math.h>
#include <stdio.h>
#include <roofline/roofline.h>
#define N 100000
static double x[N];
__attribute__((noinline)) double sum_exp(void) {
    double s = 0;
    for (int i = 0; i < N; ++i) s += exp(x[i]);
    return s;
}
int main(int argc, char** argv) {
    (void)argv;
    double s, t = 0;
    for (int i = 0; i < N; ++i) x[i] = 1e-6 * (i + argc);
    roofline_begin("with libm");
    s = sum_exp();
    roofline_end("with libm");
    roofline_begin("arithmetic");
    for (int i = 0; i < N; ++i) t += x[i] * 3.0;
    roofline_end("arithmetic");
    printf("%g %g\n", s, t);
    return 0;
}
C
# -fno-builtin: exp() is a call into libm; -O1: the reduction stays one scalar add per element.
cc -O1 -fno-builtin -I"$src/include" regions.c -L"$lib" -lroofline_marker -lm -Wl,-rpath,"$lib" -o regions ||
  { echo "SKIP: cannot build the program"; exit 77; }

N=100000
# Checks one run's points file ($1) and notes ($2); $3 names the run.
check() {
  local pts=$1 out=$2 run=$3
  local F M P
  F=$(jq -r '.points[] | select(.name == "with libm") | .flops' "$pts")
  M=$(jq -r '.points[] | select(.name == "with libm") | .details.math_library_flops // 0' "$pts")
  [[ -n $F && $F != null ]] || fail "$run: no point of 'with libm'"
  # Its math-library FLOPs are its FLOPs less the loop's own N adds.
  [[ $M == $((F - N)) ]] || fail "$run: 'with libm' holds $F FLOPs, $M said in libm, not F - N = $((F - N))"
  # exp() executes some FLOPs per call: between 5 and 100 (glibc's is about 20).
  (( M >= 5 * N && M <= 100 * N )) || fail "$run: $M FLOPs in libm for $N calls of exp()"
  P=$(jq -r '.points[] | select(.name == "(program)") | .details.math_library_flops // 0' "$pts")
  [[ $P == "$M" ]] || fail "$run: the program's math-library FLOPs ($P) are not the region's ($M)"
  [[ $(jq -r '.points[] | select(.name == "arithmetic") | .flops' "$pts") == $((2 * N)) ]] ||
    fail "$run: 'arithmetic' does not hold 2N = $((2 * N)) FLOPs"
  [[ $(jq -r '.points[] | select(.name == "arithmetic") | .details.math_library_flops // "none"' "$pts") == none ]] ||
    fail "$run: 'arithmetic' carries math-library FLOPs"
  # The note under the table, with the region's own share, (F - N)/F to 0.1%.
  local share
  share=$(awk -v f="$F" -v n="$N" 'BEGIN { printf "%.1f", 100 * (f - n) / f }')
  grep -qF "roofline: with libm: " "$out" && grep -F "roofline: with libm: " "$out" | grep -qF "($share%) ran inside the math library" ||
    { cat "$out"; fail "$run: no note of 'with libm' with its share $share%"; }
  ! grep -q "roofline: arithmetic: .*math library" "$out" || fail "$run: a math-library note of 'arithmetic'"
  # The provenance keeps it under its own key, not as a DRAM lower bound (FLOPs are no bytes).
  jq -e '.provenance.options.math_library_flops | split(" | ") | map(select(startswith("with libm: "))) | length == 1' \
    "$pts" >/dev/null || fail "$run: the provenance's math_library_flops: $(jq -c .provenance.options.math_library_flops "$pts")"
  jq -e '(.provenance.options.dram_lower_bound // "") | test("math library") | not' "$pts" >/dev/null ||
    fail "$run: the math-library note is kept as a DRAM lower bound: $(jq -c .provenance.options.dram_lower_bound "$pts")"
  echo "ok: $run: with libm F=$F, in libm $M ($share%), arithmetic $((2 * N)) without a note"
}

"$bin" measure --engine instrument --no-store --region-function sum_exp -o pts.json -- ./regions >out 2>&1 ||
  { cat out; fail "measure exit $?"; }
check pts.json out "process scope"
# The function region: the same loop, the same FLOPs and share (when its calls could be timed: the
# point needs a time; ptrace may be refused here).
if jq -e '.points[] | select(.name == "<function sum_exp>")' pts.json >/dev/null; then
  [[ $(jq -r '.points[] | select(.name == "<function sum_exp>") | .details.math_library_flops' pts.json) == \
     $(jq -r '.points[] | select(.name == "with libm") | .details.math_library_flops' pts.json) ]] ||
    fail "<function sum_exp>'s math-library FLOPs are not those of the region around its call"
  grep -q "roofline: <function sum_exp>: .* ran inside the math library" out || fail "no note of <function sum_exp>"
  echo "ok: <function sum_exp> has the note too"
fi

# Thread scope: the region's work on the thread that opened it, the same here (one thread).
"$bin" measure --engine instrument --region-scope thread --no-store -o tpts.json -- ./regions >tout 2>&1 ||
  { cat tout; fail "measure --region-scope thread exit $?"; }
check tpts.json tout "thread scope"

# report says it too: text, Markdown and JSON, for the region and not for 'arithmetic'.
machine=$src/tests/data/report-machine.json
"$bin" report --machine "$machine" --points pts.json --format json >rep.json 2>/dev/null || fail "report --format json exit $?"
# (report's JSON points are in the file's order: with libm, arithmetic, ..., (program))
jq -e '.points[0].math_library_flops.flops > 0 and .points[1].math_library_flops == null' rep.json >/dev/null ||
  fail "report's JSON: 'with libm' without math_library_flops, or 'arithmetic' with it"
"$bin" report --machine "$machine" --points pts.json --format markdown >rep.md 2>/dev/null || fail "report --format markdown exit $?"
[[ $(grep -c "ran inside the math library" rep.md) -ge 2 ]] || fail "report's Markdown: the note is not said twice"
"$bin" report --machine "$machine" --points pts.json --format text >rep.txt 2>/dev/null || fail "report --format text exit $?"
[[ $(grep -c "ran inside the math library" rep.txt) -ge 2 ]] || fail "report's text: the note is not said twice"
echo "ok: report says the note in text, Markdown and JSON"
