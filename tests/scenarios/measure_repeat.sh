#!/usr/bin/env bash
# measure --repeat (issue 35): one native run was the timing, and two measurements of one
# blocked multiply back to back read 4.99 and 2.35 GFLOP/s. Now the native run is repeated
# (--repeat K after one warm-up run; by default a quick program gets a warm-up and up to 5
# timed runs), each point's seconds is its fastest run, and the runs, median, slowest,
# spread and warm-up are in its details (what compare and history judge a change against),
# the table says "min of K runs, spread S%", the provenance how it was timed; Ctrl-C between
# runs keeps the runs made; --cold empties the caches before every run and the points say so. Needs a C compiler and the marker library, else 77.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$(dirname "$bin")" && pwd)
lib=$build/lib
tmp=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null && [[ -e $lib/libroofline_marker.so ]] ||
  { echo "skip: no C compiler or marker library (target roofline_marker)"; exit 77; }
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }
cc -O2 "$src/tests/marker/repeat_runs.c" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" \
  -o "$tmp/mm" || fail "cannot compile the test program"
runs() { wc -l <"$1" 2>/dev/null || echo 0; }

# --repeat 3: a warm-up and three timed runs; every point says so.
"$bin" measure --engine time --repeat 3 -o "$tmp/r3.json" -- "$tmp/mm" "$tmp/r3.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "measure --repeat 3"
[[ $(runs "$tmp/r3.log") == 4 ]] || fail "--repeat 3 ran the program $(runs "$tmp/r3.log") times, not 4 (1 warm-up + 3)"
jq -e '[.points[] | .details.runs == 3 and .seconds == .details.seconds_fastest and
        .details.seconds_slowest >= .details.seconds_fastest and
        .details.seconds_median >= .details.seconds_fastest and .details.seconds_median <= .details.seconds_slowest and
        ((.details.seconds_spread - (.details.seconds_slowest / .details.seconds_fastest - 1)) | fabs) < 1e-9 and
        .details.warmup_runs == 1 and .details.seconds_warmup > 0] | length == 2 and all' "$tmp/r3.json" >/dev/null ||
  fail "the points of --repeat 3 do not carry runs, fastest, median, slowest, spread and warm-up: $(jq -c '[.points[] | {name, seconds, details}]' "$tmp/r3.json")"
jq -e '.provenance.options.timing | test("^min of 3 native runs after 1 warm-up run")' "$tmp/r3.json" >/dev/null ||
  fail "the provenance does not say how the time was taken: $(jq -c .provenance.options "$tmp/r3.json")"
grep -Eq '^multiply .*min of 3 runs, spread [0-9.]+%$' "$tmp/out" || fail "the table does not say 'min of 3 runs, spread S%'"
grep -Eq '^\(program\) .*min of 3 runs, spread [0-9.]+%$' "$tmp/out" || fail "the program's row does not say how it was timed"
grep -q "native runs (timing): 1 warm-up" "$tmp/err" || fail "the note does not say what was run"
echo "ok: --repeat 3: a warm-up and 3 timed runs, min with runs, median, slowest, spread and warm-up kept"

# --warmup 0: the cold first run is one of the timed ones.
"$bin" measure --engine time --repeat 3 --warmup 0 -o "$tmp/w0.json" -- "$tmp/mm" "$tmp/w0.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "measure --repeat 3 --warmup 0"
[[ $(runs "$tmp/w0.log") == 3 ]] || fail "--warmup 0 ran $(runs "$tmp/w0.log") times, not 3"
jq -e '[.points[] | .details.runs == 3 and .details.seconds_warmup == null] | all' "$tmp/w0.json" >/dev/null ||
  fail "--warmup 0: $(jq -c '[.points[].details]' "$tmp/w0.json")"
echo "ok: --warmup 0 times the first run too"

# --repeat 1: one run, as before; no spread is claimed (compare and history allow their default).
"$bin" measure --engine time --repeat 1 -o "$tmp/r1.json" -- "$tmp/mm" "$tmp/r1.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "measure --repeat 1"
[[ $(runs "$tmp/r1.log") == 1 ]] || fail "--repeat 1 ran $(runs "$tmp/r1.log") times"
jq -e '[.points[] | .details.runs == 1 and .details.seconds_fastest == null and .details.seconds_slowest == null] | all' \
  "$tmp/r1.json" >/dev/null || fail "--repeat 1: $(jq -c '[.points[].details]' "$tmp/r1.json")"
grep -Eq '^multiply .* 1 run$' "$tmp/out" || fail "the table does not say '1 run'"
echo "ok: --repeat 1 is one run with no spread claimed"

