#!/usr/bin/env bash
# Issue 36: measure --loops places a point per hot loop without recompiling. On
# tests/loops/loop_shapes.c at -O2 with -g: each loop named by its source lines (the
# 'for' line to the last line of its body, found by the comments marking them), its
# self FLOPs exactly the analytic figure (daxpy 2N, the stencil sweep 4(N-2), the
# multiply's innermost loop 2M^3 at depth 3), in a series per function; iterations
# its body's runs (daxpy's N; its jump back N-1 times); a switch's jump table followed
# (its cases' FLOPs in its loop), a computed goto said to leave its graph incomplete;
# no function whose loops and rest fail to add up to
# the tool's total; each series led by its function's point, which its loops split; at -O3 the vector body and remainder of a loop hold its FLOPs
# together. A loop calling a function (add_scaled; dot, with a loop of its own) has a point
# with its calls: the callee's FLOPs are its own, exactly, at -O2 and -O3. A cycle entered at
# two places (-O3's matmul) is a loop named so. A call through a pointer brings what it called,
# and so does a call through the PLT to a function glibc chose at load time (libm's exp, whose file is
# counted by default, as --loops-library would). With --region-function only the loops run
# inside its calls are kept. A loop run by two threads has both threads' counts and samples.
# With marker regions each region's loops hold what ran while it was open (with --counts-from too). --loops with the perf engine, or with --counts-from a build without -g, is a usage error.
# SKIPPED (exit 77) without a C compiler, jq, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
cp "$src/tests/loops/loop_shapes.c" . && cc -O2 -g -o loop_shapes loop_shapes.c || fail "cannot build loop_shapes"
line() { grep -n -F "$1" loop_shapes.c | cut -d: -f1; }
n=4000000 m=96
out=$("$bin" measure --loops --no-store --min-share 0.5 -o p.json -- ./loop_shapes $n $m 2>&1) ||
  fail "measure --loops"
point() { jq -c --arg name "$1" '.points[] | select(.name == $name)' p.json; }
expect_point() {  # NAME FLOPS [DEPTH]
  local p; p=$(point "$1")
  [[ -n $p ]] || fail "no point '$1': $(jq -c '[.points[].name]' p.json)"
  [[ $(jq '.flops' <<<"$p") == "$2" ]] || fail "$1: FLOPs $(jq .flops <<<"$p"), want $2"
  [[ -z ${3:-} || $(jq '.details.loop_depth' <<<"$p") == "$3" ]] || fail "$1: depth $(jq .details.loop_depth <<<"$p"), want $3"
  [[ $(jq -r '.series' <<<"$p") == "${1%%:*}" ]] || fail "$1: series $(jq -r .series <<<"$p")"
}
daxpy="daxpy: loop_shapes.c:$(line '/* daxpy */')-$(line 'y[i] += a * x[i];')"
expect_point "$daxpy" $((2 * n)) 1
[[ $(point "$daxpy" | jq '.details.loop_iterations') == "$n" ]] || fail "daxpy's loop: iterations $(point "$daxpy" | jq .details.loop_iterations), want $n"
[[ $(point "$daxpy" | jq '.details.loop_back_edges') == $((n - 1)) ]] || fail "daxpy's loop: back edges $(point "$daxpy" | jq .details.loop_back_edges), want $((n - 1))"
expect_point "sweep_reduce_copy: loop_shapes.c:$(line '/* sweep */')-$(line 'b[i] = 0.25')" $((4 * (n - 2))) 1
j=$(line '/* matmul j */')
expect_point "matmul: loop_shapes.c:$j-$((j + 1))" $((2 * m * m * m)) 3
# Each series begins with its function's point: all its counts, which its loops' self
# counts and the code outside them add up to.
series=$(jq -c '[.points[] | select(.series == "sweep_reduce_copy")]' p.json)
[[ $(jq -r '.[0].name' <<<"$series") == sweep_reduce_copy ]] || fail "sweep_reduce_copy's series does not begin with its function's point: $(jq -c 'map(.name)' <<<"$series")"
[[ $(jq '.[0].flops == (.[1:] | map(.flops) | add) + .[0].details.loop_outside_flops' <<<"$series") == true ]] ||
  fail "sweep_reduce_copy: its point's FLOPs $(jq '.[0].flops' <<<"$series") are not its loops' and the rest's"
