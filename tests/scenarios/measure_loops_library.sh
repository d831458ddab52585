#!/usr/bin/env bash
# Issue 36: measure --loops --loops-library finds the loops of a shared library without
# debug information (built stripped: its exported symbols only) and places them, named by
# the library, their function and offset ('sum_squares in libloops.so: sum_squares+0x..'),
# with their exact FLOPs (sum_squares 2N a call, scale N); the program's loop calling
# sum_squares through the PLT holds the library function's FLOPs in its point with its
# calls; a loop in a function the library does not export is found by the range its unwind
# table gives, named by its file and address ('(no symbol: libloops.so+0x1140)+0x10').
# --loops-library without --loops, or naming no file, is a usage error (exit 2).
# SKIPPED (exit 77) without a C compiler, jq, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
cc -O2 -g0 -s -shared -fPIC -o libloops.so "$src/tests/loops/loops_lib.c" || fail "cannot build libloops.so"
cc -O2 -g -o uses_loops_lib "$src/tests/loops/uses_loops_lib.c" -L. -lloops -Wl,-rpath,"$PWD" ||
  fail "cannot build uses_loops_lib"
readelf -S libloops.so | grep -q '\.symtab\|\.debug_line' && fail "libloops.so is not stripped"
n=300000 reps=20
out=$("$bin" measure --loops --loops-library ./libloops.so --no-store --min-share 0 -o p.json -- ./uses_loops_lib $n $reps 2>&1) ||
  fail "measure --loops --loops-library"
# FLOPs of the loop points of a function's series, its function's point and points with calls left out.
loop_flops() {
  jq --arg series "$1" '[.points[] | select(.series == $series and (.name | startswith($series + ": ")) and
     (.details.loop_with_calls // 0) == 0) | .flops] | add' p.json
}
names=$(jq -r '.points[].name' p.json)
grep -Eq "^sum_squares in libloops\.so: sum_squares\+0x[0-9a-f]+$" <<<"$names" ||
  fail "no point of sum_squares' loop named by the library, function and offset: $names"
[[ $(loop_flops "sum_squares in libloops.so") == $((2 * n * reps)) ]] ||
  fail "sum_squares' loops: $(loop_flops "sum_squares in libloops.so") FLOPs, want $((2 * n * reps))"
# scale runs once: too few samples for a point, perhaps; its loop is in the table either way.
grep -q "^in scale in libloops.so:" <<<"$out" || fail "no table of scale's loops"
grep -Eq "^scale\+0x[0-9a-f]+ +300k " <<<"$out" || fail "scale's loop: not N FLOPs in the table"
# halve's loop is in halve_all, a function the stripped library does not export: found by its
# unwind table's range, named by its address, N FLOPs.
grep -Eq "^in \(no symbol: libloops\.so\+0x[0-9a-f]+\):" <<<"$out" || fail "no table of the library's local function's loops"
grep -Eq "^\(no symbol: libloops\.so\+0x[0-9a-f]+\)\+0x[0-9a-f]+ +300k " <<<"$out" || fail "the local function's loop: not N FLOPs in the table"
grep -q "are in no function its symbols or its unwind table name" <<<"$out" && fail "code of the library left unnamed"
# The program's loop calls sum_squares through the PLT: the library function's FLOPs are its calls'.
line=$(grep -n '/\* repeating \*/' "$src/tests/loops/uses_loops_lib.c" | cut -d: -f1)
p=$(jq -c --arg name "repeat_sums: uses_loops_lib.c:$line" \
  '.points[] | select((.name | startswith($name)) and (.name | endswith(" with its calls")))' p.json)
[[ -n $p ]] || fail "no point of repeat_sums' loop with its calls: $names"
[[ $(jq .details.loop_call_flops <<<"$p") == $((2 * n * reps)) ]] ||
  fail "repeat_sums' loop: its calls did $(jq .details.loop_call_flops <<<"$p") FLOPs, want $((2 * n * reps))"

out=$("$bin" measure --loops-library ./libloops.so --no-store -- ./uses_loops_lib 10 1 2>&1); rc=$?
[[ $rc == 2 && $out == *"--loops-library adds a library's loops to those of --loops"* ]] || fail "--loops-library alone: exit $rc"
out=$("$bin" measure --loops --loops-library ./no-such.so --no-store -- ./uses_loops_lib 10 1 2>&1); rc=$?
[[ $rc == 2 && $out == *"--loops-library ./no-such.so: no such file"* ]] || fail "--loops-library ./no-such.so: exit $rc"
echo "PASS: measure --loops-library: a stripped library's loops named by library, function and offset, exact FLOPs"