# The default: a program this quick gets a warm-up and 5 timed runs.
"$bin" measure --engine time -o "$tmp/auto.json" -- "$tmp/mm" "$tmp/auto.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "measure (default repeats)"
[[ $(runs "$tmp/auto.log") == 6 ]] || fail "the default ran a quick program $(runs "$tmp/auto.log") times, not 6"
jq -e '[.points[] | .details.runs == 5] | all' "$tmp/auto.json" >/dev/null || fail "default: not 5 timed runs"
grep -q "automatic: the first run took" "$tmp/err" || fail "the note does not say the number was chosen automatically"
echo "ok: by default a quick program gets a warm-up and 5 timed runs"

# A standing preference: measure.repeat in a configuration file or the environment.
ROOFLINE_MEASURE_REPEAT=2 "$bin" measure --engine time --no-store -o "$tmp/env.json" -- "$tmp/mm" "$tmp/env.log" \
  >"$tmp/out" 2>"$tmp/err" || fail "ROOFLINE_MEASURE_REPEAT=2 measure"
[[ $(runs "$tmp/env.log") == 3 ]] || fail "ROOFLINE_MEASURE_REPEAT=2 ran $(runs "$tmp/env.log") times, not 3"
echo "ok: ROOFLINE_MEASURE_REPEAT=2 (measure.repeat) is a warm-up and 2 timed runs"

# --times takes an earlier run's times: --repeat belongs to that run.
"$bin" measure --engine instrument --times "$tmp/r3.json" --repeat 2 --no-store -- "$tmp/mm" "$tmp/r3.log" \
  >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 2 ]] && grep -q -- "--times replaces" "$tmp/err" || fail "--times with --repeat: exit $code"
echo "ok: --repeat with --times is refused"

# --cold: the caches are emptied before every run (warm-up included); the points say so.
"$bin" measure --engine time --repeat 2 --cold -o "$tmp/cold.json" -- "$tmp/mm" "$tmp/cold.log" >"$tmp/out" 2>"$tmp/err" ||
  fail "measure --repeat 2 --cold"
[[ $(runs "$tmp/cold.log") == 3 ]] || fail "--repeat 2 --cold ran $(runs "$tmp/cold.log") times, not 3"
jq -e '.provenance.options.cold == "yes" and
       (.provenance.options.timing | test("cold caches: a [0-9]+ MiB buffer written between runs"))' \
  "$tmp/cold.json" >/dev/null || fail "--cold is not in the provenance: $(jq -c .provenance.options "$tmp/cold.json")"
grep -Eq "cold caches \(--cold\): a [0-9]+ MiB buffer is written and read before each native run" "$tmp/err" ||
  fail "--cold's note does not say what was done"
jq -e '.provenance.options.cold == null' "$tmp/r3.json" >/dev/null || fail "a warm run says cold"
"$bin" measure --engine instrument --times "$tmp/r3.json" --cold --no-store -- "$tmp/mm" "$tmp/r3.log" \
  >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 2 ]] && grep -q -- "--cold empties the caches before the native runs, which --times replaces" "$tmp/err" ||
  fail "--times with --cold: exit $code"
echo "ok: --cold flushes before every run, says so in the provenance, and is refused with --times"

# Ctrl-C between runs: the runs made are kept (the interrupted one left out), exit 130.
"$bin" measure --engine time --repeat 6 -o "$tmp/int.json" -- "$tmp/mm" "$tmp/int.log" 300 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 100); do [[ $(runs "$tmp/int.log") -ge 3 ]] && break; sleep 0.05; done
[[ $(runs "$tmp/int.log") -ge 3 ]] || fail "three runs did not finish within 5 s"
kill -INT "$pid"
wait "$pid"; code=$?; pid=
[[ $code == 130 ]] || fail "exit $code after Ctrl-C, expected 130"
grep -q "interrupted by SIGINT .*native run" "$tmp/err" || fail "the interruption between runs is not said"
# The run the signal came in is the one measure names: the signal goes to measure, not to the
# program, so that run may still finish and write its line (under ASan it did), and the lines
# in int.log are not the runs measure kept. The runs before it are: a warm-up and the rest timed.
at=$(grep -o "during native run [0-9]*" "$tmp/err" | grep -o "[0-9]*$")
made=$(runs "$tmp/int.log")
[[ -n $at && $made -ge $((at - 1)) ]] || fail "measure says run '$at' was interrupted, but $made runs finished"
jq -e --argjson timed $((at - 2)) '.provenance.options.interrupted == "SIGINT" and
      ([.points[] | .details.runs == $timed and .details.warmup_runs == 1] | all)' "$tmp/int.json" >/dev/null ||
  fail "after Ctrl-C at run $at the $((at - 2)) timed runs before it are not kept: $(jq -c '[.points[].details]' "$tmp/int.json")"
echo "ok: Ctrl-C in run $at keeps the $((at - 1)) runs before it ($((at - 2)) timed after the warm-up), exit 130"
