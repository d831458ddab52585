#!/usr/bin/env bash
# Issue 14 part 2, `roofline monitor` against a running program with a known FLOP rate
# (examples/programs/steady_flops: region "step", 2*N FLOPs a call, paced): per-call counts
# from one instrument run, then the program runs with ROOFLINE_MONITOR_DIR set while
# `monitor --interval 1 --duration 5` samples it. Checks: every sampled rate agrees with the
# program's own printed rate within 5%; the samples are in the store tagged with the job;
# report --job (text, json) and plot --job work; SIGTERM stores the last partial interval and
# exits 0; --all-jobs keeps jobs apart; bad input exits non-zero with a message.
# SKIPPED (exit 77) without the example program, the Valgrind tool, valgrind or jq.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$bin")
src=$(cd "$(dirname "$0")/../.." && pwd)
prog=$build/examples/programs/steady_flops
[[ -x $prog ]] || { echo "SKIPPED: $prog not built"; exit 77; }
[[ -e $build/vgtool/roofline-amd64-linux ]] || { echo "SKIPPED: the Valgrind tool is not built"; exit 77; }
command -v valgrind >/dev/null || { echo "SKIPPED: valgrind is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
unset SLURM_JOB_ID ROOFLINE_MONITOR_DIR ROOFLINE_JOB_ID
export ROOFLINE_DB=$tmp/results.db
machine=$src/tests/data/report-machine.json
out=""
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
n=100000

# Per-call counts: one short, unpaced instrument run.
out=$("$bin" measure --engine instrument --no-store -o counts.json -- "$prog" 20 0 $n 2>&1) || fail "instrument run"
jq -e ".points[] | select(.name == \"step\") | .flops == 2 * $n * 20 and .details.calls == 20" counts.json >/dev/null ||
  fail "counts.json: step should have $((2 * n * 20)) FLOPs in 20 calls: $(cat counts.json)"

# Under the instrument engine the library publishes nothing (the snapshot thread's work would
# count in the regions): the same counts with ROOFLINE_MONITOR_DIR set.
out=$(ROOFLINE_MONITOR_DIR=$tmp/snapv ROOFLINE_MONITOR_PERIOD_MS=10 ROOFLINE_JOB_ID=jv \
  "$bin" measure --engine instrument --no-store -o counts-v.json -- "$prog" 20 0 $n 2>&1) || fail "instrument run with ROOFLINE_MONITOR_DIR"
step='.points[] | select(.name == "step") | [.flops, .bytes.L1]'
[[ $(jq -c "$step" counts.json) == "$(jq -c "$step" counts-v.json)" ]] ||
  fail "ROOFLINE_MONITOR_DIR changed the instrument counts: $(jq -c "$step" counts.json) vs $(jq -c "$step" counts-v.json)"

# The program at 200 calls/s for 7 s, publishing every 250 ms; the monitor samples 5 s of it.
ROOFLINE_MONITOR_DIR=$tmp/snap ROOFLINE_MONITOR_PERIOD_MS=250 ROOFLINE_JOB_ID=job42 "$prog" 1400 200 $n >prog.out &
prog_pid=$!; pids+=($prog_pid)
sleep 0.5
out=$("$bin" monitor --job job42 --counts counts.json --dir "$tmp/snap" --interval 1 --duration 5 2>&1) ||
  fail "monitor exited $?"
grep -q "5 samples of job job42 stored" <<<"$out" || fail "monitor should store 5 samples"
wait $prog_pid || fail "the program failed"
known=$(awk '{for (i = 1; i < NF; ++i) if ($i == "rate") print $(i + 1)}' prog.out)
[[ -n $known ]] || fail "the program printed no rate: $(cat prog.out)"
jq -e '.finished == true and .job == "job42" and (.regions[] | select(.name == "step") | .calls == 1400)' \
  "$tmp/snap/$prog_pid.json" >/dev/null || fail "the final snapshot: $(cat "$tmp/snap/$prog_pid.json")"

# The samples, judged: every one within 5% of the program's own rate.
out=$("$bin" report --job job42 --machine "$machine" --format json 2>&1) || fail "report --job"
json=$out
jq -e '.samples == 5 and .judged == 5 and (.rows | length) == 5' <<<"$json" >/dev/null || fail "report --job json: 5 judged samples"
while read -r rate; do
  awk -v r="$rate" -v k="$known" 'BEGIN { d = (r - k) / k; if (d < 0) d = -d; exit !(d <= 0.05) }' ||
    fail "sampled rate $rate GFLOP/s is not within 5% of the program's $known GFLOP/s"
done < <(jq -r '.rows[].performance' <<<"$json")
echo "ok: sampled rates $(jq -r '[.rows[].performance] | map(tostring) | join(" ")' <<<"$json") GFLOP/s, the program's own $known"
jq -e '.memory_bound_seconds + .compute_bound_seconds > 4.5 and .efficiency.median > 0' <<<"$json" >/dev/null ||
  fail "report --job: time bound and efficiency"
out=$("$bin" report --job job42 --machine "$machine" 2>&1) || fail "report --job text"
grep -q "^Job job42: 5 samples" <<<"$out" && grep -q "memory-bound" <<<"$out" && grep -q "efficiency" <<<"$out" ||
  fail "report --job text"
out=$("$bin" list 2>&1) || fail "list"
grep -q "job job42 $(hostname)" <<<"$out" || fail "the store should list the set 'job job42 $(hostname)'"
out=$("$bin" plot --job job42 --machine "$machine" -o job.svg 2>&1) || fail "plot --job"
grep -q "5 points" <<<"$out" && grep -qE '\+1\.[0-9] s' job.svg || fail "plot --job: the samples labelled by time"
# Each band's ends written as the samples' labels are (one decimal a second apart; were "+0-1 s").
# The bands' ends follow the samples' own times, which a loaded machine delays by a tenth or so.
bands=$(grep -oE "$(hostname) \+[0-9]+\.[0-9]-[0-9]+\.[0-9] s" job.svg | sort -u)
[[ $(wc -l <<<"$bands") -eq 5 ]] && grep -q "$(hostname) +0\.0-[01]\.[0-9] s" <<<"$bands" ||
  fail "plot --job: five time bands, the first from +0.0 (found: $(tr '\n' ';' <<<"$bands"))"
out=$("$bin" report --job nosuchjob --machine "$machine" 2>&1)
[[ $? == 1 ]] && grep -q "no samples of job nosuchjob" <<<"$out" || fail "report --job of an unknown job"
echo "ok: samples in the store; report --job and plot --job"

# SIGTERM: the partial interval is stored, exit 0.
ROOFLINE_MONITOR_DIR=$tmp/snap2 ROOFLINE_MONITOR_PERIOD_MS=100 ROOFLINE_JOB_ID=job43 "$prog" 800 200 $n >/dev/null &
pids+=($!)
sleep 0.3
"$bin" monitor --job job43 --counts counts.json --dir "$tmp/snap2" --interval 10 -q --db "$tmp/term.db" &
mon=$!; pids+=($mon)
sleep 2.5
kill -TERM $mon
wait $mon; code=$?
[[ $code == 0 ]] || fail "monitor stopped by SIGTERM: exit $code, expected 0"
out=$("$bin" report --job job43 --machine "$machine" --format json --db "$tmp/term.db" 2>&1) || fail "report after SIGTERM"
jq -e '.samples == 1 and .rows[0].seconds > 1.5 and .rows[0].seconds < 3.5' <<<"$out" >/dev/null ||
  fail "SIGTERM should store one partial sample of about 2.5 s"
echo "ok: SIGTERM stores the partial interval"

# --all-jobs (a node service): two jobs in one directory, each into its own set; a program
# without a job id is skipped with a warning.
for j in job44 job45; do
  ROOFLINE_MONITOR_DIR=$tmp/snap3 ROOFLINE_MONITOR_PERIOD_MS=100 ROOFLINE_JOB_ID=$j "$prog" 400 200 $n >/dev/null &
  pids+=($!)
done
ROOFLINE_MONITOR_DIR=$tmp/snap3 ROOFLINE_MONITOR_PERIOD_MS=100 "$prog" 400 200 $n >/dev/null &
pids+=($!)
sleep 0.3
out=$("$bin" monitor --all-jobs --counts counts.json --dir "$tmp/snap3" --interval 1 --once --db "$tmp/all.db" 2>&1) ||
  fail "monitor --all-jobs"
grep -q "1 sample of job job44 stored" <<<"$out" && grep -q "1 sample of job job45 stored" <<<"$out" ||
  fail "--all-jobs should store a sample of each job"
grep -q "without a job id .* skipped" <<<"$out" || fail "--all-jobs: the program without a job id should be named"
for j in job44 job45; do
  "$bin" report --job $j --machine "$machine" --format json --db "$tmp/all.db" | jq -e '.samples == 1' >/dev/null ||
    fail "report --job $j after --all-jobs"
done
echo "ok: --all-jobs"

# A program that forks while it publishes: the child neither hangs nor publishes the parent's totals.
if command -v cc >/dev/null; then
  cat >forks.c <<'C'
#include <roofline/roofline.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 200; ++i) {
        roofline_begin("work");
        roofline_end("work");
        pid_t c = fork();
        if (c == 0) { roofline_begin("child"); roofline_end("child"); _exit(0); }
        int st; waitpid(c, &st, 0);
        usleep(2000);
    }
    printf("%d\n", (int)getpid());
    return 0;
}
C
  cc -O1 -I"$src/include" -o forks forks.c -L"$build/lib" -lroofline_marker -Wl,-rpath,"$build/lib" || fail "cannot build forks.c"
  parent=$(ROOFLINE_MONITOR_DIR=$tmp/snap4 ROOFLINE_MONITOR_PERIOD_MS=10 ROOFLINE_JOB_ID=j4 timeout 60 ./forks) ||
    fail "a forking program under ROOFLINE_MONITOR_DIR failed or hung"
  [[ $(ls "$tmp/snap4" | grep -c '\.json$') == 1 && -e $tmp/snap4/$parent.json ]] ||
    fail "only the parent should publish: $(ls "$tmp/snap4")"
  echo "ok: a forking program publishes once, the children do not hang"
fi

# Bad input.
expect() {  # expect CODE REGEX ARGS...
  local code=$1 re=$2; shift 2
  out=$("$bin" monitor "$@" 2>&1); local got=$?
  [[ $got == "$code" ]] || fail "monitor $*: exit $got, expected $code"
  grep -qE -e "$re" <<<"$out" || fail "monitor $*: message should match '$re'"
}
expect 2 "--all-jobs samples every job" --job j --all-jobs --counts counts.json --dir "$tmp/snap" --once
expect 2 "no job id" --counts counts.json --dir "$tmp/snap" --once
expect 2 "--dir and --region go with --counts" --job j --dir "$tmp/snap" --once
expect 2 "--interval: must be" --job j --counts counts.json --dir "$tmp/snap" --interval 0
expect 2 "no snapshot directory" --job j --counts counts.json --once
expect 1 "is not a directory" --job j --counts counts.json --dir counts.json --once
expect 1 "no point has a call count" --job j --counts "$src/tests/data/report-points.json" --dir "$tmp/snap" --once
expect 2 "--region 'nope' is not in" --job j --counts counts.json --dir "$tmp/snap" --region nope --once
echo "ok: bad input refused"
