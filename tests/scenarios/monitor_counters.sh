#!/usr/bin/env bash
# Issue 14, `roofline monitor` with counters (no --counts): every thread of the job's processes,
# found by the job id in their environment, is counted. Without a PMU the machine's own event
# file cannot open, which must be said with what to do instead; the counting itself is checked
# with a test event file (tests/data/events-software) whose "FLOPs" are the task clock: a
# program of 4 threads, started before the monitor, must be sampled with its 4 threads, and
# the samples must add up to no more than the CPU time the threads had. The last sample of a
# job that ended keeps its threads' last counts. SKIPPED (77) without python3 or jq.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "SKIPPED: python3 is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
unset SLURM_JOB_ID ROOFLINE_MONITOR_DIR ROOFLINE_JOB_ID ROOFLINE_EVENTS_DIR
export ROOFLINE_DB=$tmp/results.db
out=""
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }

# 1. This machine's event file: counted where there is a PMU, refused with advice where not.
ROOFLINE_JOB_ID=jobhw sleep 4 &
pids+=($!)
sleep 0.3
out=$("$bin" monitor --job jobhw --once --interval 0.5 2>&1); code=$?
if [[ $code == 0 ]]; then
  grep -q "1 sample of job jobhw stored" <<<"$out" || fail "with counters: no sample stored"
  echo "ok: hardware counters opened here"
else
  [[ $code == 1 ]] || fail "without counters: exit $code, expected 1"
  grep -q "no counter opened on the threads of job jobhw" <<<"$out" || fail "no word that no counter opened"
  grep -q "Without counters, sample the job's marked regions instead: roofline monitor --counts FILE --dir DIR" <<<"$out" ||
    fail "no word on the marker path"
  echo "ok: no hardware counters here, and the monitor says what to do"
fi

# 2. The counting, with the task clock as the "FLOP" counter.
export ROOFLINE_EVENTS_DIR=$src/tests/data/events-software
cat >spin.py <<'PY'
import threading, time, os, sys
def spin(seconds):
    end = time.time() + seconds
    while time.time() < end:
        pass
threads = [threading.Thread(target=spin, args=(float(sys.argv[1]),)) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
t = os.times()
print(t.user + t.system)  # the CPU time of all its threads
PY
ROOFLINE_JOB_ID=jobsw python3 spin.py 2.5 >cpu.txt &
prog=$!; pids+=($prog)
sleep 0.5  # its threads exist before the monitor looks
out=$("$bin" monitor --job jobsw --interval 1 --duration 3.5 2>&1) || fail "monitor with the task-clock event file: exit $?"
wait $prog || fail "the program failed"
grep -q "hardware counters (software_clock) on every thread" <<<"$out" || fail "the event file used is not named"
grep -q " 4 threads" <<<"$out" || fail "the program's 4 threads were not all counted"
n=$(grep -c "GFLOP/s" <<<"$out")
(( n >= 2 )) || fail "expected at least 2 samples, got $n"
json=$("$bin" report --job jobsw --machine "$src/tests/data/report-machine.json" --format json 2>&1) || { out=$json; fail "report --job"; }
cpu=$(cat cpu.txt)
counted=$(jq '[.rows[] | .performance * .seconds] | add' <<<"$json")  # GFLOP = seconds of task clock
awk -v c="$counted" -v t="$cpu" 'BEGIN { exit !(c > 0.3 * t && c <= t * 1.05 + 0.05) }' ||
  fail "the samples counted $counted s of task clock, the program's threads had $cpu s of CPU time"
echo "ok: $n samples, $counted s of task clock counted of the program's $cpu s of CPU time"
out=$("$bin" show --points stored --format json 2>&1) || fail "show the last sample"
jq -e '.points[0].source == "monitor" and .points[0].details.sampled_with_counters == 1 and
       .points[0].details.counted_threads >= 1' <<<"$out" >/dev/null || fail "the last sample: counted, with its threads"

# 3. Run by another user, the job's processes cannot be looked into: said, not a silent wait.
if [[ $(id -u) -eq 0 ]] && command -v runuser >/dev/null; then
  out=$(cd / && runuser -u nobody -- env ROOFLINE_DB= "$bin" monitor --job jobsw --once --interval 0.2 \
    --db "$(mktemp -u /tmp/roofline-nobody-XXXXXX.db)" 2>&1)
  grep -q "other users' processes cannot be looked into: run the monitor as root or as the job's user" <<<"$out" ||
    fail "run as nobody: no word that other users' processes cannot be seen"
  rm -f /tmp/roofline-nobody-*.db
fi

# 4. Misuse.
out=$("$bin" monitor --job x --dir "$tmp" --once 2>&1); code=$?
[[ $code == 2 ]] && grep -q -- "--dir and --region go with --counts" <<<"$out" || fail "--dir without --counts: exit $code"
echo "ok"