grep -q "threaded: its control-flow graph is incomplete.*indirect jump" <<<"$out" || fail "the computed goto's incomplete graph is not said"
grep -q "dispatch: its control-flow graph is incomplete" <<<"$out" && fail "the switch's jump table was not followed"
grep -q "another function of the same name\|start where the decoded code has none" <<<"$out" && fail "counts did not add up"
grep -q "in matmul_blocked:" <<<"$out" || fail "no table of matmul_blocked's loops"
# The switch's cases, reached through its jump table, are in its loop: 10 FLOPs every 9 elements.
dispatch=$(jq --arg prefix "dispatch: loop_shapes.c:$(line '/* dispatch */')-" \
  '[.points[] | select(.name | startswith($prefix)) | .flops] | add' p.json)
want=$((n / 9 * 10 + $(python3 -c "print(sum([1, 1, 1, 2, 2, 2, 1, 0, 0][:$n % 9]))")))
[[ $dispatch == "$want" ]] || fail "the switch's loop: $dispatch FLOPs, want $want"

# A loop calling a function: the callee's counts are the loop's with its calls (by the call
# instruction in its body), a point of their own; the loop's self counts stay its own.
with_calls() {  # JSON FUNCTION LOOP-MARK LAST-LINE-TEXT FLOPS CALL-FLOPS
  local name="$2: loop_shapes.c:$(line "/* $3 */")-$(line "$4") with its calls" p
  p=$(jq -c --arg name "$name" '.points[] | select(.name == $name)' "$1")
  [[ -n $p ]] || fail "$1: no point '$name': $(jq -c '[.points[].name]' "$1")"
  [[ $(jq '.flops' <<<"$p") == "$5" && $(jq '.details.loop_call_flops' <<<"$p") == "$6" ]] ||
    fail "$1: $name: FLOPs $(jq .flops <<<"$p"), of its calls $(jq .details.loop_call_flops <<<"$p"); want $5 and $6"
  [[ $(jq -r '.series' <<<"$p") == "$2" ]] || fail "$1: $name is not in $2's series"
}
calls_checked() {  # JSON
  with_calls "$1" call_in_loop calling 's = add_scaled(s, x[i]);' $((2 * n)) $((2 * n))
  # through a pointer: where the tool saw the indirect call go
  with_calls "$1" calls_through_pointer 'calling through a pointer' 's = step(s, x[i]);' $((2 * n)) $((2 * n))
  local rows=$((n / 100))
  with_calls "$1" calls_dot 'calling dot' 's += dot(cols' $((2 * rows * 100 + rows)) $((2 * rows * 100))
  with_calls "$1" calls_offset_sum 'calling offset_sum' 's += offset_sum(cols' $((2 * rows * 99 + rows)) $((2 * rows * 99))
}
calls_checked p.json
# The function the calls did the work in, with their number: a loop calling a tiny function per
# element (2 FLOPs and a few instructions a call) is told to inline or batch it, not to vectorize.
call_point="call_in_loop: loop_shapes.c:$(line "/* calling */")-$(line 's = add_scaled(s, x[i]);') with its calls"
jq -e --arg name "$call_point" --argjson n "$n" '.points[] | select(.name == $name)
  | .main_function == "add_scaled" and .details.main_function_calls == $n and .details.main_function_flops == 2 * $n' \
  p.json >/dev/null || fail "$call_point: its calls of add_scaled are not given: $(jq -c --arg name "$call_point" \
  '.points[] | select(.name == $name) | [.main_function, .details.main_function_calls]' p.json)"
"$bin" report --machine "$src/tests/data/report-machine.json" --points p.json --format json 2>/dev/null |
  jq -e --arg name "$call_point" '.points[] | select(.point == $name) | [.next_steps_typed[].kind] | index("call_overhead") != null
    and index("vectorize") == null' >/dev/null ||
  fail "$call_point: not told that its calls, not its arithmetic, are the step"
grep -q "calls_through_pointer: the call .* is indirect" <<<"$out" && fail "the indirect call's targets were not taken"
grep -q "^in calls_dot:" <<<"$out" || fail "no table of calls_dot's loops"

