#!/usr/bin/env bash
# A monitored sample is labelled with one time wherever it is shown: the monitor's own line and
# report --job give every sample, the last partial one too, the same label (the monitor counted
# from its start and rounded to whole seconds, the report from the first sample's start: +4 s
# against +3 s), and a sub-second interval gives every sample a label of its own (was
# "+0 s +0 s +1 s +1 s"), and plot --job's time bands span two such labels (they were whole
# seconds). Snapshots are written by hand for a live process of this script.
set -u
bin=$1
tmp=$(mktemp -d)
sleeper= writer=
trap '[[ -n $writer ]] && kill $writer 2>/dev/null; [[ -n $sleeper ]] && kill $sleeper 2>/dev/null; rm -rf "$tmp"' EXIT
src=$(cd "$(dirname "$0")/../.." && pwd)
export ROOFLINE_DB=$tmp/r.db
unset SLURM_JOB_ID ROOFLINE_MONITOR_DIR ROOFLINE_JOB_ID
mkdir "$tmp/snap"
cat >"$tmp/counts.json" <<'JSON'
{"schema":"roofline.points/1","points":[{"name":"step","flops":2000,"bytes":{"L1":8000},"seconds":0.001,
 "threads":1,"source":"instrument","details":{"calls":1}}]}
JSON
sleep 60 & sleeper=$!
# The library's snapshots: its totals every 50 ms, written whole and renamed over the file.
(
  i=0
  while :; do
    i=$((i + 1))
    printf '{"schema":"roofline.monitor/1","pid":%d,"job":"lab","start_ns":1,"time_ns":%d,"period_ms":50,"finished":false,"regions":[{"name":"step","calls":%d,"seconds":%s,"threads":1,"nested":false}]}\n' \
      "$sleeper" $((i * 50000000)) $((i * 10)) "$(awk "BEGIN{print $i * 0.04}")" >"$tmp/snap/.s.tmp"
    mv "$tmp/snap/.s.tmp" "$tmp/snap/$sleeper.json"
    sleep 0.05
  done
) & writer=$!
sleep 0.3
fail=0
for interval in 0.25 1; do
  rm -f "$tmp/r.db"
  duration=$(awk "BEGIN{print $interval * 3.5}")  # three whole intervals and a partial one
  "$bin" monitor --job lab --counts "$tmp/counts.json" --dir "$tmp/snap" --interval $interval --duration "$duration" \
    2>"$tmp/monitor" || { echo "FAIL: monitor --interval $interval exited $?"; cat "$tmp/monitor"; exit 1; }
  sed -n 's/^roofline monitor: \(+[0-9.]* s\) .*/\1/p' "$tmp/monitor" >"$tmp/m.labels"
  "$bin" report --job lab --machine "$src/tests/data/report-machine.json" >"$tmp/report" 2>&1 ||
    { echo "FAIL: report --job exited $?"; cat "$tmp/report"; exit 1; }
  grep -o '^ *+[0-9.]* s' "$tmp/report" | sed 's/^ *//' >"$tmp/r.labels"
  # plot --job's time bands: their ends written as the samples' labels (they were whole seconds:
  # at 0.25 s "+0-0 s", "+0-1 s"), as many bands as samples here, each its own.
  "$bin" plot --job lab --machine "$src/tests/data/report-machine.json" --format gnuplot -o "$tmp/job.gp" \
    >"$tmp/plot" 2>&1 || { echo "FAIL: plot --job exited $?"; cat "$tmp/plot"; exit 1; }
  decimals=$(sed -n '1s/^+[0-9]*\.\{0,1\}\([0-9]*\) s$/\1/p' "$tmp/r.labels" | tr -d '\n' | wc -c)
  number="[0-9]+$( ((decimals > 0)) && printf '\\.[0-9]{%d}' "$decimals")"
  # The series' titles: 'series NODE +FROM-TO s'.
  sed -n "s/.* title 'series [^ ']* \(+[^']*\)'.*/\1/p" "$tmp/job.gp" | sort -u >"$tmp/bands"
  if [[ $(wc -l <"$tmp/bands") -lt 4 ]] || grep -Evq "^\+$number-$number s$" "$tmp/bands"; then
    echo "FAIL: --interval $interval: plot --job's bands ($(tr '\n' ' ' <"$tmp/bands")) are not written as the" \
         "samples' labels ($(tr '\n' ' ' <"$tmp/r.labels")) are, or are too few"
    fail=1
  fi
  echo "--interval $interval: $(tr "\n" " " <"$tmp/m.labels"); bands: $(tr "\n" " " <"$tmp/bands")"
  if [[ $(wc -l <"$tmp/m.labels") -lt 4 ]] || ! cmp -s "$tmp/m.labels" "$tmp/r.labels" ||
     [[ -n $(sort "$tmp/m.labels" | uniq -d) ]]; then
    echo "FAIL: --interval $interval: the monitor's labels ($(tr '\n' ' ' <"$tmp/m.labels")) and report --job's" \
         "($(tr '\n' ' ' <"$tmp/r.labels")) differ, repeat, or are too few"
    fail=1
  fi
done
[[ $fail -eq 0 ]] && echo "ok: monitor and report --job label each sample alike, one label a sample; plot --job's bands alike"
exit $fail
