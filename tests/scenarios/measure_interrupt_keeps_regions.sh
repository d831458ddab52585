#!/usr/bin/env bash
# Ctrl-C during the native run of a program with marker regions: the marker library wrote its
# regions only at exit (and at a crash), so SIGINT lost the region that had finished and measure
# kept only the part of the program's time that ran. Now the library writes them at SIGINT,
# SIGTERM and SIGHUP too (the open one flagged), then dies of the signal as before: the finished
# region keeps its time, the open one is said to be cut off, the run is said interrupted. A
# program with its own SIGINT handler keeps it: the handler runs and the program ends as it chose.
# One that ignores SIGCHLD is not held 2 s by the writer's wait. The writer is not held by stdio's
# lock another thread holds for good, nor by the library's own locks of threads inside short
# regions as the signal comes. A stop signal during the write at exit waits for it (it lost the file). The cut-off region's point carries the signal
# (details.cut_off_by_signal), kept by the store and said by measure's table, report and plot.
# Needs a C compiler and the marker library, else 77.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
fail=0
cc -O1 -pthread "$src/tests/marker/interrupt_in_region.c" -I "$src/include" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -o "$tmp/prog" || { echo "FAIL: cannot compile the test program"; exit 1; }
# The program creates $tmp/ready once it is inside region "spin".
wait_ready() { for _ in $(seq 1 600); do [[ -e $tmp/ready ]] && return 0; sleep 0.05; done; return 1; }

# 1. Under measure: SIGINT to roofline, which passes it to the program.
rm -f "$tmp/ready"
"$bin" measure --engine time --no-store --repeat 1 -o "$tmp/p.json" -- "$tmp/prog" "$tmp/ready" \
  </dev/null >"$tmp/out" 2>&1 &
pid=$!
wait_ready || { kill -KILL "$pid"; echo "FAIL: the program never reached region spin"; cat "$tmp/out"; exit 1; }
kill -INT "$pid"
wait "$pid"; code=$?
[[ $code == 130 ]] || { echo "FAIL: measure exited $code, expected 130"; fail=1; }
secs=$(jq -r '.points[] | select(.name == "done") | .seconds' "$tmp/p.json" 2>/dev/null)
awk -v s="${secs:-0}" 'BEGIN { exit !(s > 0) }' || { echo "FAIL: the finished region lost its time ($secs)"; fail=1; }
grep -q "interrupted by SIGINT" "$tmp/out" || { echo "FAIL: the run is not said interrupted"; fail=1; }
grep -q "1 finished before and keeps its time ('done')" "$tmp/out" ||
  { echo "FAIL: the finished region is not said kept"; fail=1; }
grep -q "1 was still open, cut off by it: its time is only the part that ran ('spin')" "$tmp/out" ||
  { echo "FAIL: the open region is not said cut off"; fail=1; }
grep -q "regions were not written\|no native timing" "$tmp/out" && { echo "FAIL: regions said lost"; fail=1; }
[[ $fail == 0 ]] && echo "ok: an interrupted program keeps its finished region, its open one said cut off" ||
  sed 's/^/  | /' "$tmp/out"

# 2. The library alone, SIGTERM and SIGHUP too: the program dies of the signal (exit status
# unchanged), its regions written. set -m: a background job of a script ignores SIGINT otherwise.
set -m
for sig in INT TERM HUP; do
  rm -f "$tmp/ready" "$tmp/direct.json"
  ROOFLINE_MARKER_OUT=$tmp/direct.json "$tmp/prog" "$tmp/ready" >/dev/null 2>&1 &
  pid=$!
  wait_ready || { kill -KILL "$pid"; echo "FAIL: $sig: the program never reached region spin"; exit 1; }
  kill -$sig "$pid"
  wait "$pid"; code=$?
  want=$((128 + $(kill -l $sig)))
  [[ $code == "$want" ]] || { echo "FAIL: $sig: the program exited $code, expected $want"; fail=1; }
  jq -e '.regions[] | select(.name == "done" and .seconds > 0 and (.unclosed // 0) == 0)' "$tmp/direct.json" \
    >/dev/null 2>&1 || { echo "FAIL: $sig: region done not written"; fail=1; }
  jq -e '.regions[] | select(.name == "spin" and .unclosed == 1)' "$tmp/direct.json" >/dev/null 2>&1 ||
    { echo "FAIL: $sig: region spin not written as open"; fail=1; }
  grep -q "still open at finalize (the program was [a-z]* by SIG$sig)" "$tmp/direct.json" ||
    { echo "FAIL: $sig: the cause is not named"; fail=1; }