# -O3: the vectorizer splits a loop into a vector body and its remainder, both named by the
# loop's lines (one with its address added): together they hold the loop's FLOPs.
cc -O3 -g -o loop_shapes_O3 loop_shapes.c || fail "cannot build loop_shapes at -O3"
out=$("$bin" measure --loops --no-store --min-share 0.5 -o p3.json -- ./loop_shapes_O3 $n $m 2>&1) ||
  fail "measure --loops at -O3"
flops_of() { jq --arg prefix "$1" '[.points[] | select(.name | startswith($prefix)) | .flops] | add' p3.json; }
got=$(flops_of "daxpy: loop_shapes.c:$(line '/* daxpy */')-$(line 'y[i] += a * x[i];')")
[[ $got == $((2 * n)) ]] || fail "-O3 daxpy's loops: $got FLOPs, want $((2 * n))"
got=$(flops_of "sweep_reduce_copy: loop_shapes.c:$(line '/* sweep */')-$(line 'b[i] = 0.25')")
[[ $got == $((4 * (n - 2))) ]] || fail "-O3 sweep's loops: $got FLOPs, want $((4 * (n - 2)))"
calls_checked p3.json
# -O3's matmul has a cycle entered at two places (the k loop's copy for the iterations left
# over): a loop of its own, named so and said, not code of the loop around it.
grep -q "note: matmul: a cycle entered at more than one place .* is listed as the loop 'loop_shapes.c:[0-9-]* (entered at 2 places)'" <<<"$out" ||
  fail "-O3 matmul's cycle with two entries is not listed as a loop: $(grep note <<<"$out")"

# With --region-function: only the loops run inside its calls, the function's own and its
# callees' (dot, called from calls_dot alone, whole); daxpy's is not.
out=$("$bin" measure --loops --region-function calls_dot --no-store --min-share 0 -o pw.json -- ./loop_shapes $n $m 2>&1) ||
  fail "measure --loops --region-function calls_dot"
grep -q "^loops run inside the calls of calls_dot (--region-function)" <<<"$out" || fail "the loops' table does not say they are calls_dot's"
rows=$(sed -n '/^loops run inside/,/^note/p' <<<"$out" | grep -c '^in ')
[[ $rows == 2 ]] && grep -q '^in dot:' <<<"$out" && grep -q '^in calls_dot:' <<<"$out" ||
  fail "--region-function calls_dot: the loops of other functions than calls_dot and dot are listed"
[[ $(jq '[.points[] | select(.series == "daxpy" or .series == "matmul")] | length' pw.json) == 0 ]] ||
  fail "--region-function calls_dot: points of loops outside it: $(jq -c '[.points[].name]' pw.json)"
with_calls pw.json calls_dot 'calling dot' 's += dot(cols' $((2 * (n / 100) * 100 + n / 100)) $((2 * (n / 100) * 100))

# Threads: a loop run by two threads (the main thread only waits) has every thread's counts,
# and a point: its samples are the other threads'.
cc -O2 -g -pthread -o loop_threads "$src/tests/loops/loop_threads.c" || fail "cannot build loop_threads"
tn=200000 treps=10
out=$("$bin" measure --loops --no-store --min-share 1 -o pt.json -- ./loop_threads $tn $treps 2>&1) ||
  fail "measure --loops of two threads"
tl=$(grep -n '/\* axpy \*/' "$src/tests/loops/loop_threads.c" | cut -d: -f1)
p=$(jq -c --arg name "axpy: loop_threads.c:$tl-$((tl + 1))" '.points[] | select(.name == $name)' pt.json)
[[ -n $p ]] || fail "no point of the threads' loop (its samples are not the other threads'?): $(jq -c '[.points[].name]' pt.json)"
[[ $(jq .flops <<<"$p") == $((2 * treps * 2 * tn)) && $(jq .details.loop_entries <<<"$p") == $((2 * treps)) ]] ||
  fail "the threads' loop: $(jq .flops <<<"$p") FLOPs, $(jq .details.loop_entries <<<"$p") entries; want $((2 * treps * 2 * tn)) and $((2 * treps))"

