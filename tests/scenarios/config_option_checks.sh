#!/usr/bin/env bash
# Every option whose value has a range or a form of its own is checked where the value is parsed
# (its CLI11 check), not by the command when it runs: so a bad value set in the environment (or a
# file) is marked INVALID by 'config show', which exits 2, and every other command stops on it
# (exit 2) as the docs say, instead of 'config show' calling it valid and a command refusing it
# later (monitor.interval 0.01), or no command noticing (bench.time-budget -1 under 'list').
# One row per option with such a check: KEY and a value it refuses.
set -u
bin=$1
# shellcheck source=tests/scenarios/lib/isolated_config.sh
source "$(dirname "$0")/lib/isolated_config.sh"

variable() { local v=${1^^}; v=${v//./_}; echo "ROOFLINE_${v//-/_}"; }

while read -r key value; do
  [[ -z $key || $key == \#* ]] && continue
  var=$(variable "$key")
  env "$var=$value" timeout 60 "$bin" config show "$key" >"$tmp/out" 2>"$tmp/err"; code=$?
  if [[ $code -ne 2 ]] || ! grep -Eq "^$key +[^ ]+ +$var +INVALID$" "$tmp/out"; then
    echo "FAIL: $var=$value: config show $key exit $code (want 2 and INVALID):"
    sed 's/^/  | /' "$tmp/out" "$tmp/err"; fail=1
  fi
done <<'ROWS'
# bench
bench.only disk
bench.precision quad
bench.threads 0
bench.threads 2,0
bench.threads four
bench.time-budget -1
bench.time-budget inf
bench.time-budget 604801
bench.working-set lots
bench.dram-size 0kB
bench.pattern gather
bench.kernel nosuch
bench.isa mmx
bench.gpu -1
bench.sick-threshold 150
bench.rank-wait 0
bench.format xml
# kernels
kernels.samples 0
kernels.threads 0
kernels.sizes bogus
kernels.stat mean
kernels.cache hot
kernels.param m=12
kernels.param q=1
kernels.param m
kernels.param m=8,x
# monitor
monitor.interval 0.01
monitor.interval 100000
monitor.duration 0
monitor.duration -5
# plot, report, model, compare: the judging options they share
plot.width 5
plot.height 0
plot.intensity-line -1
plot.gpu x
plot.threads 0
plot.format png
plot.view roof
plot.machine stored:x
plot.points stored:0
report.gpu -1:fp64
report.threads two
report.precision qp
report.machine stored:x
report.points stored:-2
report.format xml
model.peak -1
model.bw inf
model.intensity 0
model.unit 9x
model.threads 0
model.machine stored:x
compare.chart chart.png
compare.threads 0
compare.machine stored:x
compare.view roof
# measure
measure.engine magic
measure.cache-sim maybe
measure.min-share 101
measure.region-scope node
measure.max-timed-calls -1
measure.sample-period 1
measure.rank-wait -1
measure.repeat 0
measure.warmup -1
measure.machine stored:x
measure.times /nonexistent/times.json
measure.cache-model stored:x
# the others
history.last -3
history.format xml
list.format xml
show.format xml
topology.format xml
ROWS

# Every other command stops on such a setting, naming where it came from.
expect_stop() {  # VAR=VALUE ARGS...
  local assignment=$1; shift
  env "$assignment" timeout 60 "$bin" "$@" >"$tmp/out" 2>&1; local code=$?
  if [[ $code -ne 2 ]] || ! grep -q "^roofline: error: ${assignment%%=*}: " "$tmp/out"; then
    echo "FAIL: $assignment roofline $*: exit $code (want 2 naming ${assignment%%=*}):"; sed 's/^/  | /' "$tmp/out"; fail=1
  fi
}
expect_stop ROOFLINE_BENCH_TIME_BUDGET=-1 list
expect_stop ROOFLINE_BENCH_TIME_BUDGET=-1 bench --help
expect_stop ROOFLINE_MONITOR_INTERVAL=0.01 monitor --job zz --once
expect_stop ROOFLINE_BENCH_THREADS=0 topology
# The message is the option's own, after CLI11's "--OPTION: ".
ROOFLINE_MONITOR_INTERVAL=0.01 "$bin" config show monitor.interval --format json >"$tmp/show.json" 2>/dev/null
python3 - "$tmp/show.json" <<'PY' || { echo "FAIL: config show --format json calls monitor.interval 0.01 valid"; fail=1; }
import json, sys
s = json.load(open(sys.argv[1]))["settings"][0]
assert not s["valid"] and "--interval: must be 0.1 to 86400 seconds (got 0.01)" in s["problem"], s
PY

[[ $fail -eq 0 ]] && echo "ok: every checked option's bad configured value is INVALID in config show and stops commands"
exit $fail
