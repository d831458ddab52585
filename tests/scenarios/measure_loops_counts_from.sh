#!/usr/bin/env bash
# measure --loops --counts-from: a program built with -march=native for AVX-512 (Valgrind cannot
# run it) timed, the same source built for x86-64-v3 (AVX2) counted. tests/loops/two_builds.c:
# a triad and a dot product in functions of their own, both builds with -g. Each loop is named by
# its source lines (its 'for' line to its body's), its FLOPs exactly those on paper (2 per element
# and repetition) and those of `measure --loops` of the counting build alone, its time > 0 from the
# AVX-512 build's samples and about its function's; a note says the counting build counted them.
# Without debug information in a build the request is refused: build both with -g.
# SKIPPED (exit 77) without gcc, a CPU and OS with AVX-512, objdump, jq, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v gcc >/dev/null || { echo "SKIPPED: gcc is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
command -v objdump >/dev/null || { echo "SKIPPED: objdump (binutils) is not installed"; exit 77; }
grep -qw avx512f /proc/cpuinfo || { echo "SKIPPED: this CPU (or its OS) has no AVX-512"; exit 77; }
cp "$src/tests/loops/two_builds.c" . || fail "no tests/loops/two_builds.c"
gcc -O3 -g -march=x86-64-v3 -mtune=native -o k256 two_builds.c || fail "cannot build the x86-64-v3 build"
gcc -O3 -g -march=native -mprefer-vector-width=512 -o k512 two_builds.c || fail "cannot build the native build"
objdump -d k512 | grep -q zmm || { echo "SKIPPED: gcc -march=native made no 512-bit code here"; exit 77; }
line() { grep -n -F "$1" two_builds.c | cut -d: -f1; }
triad="triad: two_builds.c:$(line '/* triad */')-$(line 'a[i] = b[i] + s * c[i];')"
dot="dot: two_builds.c:$(line '/* dot */')-$(line 'sum += b[i] * c[i];')"
n=262144 reps=300
flops=$((2 * n * reps))

out=$("$bin" measure --loops --no-store -o p.json --counts-from ./k256 -- ./k512 $n $reps 2>&1) ||
  fail "measure --loops --counts-from ./k256 -- ./k512"
point() { jq -c --arg name "$1" '.points[] | select(.name == $name)' "${2:-p.json}"; }
for loop in "$triad" "$dot"; do
  p=$(point "$loop")
  [[ -n $p ]] || fail "no point '$loop': $(jq -c '[.points[].name]' p.json)"
  [[ $(jq '.flops' <<<"$p") == "$flops" ]] || fail "$loop: FLOPs $(jq .flops <<<"$p"), on paper $flops"
  jq -e '.seconds > 0 and .details.samples > 0' <<<"$p" >/dev/null || fail "$loop: no time from the native build: $p"
  # The loop is all its function does: its samples near its function's (the function's entry and exit aside).
  f=$(point "${loop%%:*}")
  [[ -n $f ]] || fail "no point for ${loop%%:*}"
  jq -e --argjson f "$f" '.seconds >= 0.8 * $f.seconds and .seconds <= $f.seconds' <<<"$p" >/dev/null ||
    fail "$loop: $(jq .seconds <<<"$p") s, its function $(jq .seconds <<<"$f") s"
done
grep -q "counted in the counting build k256" <<<"$out" || fail "the counting build is not said"
grep -q "^note: .*have no loop of the same depth" <<<"$out" && grep -q "two_builds.c:$(line '/* triad */')" <<<"$(grep 'have no loop' <<<"$out")" &&
  fail "the triad's loop is said to have no partner"

# The counting build measured alone: the same FLOPs per loop (its machine loops of a source loop summed).
out=$("$bin" measure --loops --no-store --min-share 0 -o q.json -- ./k256 $n $reps 2>&1) || fail "measure --loops ./k256"
for loop in "$triad" "$dot"; do
  alone=$(jq --arg name "$loop" '[.points[] | select(.name | startswith($name)) | select(.details.loop_with_calls == null) | .flops] | add' q.json)
  [[ $alone == "$flops" ]] || fail "$loop: $alone FLOPs in the counting build alone, $flops with --counts-from"
done

gcc -O3 -march=x86-64-v3 -o k256_nog two_builds.c || fail "cannot build without -g"
out=$("$bin" measure --loops --no-store --counts-from ./k256_nog -- ./k512 1000 1 2>&1); rc=$?
[[ $rc == 2 && $out == *"build both with -g"* ]] || fail "--counts-from a build without -g: exit $rc"
echo "PASS: measure --loops --counts-from: the AVX2 build's loops counted, the AVX-512 build's timed, matched by source lines"
