#!/usr/bin/env bash
# What `roofline monitor` costs the job it watches (issue 14: at most 1%). Runs
# examples/programs/steady_flops unpaced (its run time is its work) in three ways,
# interleaved ROUNDS times: plain (markers off), and publishing snapshots
# (ROOFLINE_MONITOR_DIR, every 1 s) while `roofline monitor` samples them every 1 s and
# every 10 s (the default). Prints each way's median and fastest run time and their ratios
# to plain: on a shared machine the runs spread by more than the overhead, and the fastest
# run is the one least disturbed by others. Also the program's own CPU time (its snapshot
# thread's included) and the monitor process's CPU time as a share of the time it ran.
# A fourth way: `roofline monitor` without --counts, counting the program's threads with the
# event file for this CPU (a PMU needed), or with any event files in ROOFLINE_EVENTS_DIR (e.g.
# tests/data/events-software, the task clock: the per-thread counting's cost without a PMU).
# Usage: bench/monitor-overhead.sh [build-dir] [rounds] [calls] [n]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
rounds=${2:-15}
calls=${3:-30000}
n=${4:-100000}
prog=$build/examples/programs/steady_flops
bin=$build/roofline
[[ -x $prog && -x $bin ]] || { echo "missing $prog or $bin: build the project first" >&2; exit 2; }
tmp=$(mktemp -d)
mon=""
trap '[[ -n $mon ]] && kill $mon 2>/dev/null; rm -rf "$tmp"' EXIT

"$bin" measure --engine instrument --no-store -q -o "$tmp/counts.json" -- "$prog" 10 0 "$n" >/dev/null 2>&1

# Each run appends "wall cpu" of the program to FILE.
run_plain() { env -u ROOFLINE_MONITOR_DIR -u ROOFLINE_MARKER_OUT "$prog" "$calls" 0 "$n" | awk '{print $6, $NF}'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # user + system CPU time, in clock ticks
run_monitored() {  # INTERVAL
  local dir=$tmp/snap.$1
  mkdir -p "$dir"
  # As the shipped unit and job script run it: without OpenBLAS's spinning thread pool (bench's, unused here).
  OPENBLAS_NUM_THREADS=1 "$bin" monitor --job bench --counts "$tmp/counts.json" --dir "$dir" --interval "$1" -q --db "$tmp/m.db" &
  mon=$!
  local t0 t1 used
  t0=$(date +%s.%N)
  ROOFLINE_MONITOR_DIR=$dir ROOFLINE_JOB_ID=bench "$prog" "$calls" 0 "$n" | awk '{print $6, $NF}'
  used=$(ticks $mon); t1=$(date +%s.%N)
  echo "$used $t0 $t1" >>"$tmp/monitor-cpu.$1"
  kill -TERM $mon; wait $mon || true
  mon=""
}
run_counted() {  # the program's threads counted, monitor --interval 1; "-" when no counter opened
  OPENBLAS_NUM_THREADS=1 "$bin" monitor --job benchc --interval 1 -q --db "$tmp/c.db" 2>>"$tmp/counted.err" &
  mon=$!
  local line
  line=$(ROOFLINE_JOB_ID=benchc "$prog" "$calls" 0 "$n" | awk '{print $6, $NF}')
  if kill -0 $mon 2>/dev/null; then echo "$line"; kill -TERM $mon; wait $mon || true; else wait $mon || true; fi
  mon=""
}
median() { awk '{print $1}' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
fastest() { awk '{print $1}' | sort -g | head -1; }
cpu_median() { awk '{print $2}' | median; }

: >"$tmp/plain"; : >"$tmp/m1"; : >"$tmp/m10"; : >"$tmp/counted"; : >"$tmp/monitor-cpu.1"; : >"$tmp/monitor-cpu.10"
for ((r = 1; r <= rounds; ++r)); do
  run_plain >>"$tmp/plain"
  run_monitored 1 >>"$tmp/m1"
  run_monitored 10 >>"$tmp/m10"
  run_counted >>"$tmp/counted"
done
echo "steady_flops $calls calls of 2*$n FLOPs, $rounds interleaved rounds"
printf '%-40s %9s %9s %16s %16s %9s %16s\n' "" "median" "fastest" "median ratio" "fastest ratio" "cpu" "cpu ratio"
p_med=$(median <"$tmp/plain"); p_min=$(fastest <"$tmp/plain"); p_cpu=$(cpu_median <"$tmp/plain")
row() {  # LABEL FILE
  local med min cpu
  med=$(median <"$2"); min=$(fastest <"$2"); cpu=$(cpu_median <"$2")
  awk -v l="$1" -v m="$med" -v f="$min" -v c="$cpu" -v pm="$p_med" -v pf="$p_min" -v pc="$p_cpu" 'BEGIN {
    printf "%-40s %8.4fs %8.4fs %8.4f (%+.2f%%) %8.4f (%+.2f%%) %8.4fs %8.4f (%+.2f%%)\n", l, m, f, m / pm, (m / pm - 1) * 100,
      f / pf, (f / pf - 1) * 100, c, c / pc, (c / pc - 1) * 100 }'
}
row "plain (markers off)" "$tmp/plain"
row "snapshots 1 s + monitor --interval 1" "$tmp/m1"
row "snapshots 1 s + monitor --interval 10" "$tmp/m10"
if [[ -s $tmp/counted ]]; then
  row "counters on its threads, --interval 1" "$tmp/counted"
else
  echo "counters on its threads: not measured, no counter opened: $(head -1 "$tmp/counted.err")"
fi
hz=$(getconf CLK_TCK)
for i in 1 10; do
  awk -v hz="$hz" -v i="$i" '{ cpu += $1 / hz; wall += $3 - $2 } END {
    printf "monitor --interval %-3s process: %.3f s CPU over %.1f s of runs (%.2f%% of one CPU, start-up included)\n", i, cpu, wall, cpu / wall * 100 }' "$tmp/monitor-cpu.$i"
done
echo "runs (s): plain $(tr '\n' ' ' <"$tmp/plain")| m1 $(tr '\n' ' ' <"$tmp/m1")| m10 $(tr '\n' ' ' <"$tmp/m10")"