done

# 3. The program's own SIGINT handler is called, not replaced: the loop ends, "spin" closes, exit 3.
rm -f "$tmp/ready" "$tmp/direct.json"
ROOFLINE_MARKER_OUT=$tmp/direct.json "$tmp/prog" "$tmp/ready" own-handler >"$tmp/own" 2>&1 &
pid=$!
wait_ready || { kill -KILL "$pid"; echo "FAIL: own handler: the program never reached region spin"; exit 1; }
kill -INT "$pid"
wait "$pid"; code=$?
[[ $code == 3 ]] || { echo "FAIL: with its own handler the program exited $code, expected 3"; fail=1; }
grep -q "own handler called" "$tmp/own" || { echo "FAIL: the program's own SIGINT handler was not called"; fail=1; }
jq -e '.regions[] | select(.name == "spin" and (.unclosed // 0) == 0)' "$tmp/direct.json" >/dev/null 2>&1 ||
  { echo "FAIL: own handler: region spin was not closed by the program"; fail=1; }

# 4. A program that ignores SIGCHLD: the kernel reaped the writer when it was a forked child, and
# the library waited out its 2 s limit, then sent SIGKILL to a pid that may be another process's by
# then. The writer is a thread of the library's now (a forked child only where none could be made):
# the program still dies at once, its regions written.
rm -f "$tmp/ready" "$tmp/direct.json"
ROOFLINE_MARKER_OUT=$tmp/direct.json "$tmp/prog" "$tmp/ready" sigchld-ignored >/dev/null 2>&1 &
pid=$!
wait_ready || { kill -KILL "$pid"; echo "FAIL: SIGCHLD ignored: the program never reached region spin"; exit 1; }
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"; code=$?
waited_ms=$(( ($(date +%s%N) - start) / 1000000 ))
set +m
[[ $code == 130 ]] || { echo "FAIL: SIGCHLD ignored: the program exited $code, expected 130"; fail=1; }
jq -e '.regions[] | select(.name == "done" and .seconds > 0)' "$tmp/direct.json" >/dev/null 2>&1 ||
  { echo "FAIL: SIGCHLD ignored: region done not written"; fail=1; }
(( waited_ms < 1500 )) || { echo "FAIL: SIGCHLD ignored: the program took $waited_ms ms to die (the writer's 2 s limit)"; fail=1; }

# 5. stdio's list of streams held for good by another thread as the signal comes (in fflush on a
# full pipe): the writer then was a child forked in the handler that opened its file with fopen,
# which waits for that lock: it was given up after 2 s, nothing written. The writer uses the system
# calls now: both regions are written.
rm -f "$tmp/ready"
"$bin" measure --engine time --no-store --repeat 1 -o "$tmp/p.json" -- "$tmp/prog" "$tmp/ready" stdio-held \
  </dev/null >"$tmp/out" 2>&1 &
pid=$!
wait_ready || { kill -KILL "$pid"; echo "FAIL: stdio held: the program never reached region spin"; cat "$tmp/out"; exit 1; }
kill -INT "$pid"
wait "$pid"; code=$?
[[ $code == 130 ]] || { echo "FAIL: stdio held: measure exited $code, expected 130"; fail=1; }
grep -q "1 finished before and keeps its time ('done')" "$tmp/out" &&
  grep -q "1 was still open, cut off by it: its time is only the part that ran ('spin')" "$tmp/out" ||
  { echo "FAIL: stdio held: the regions were not written"; sed 's/^/  | /' "$tmp/out"; fail=1; }