# A loop calling exp through the PLT (glibc's libm runs a variant chosen at load time, named
# otherwise): libm, a math library the program loads, is counted by default (as --loops-library
# would: a loop of exp calls read 0 FLOPs without it), so what exp runs is the loop's and the
# program's FLOPs are its and main's; libm given by hand is counted once.
cc -O2 -g -o loop_libm "$src/tests/loops/loop_libm.c" -lm || fail "cannot build loop_libm"
libm=$(ldd ./loop_libm | awk '$1 ~ /^libm\.so/ {print $3}')
ln=1000000  # main's loop needs samples of its own (about 1 ms of them): 100000 gave it 0-1
out=$("$bin" measure --loops --no-store --min-share 1 -o pm.json -- ./loop_libm $ln 2>&1) || fail "measure --loops of loop_libm"
grep -q "which was not counted by that name" <<<"$out" && fail "loop_libm: the call to exp was not followed through the PLT"
# The math library the program loads is counted by default (the loop calling exp held none of its
# FLOPs unless --loops-library named libm): said, and exp's FLOPs are its calling loop's.
grep -q "a file not counted instruction by instruction" <<<"$out" && fail "loop_libm: libm was not counted by default"
if [[ -n $libm ]]; then
  grep -q -- "--loops: .*libm\.so\.6 counted instruction by instruction too (a math library the program loads" <<<"$out" ||
    fail "loop_libm: counting libm by default is not said"
  el=$(grep -n -F '/* exp sum */' "$src/tests/loops/loop_libm.c" | cut -d: -f1)
  # named by its first line (its lines may be that one alone: the call's line is another's)
  with_calls_point='select((.name | startswith("exp_sum: loop_libm.c:'$el'")) and (.name | endswith(" with its calls")))'
  for json in pm.json pml.json; do
    if [[ $json == pml.json ]]; then
      # Given by hand: counted once, and not said to be added.
      out=$("$bin" measure --loops --loops-library "$libm" --no-store --min-share 1 -o pml.json -- ./loop_libm $ln 2>&1) ||
        fail "measure --loops --loops-library libm"
      grep -q "counted instruction by instruction too" <<<"$out" && fail "loop_libm: libm given by hand is said added"
    fi
    [[ $(jq "[.points[] | $with_calls_point] | length" $json) == 1 ]] ||
      fail "loop_libm ($json): no point of exp_sum's loop with its calls: $(jq -c '[.points[].name]' $json)"
    # Every FLOP but printf's few is exp_sum's loop's (with exp) or main's loop's.
    jq -e "
      (.points[] | select(.name == \"(program)\") | .flops) as \$all
      | ([.points[] | $with_calls_point] + [.points[] | select(.name == \"main\")] | map(.flops) | add) as \$ours
      | (\$ours / \$all) > 0.995 and \$ours <= \$all" $json >/dev/null ||
      fail "loop_libm ($json): exp's FLOPs are not its calling loop's: $(jq -c '[.points[] | [.name, .flops]]' $json)"
  done
  # Its advice: vectorizing a loop of exp calls takes a vector math library (glibc's libmvec, -ffast-math).
  "$bin" report --machine "$src/tests/data/report-machine.json" --points pm.json --format json 2>/dev/null |
    jq -e "[.points[] | select(.point | (startswith(\"exp_sum: loop_libm.c:$el\") and endswith(\" with its calls\")))
            | .next_steps_typed[] | select(.kind == \"vectorize\") | .in_math_library] | all" >/dev/null ||
    fail "loop_libm: the loop of exp calls is not told that vectorizing it takes a vector math library"
fi

# Marker regions: each region's loops hold what ran while it was open (daxpy ran twice in
# "solve" and once outside, norm once in each region, scale outside both), named with the region.
lib=$(dirname "$bin")/lib
cc -O2 -g -I "$src/include" -o loop_regions "$src/tests/loops/loop_regions.c" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" || fail "cannot build loop_regions"
rl() { grep -n -F "/* $1 */" "$src/tests/loops/loop_regions.c" | cut -d: -f1; }
rn=2000000
out=$("$bin" measure --loops --no-store --min-share 1 -o pr.json -- ./loop_regions $rn 2>&1) || fail "measure --loops with marker regions"
region_loop() {  # REGION FUNCTION FLOPS
  local l; l=$(rl "$2")
  local p; p=$(jq -c --arg name "$1: $2: loop_regions.c:$l-$((l + 1))" '.points[] | select(.name == $name)' pr.json)
  [[ -n $p ]] || fail "no point of $2's loop in region $1: $(jq -c '[.points[].name]' pr.json)"
  [[ $(jq .flops <<<"$p") == "$3" && $(jq -r .series <<<"$p") == "$1: $2" ]] ||
    fail "$2's loop in region $1: $(jq .flops <<<"$p") FLOPs, series $(jq -r .series <<<"$p"); want $3 and '$1: $2'"
}
region_loop solve daxpy $((4 * rn))
region_loop solve norm $((2 * rn))
region_loop check norm $((2 * rn))
[[ $(jq '[.points[] | select((.name | test("scale")) or (.name | startswith("check: daxpy")))] | length' pr.json) == 0 ]] ||
  fail "loops run outside a region are in it: $(jq -c '[.points[].name]' pr.json)"
grep -q "^loops run inside region solve with at least" <<<"$out" && grep -q "^loops run inside region check with" <<<"$out" ||
  fail "no table of each region's loops"
grep -q "the loops are given per marker region" <<<"$out" || fail "the split by region is not said"
out=$("$bin" measure --loops --region-scope thread --no-store --min-share 1 -o prt.json -- ./loop_regions $rn 2>&1) ||
  fail "measure --loops --region-scope thread"
grep -q "not split by marker region: with --region-scope thread" <<<"$out" || fail "--region-scope thread: the whole run's loops not said"
# Counted in another build (--counts-from): each region's loops, as above (they were the whole
# run's, daxpy's three calls inside and outside "solve" added up, with a note); the regions keep
# their own points. The timed build's samples of a loop go to a region by its share of the loop's
# runs in the counting build.
cc -O1 -g -I "$src/include" -o loop_regions_o1 "$src/tests/loops/loop_regions.c" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" || fail "cannot build loop_regions at -O1"
out=$("$bin" measure --loops --no-store --min-share 1 -o prc.json --counts-from ./loop_regions_o1 -- ./loop_regions $rn 2>&1) ||
  fail "measure --loops --counts-from with marker regions"
grep -q "the loops are given per marker region, each with what ran while the region was open in the counting build" <<<"$out" ||
  fail "--counts-from: the split by region is not said"
cp prc.json pr.json
region_loop solve daxpy $((4 * rn))
region_loop solve norm $((2 * rn))
region_loop check norm $((2 * rn))
[[ $(jq '[.points[] | select((.name | test("scale")) or (.name | startswith("check: daxpy")) or (.name | startswith("daxpy")))] | length' prc.json) == 0 ]] ||
  fail "--counts-from: loops run outside a region, or the whole run's, have points: $(jq -c '[.points[].name]' prc.json)"
# The line under the table when the cut leaves loops out, as without --counts-from (it was
# missing: the cut was not tallied).
out2=$("$bin" measure --loops --no-store --min-share 40 --counts-from ./loop_regions_o1 -- ./loop_regions $rn 2>&1) ||
  fail "measure --loops --counts-from --min-share 40"
grep -qE "^the [0-9]+ loops? listed holds? [0-9.]+% of the FLOPs in (its|their) own code.*more holds?" <<<"$out2" ||
  fail "--counts-from: no line saying what the listed loops hold: $(sed -n '/^loops/,$p' <<<"$out2")"
jq -e '[.points[] | select(.name == "solve" or .name == "check")] | length == 2' prc.json >/dev/null ||
  fail "--counts-from: the regions' own points are missing: $(jq -c '[.points[].name]' prc.json)"
out=$("$bin" measure --loops --region-function daxpy --no-store --counts-from ./loop_regions_o1 -- ./loop_regions 1000 2>&1); rc=$?
[[ $rc == 2 && $out == *"measure the counted build alone"* ]] || fail "--loops --counts-from --region-function: exit $rc"

out=$("$bin" measure --loops --engine perf --no-store -- ./loop_shapes 1000 2>&1); rc=$?
[[ $rc == 2 && $out == *"--loops needs the instrument engine"* ]] || fail "--loops --engine perf: exit $rc"
cc -O2 -o loop_shapes_nog loop_shapes.c || fail "cannot build loop_shapes without -g"
out=$("$bin" measure --loops --counts-from ./loop_shapes_nog --no-store -- ./loop_shapes 1000 2>&1); rc=$?
[[ $rc == 2 && $out == *"build both with -g"* ]] || fail "--loops --counts-from a build without -g: exit $rc"
echo "PASS: measure --loops: loops named by their lines, exact self FLOPs, iterations, in a series per function"
