#!/usr/bin/env bash
# measure --counts-from with a function GCC cloned in one build only: tests/loops/clones.c's scale,
# called with one constant factor, is scale.constprop.0 at -O2 and scale at -O0. Counted in the -O0
# build and timed in the -O2 one, scale's point (--functions) and its loop's (--loops) get the
# clone's time, its FLOPs those on paper (2 per element and repetition), and a note says the
# function was timed as that clone. (That two clones of one function are never merged into one:
# unit tests CloneNames.*.)
# SKIPPED (exit 77) without gcc, jq, valgrind or the Valgrind tool, or when gcc made no clone.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
command -v gcc >/dev/null || { echo "SKIPPED: gcc is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
command -v nm >/dev/null || { echo "SKIPPED: nm (binutils) is not installed"; exit 77; }
export HOME=$tmp
cp "$src/tests/loops/clones.c" . || fail "no tests/loops/clones.c"
gcc -O0 -g -o c0 clones.c || fail "cannot build at -O0"
gcc -O2 -g -o c2 clones.c || fail "cannot build at -O2"
has() { nm "$1" | awk '{print $3}' | grep -qxF "$2"; }
has c0 scale || fail "-O0 has no function scale"
has c2 scale.constprop.0 || { echo "SKIPPED: gcc -O2 made no scale.constprop.0 here"; exit 77; }
has c2 scale && { echo "SKIPPED: gcc -O2 kept scale beside its clone"; exit 77; }
n=100000 reps=200
flops=$((2 * n * reps))
point() { jq -c --arg name "$1" '.points[] | select(.name == $name)' "$2"; }

out=$("$bin" measure --functions --no-store -o f.json --counts-from ./c0 -- ./c2 $n $reps 2>&1) ||
  fail "measure --functions --counts-from ./c0 -- ./c2"
p=$(point scale f.json)
[[ -n $p ]] || fail "no point scale: $(jq -c '[.points[].name]' f.json)"
[[ $(jq '.flops' <<<"$p") == "$flops" ]] || fail "scale: FLOPs $(jq .flops <<<"$p"), on paper $flops"
jq -e '.seconds > 0' <<<"$p" >/dev/null || fail "scale: no time from its clone in c2: $p"
grep -q "scale: its time is that of scale.constprop.0 in c2, the only function there of the same origin" <<<"$out" ||
  fail "the match by origin is not said"

out=$("$bin" measure --loops --no-store -o l.json --counts-from ./c0 -- ./c2 $n $reps 2>&1) ||
  fail "measure --loops --counts-from ./c0 -- ./c2"
loop="scale: clones.c:$(grep -n -F '/* scale */' clones.c | cut -d: -f1)-$(grep -n -F 'a[i] = a[i] * s + 1.0;' clones.c | cut -d: -f1)"
p=$(point "$loop" l.json)
[[ -n $p ]] || fail "no point '$loop': $(jq -c '[.points[].name]' l.json)"
[[ $(jq '.flops' <<<"$p") == "$flops" ]] || fail "$loop: FLOPs $(jq .flops <<<"$p"), on paper $flops"
jq -e '.seconds > 0 and .details.samples > 0' <<<"$p" >/dev/null || fail "$loop: no time from the clone: $p"
grep -q "^note: scale: timed as scale.constprop.0 of c2, the only function there of the same origin" <<<"$out" ||
  fail "the match by origin is not said"
grep -q "scale: not a function of c2" <<<"$out" && fail "scale is said not to be a function of c2"
echo "PASS: measure --counts-from matches scale (-O0) to scale.constprop.0 (-O2), and says so"