# 5b. Short regions opened and closed in tight loops on three threads as the signal comes: a child
# forked in the handler found some thread's lock on its regions held for good (5 of 6 Ctrl-Cs wrote
# nothing); and the thread the signal stops may hold its own. Every one of 6 writes them now.
set -m
for run in 1 2 3 4 5 6; do
  rm -f "$tmp/ready" "$tmp/direct.json"
  ROOFLINE_MARKER_OUT=$tmp/direct.json "$tmp/prog" "$tmp/ready" busy-threads >/dev/null 2>&1 &
  pid=$!
  wait_ready || { kill -KILL "$pid"; echo "FAIL: busy threads: the program never reached region spin"; exit 1; }
  sleep 0.1
  start=$(date +%s%N)
  kill -INT "$pid"
  wait "$pid"; code=$?
  waited_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [[ $code == 130 ]] || { echo "FAIL: busy threads, run $run: the program exited $code, expected 130"; fail=1; }
  jq -e '[.regions[] | select(.name == "done" and (.unclosed // 0) == 0), select(.name == "short" and .calls > 1000),
          select(.name == "spin" and .unclosed == 1)] | length == 3' "$tmp/direct.json" >/dev/null 2>&1 ||
    { echo "FAIL: busy threads, run $run: the regions were not all written (${waited_ms} ms)"; fail=1; }
  (( waited_ms < 1500 )) || { echo "FAIL: busy threads, run $run: the write took $waited_ms ms"; fail=1; }
done
set +m

# 6. A stop signal during the write at exit: the program has returned from main and the library's
# write is held (a preloaded rename waits on a FIFO) until the test drains it. The signal's writer
# found the file written already and the process died mid-write: no file, or a <file>.tmp.PID
# left. Now the signal waits for the write, then ends the process (130).
cc -O1 -shared -fPIC "$src/tests/marker/stall_rename.c" -o "$tmp/stall_rename.so" -ldl ||
  { echo "FAIL: cannot compile the rename shim"; exit 1; }
set -m
rm -f "$tmp/ready" "$tmp/stalled" "$tmp/direct.json" "$tmp/direct.json".tmp.*
mkfifo "$tmp/fifo"
ROOFLINE_MARKER_OUT=$tmp/direct.json STALL_RENAME_FIFO=$tmp/fifo STALL_RENAME_READY=$tmp/stalled \
  LD_PRELOAD=$tmp/stall_rename.so "$tmp/prog" "$tmp/ready" exit-write >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do [[ -e $tmp/stalled ]] && break; sleep 0.05; done
[[ -e $tmp/stalled ]] || { kill -KILL "$pid"; echo "FAIL: exit write: the library's write was never held"; exit 1; }
kill -INT "$pid"
sleep 0.2
timeout 10 bash -c "echo > '$tmp/fifo'"  # lets the rename go on
wait "$pid"; code=$?
set +m
[[ $code == 130 ]] || { echo "FAIL: exit write: the program exited $code, expected 130"; fail=1; }
jq -e '.regions[] | select(.name == "done" and .seconds > 0 and (.unclosed // 0) == 0)' "$tmp/direct.json" \
  >/dev/null 2>&1 || { echo "FAIL: exit write: a stop signal during it lost the file"; fail=1; }
compgen -G "$tmp/direct.json.tmp.*" >/dev/null && { echo "FAIL: exit write: its temporary file was left behind"; fail=1; }

# 7. The point of the region cut off by the signal carries it (details.cut_off_by_signal), through
# the results store too; report (text, Markdown, JSON) and plot say it; compare does not judge it.
rm -f "$tmp/ready"
"$bin" measure --engine time --repeat 1 -o "$tmp/p.json" -- "$tmp/prog" "$tmp/ready" </dev/null >"$tmp/out" 2>&1 &
pid=$!
wait_ready || { kill -KILL "$pid"; echo "FAIL: cut off: the program never reached region spin"; cat "$tmp/out"; exit 1; }
kill -INT "$pid"
wait "$pid"
jq -e '.points[] | select(.name == "spin" and .details.cut_off_by_signal == 2)' "$tmp/p.json" >/dev/null 2>&1 ||
  { echo "FAIL: cut off: the point of 'spin' does not carry the signal"; fail=1; }
jq -e '.points[] | select(.name == "done" and (.details.cut_off_by_signal == null))' "$tmp/p.json" >/dev/null 2>&1 ||
  { echo "FAIL: cut off: the finished region 'done' is said cut off"; fail=1; }
grep -q "^spin: cut off by SIGINT: its time is only the part that ran before the signal" "$tmp/out" ||
  { echo "FAIL: cut off: measure's table does not say 'spin' was cut off"; sed 's/^/  | /' "$tmp/out"; fail=1; }
"$bin" show --points stored --format json >"$tmp/stored.json" 2>"$tmp/show.err" ||
  { echo "FAIL: cut off: show --points stored failed"; cat "$tmp/show.err"; fail=1; }
jq -e '.. | objects | select(.name? == "spin") | select(.details.cut_off_by_signal == 2)' "$tmp/stored.json" \
  >/dev/null 2>&1 || { echo "FAIL: cut off: the stored point of 'spin' lost the signal"; fail=1; }
# Time engine: not judged; the listing names it cut off. A counted copy of it is judged, said partial.
machine=$src/examples/machines/example_85_8.yaml
"$bin" report --machine "$machine" --points stored >"$tmp/report" 2>/dev/null
grep -q "spin (cut off by SIGINT)" "$tmp/report" || { echo "FAIL: cut off: report's listing does not say it"; fail=1; }
# 1 GFLOP/s at 1 FLOP/B whatever the part of spin that ran before the signal: a fixed 1e8 FLOPs over
# a few ms (a loaded machine) read above the sheet's roofs, and such a point is never drawn.
jq '(.points[] | select(.name == "spin")) |= . + {flops: (.seconds * 1e9), bytes: {DRAM: (.seconds * 1e9)}}' \
  "$tmp/p.json" >"$tmp/counted.json"
"$bin" report --machine "$machine" --points "$tmp/counted.json" >"$tmp/report" 2>/dev/null
grep -q "PARTIAL *cut off by SIGINT: its time and counts are only the part" "$tmp/report" ||
  { echo "FAIL: cut off: report (text) does not say it"; fail=1; }
"$bin" report --machine "$machine" --points "$tmp/counted.json" --format markdown 2>/dev/null |
  grep -q "PARTIAL: cut off by SIGINT" || { echo "FAIL: cut off: report (Markdown) does not say it"; fail=1; }
"$bin" report --machine "$machine" --points "$tmp/counted.json" --format json 2>/dev/null |
  jq -e '.points[] | select(.point == "spin" and .cut_off.signal_name == "SIGINT")' >/dev/null 2>&1 ||
  { echo "FAIL: cut off: report (JSON) does not say it"; fail=1; }
"$bin" plot --machine "$machine" --points "$tmp/counted.json" -o "$tmp/c.svg" 2>/dev/null
grep -q "spin (cut off by SIGINT)" "$tmp/c.svg" || { echo "FAIL: cut off: the chart's label does not say it"; fail=1; }
# compare: A cut off after a tenth of a whole run B (10x its work and time): judged on time that
# read SLOWER and failed --fail-on-slower (exit 3); a pair with a cut-off side is not judged, and
# with 'done' uncounted (time engine: no rate) nothing is: exit 4, saying why.
jq '(.points[] | select(.name == "spin")) |= (del(.details.cut_off_by_signal) | .flops = 1e9 | .seconds *= 10)' \
  "$tmp/counted.json" >"$tmp/whole.json"
"$bin" compare "$tmp/counted.json" "$tmp/whole.json" --fail-on-slower >"$tmp/cmp" 2>&1; code=$?
[[ $code == 4 ]] || { echo "FAIL: cut off: compare --fail-on-slower exited $code, expected 4"; fail=1; }
grep -q "was cut off by a signal in A or B" "$tmp/cmp" || { echo "FAIL: cut off: compare's 'nothing judged' does not say why"; fail=1; }
grep -q "not judged: A cut off by SIGINT" "$tmp/cmp" || { echo "FAIL: cut off: compare judged the pair"; fail=1; }
grep -q "SLOWER\|FASTER" "$tmp/cmp" && { echo "FAIL: cut off: compare gave a verdict"; sed 's/^/  | /' "$tmp/cmp"; fail=1; }
"$bin" compare "$tmp/counted.json" "$tmp/whole.json" --format json 2>/dev/null |
  jq -e '.points[] | select(.point == "spin" and .judged == false and .slower == false and .not_judged == "A cut off by SIGINT")' \
  >/dev/null 2>&1 || { echo "FAIL: cut off: compare (JSON) does not say the pair was not judged"; fail=1; }
[[ $fail == 0 ]] && echo "ok: SIGINT, SIGTERM, SIGHUP write the regions and end the program as before; its own handler runs"
exit $fail
