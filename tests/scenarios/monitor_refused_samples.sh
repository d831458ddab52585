#!/usr/bin/env bash
# Issue 33: `roofline monitor` says what it kept. An event formula that gives negative values
# or NaN (x / 0) makes a sample the store refuses: the last line used to say "1 sample ...
# stored" while the store was empty, and the sample was gone. Now: the refusal is said, the
# sample is appended as one JSON line to a spool file whose path is printed, the last line
# says "0 stored, 1 refused", and the exit status is 1. When the spool file cannot be
# written where it should, it goes to $TMPDIR; when not even there, the sample is printed on
# stderr and the last line says it is lost. Counted with a task-clock event file (no PMU
# needed). SKIPPED (77) without jq.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
tmp=$(mktemp -d)
spin=""
trap '[[ -n $spin ]] && kill $spin 2>/dev/null; rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID ROOFLINE_MONITOR_DIR ROOFLINE_JOB_ID STATE_DIRECTORY
fail=0
out=""
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
events() {  # NAME FORMULA: an event file directory whose FLOPs are FORMULA of the task clock
  mkdir -p "$tmp/$1"
  sed "s|^metric flops = clock|metric flops = $2|; s|^name software_clock|name $1|" \
    "$src/tests/data/events-software/software_clock.txt" >"$tmp/$1/$1.txt"
}
events negative "0 - clock"
events nan "(clock - clock) / (clock - clock)"
events good "clock"
ROOFLINE_JOB_ID=jr bash -c 'while :; do :; done' &
spin=$!
sleep 0.3
monitor() {  # EVENTS DB [ENV...]: one sample of job jr
  local ev=$1 db=$2; shift 2
  out=$(env "$@" ROOFLINE_EVENTS_DIR="$tmp/$ev" "$bin" monitor --job jr --once --interval 0.3 --db "$db" 2>&1)
  code=$?
}
spool_of() { sed -n 's/.* kept in \(.*\) (one JSON line each)$/\1/p' <<<"$out" | head -1; }

# Software counters are needed (perf_event_open of the task clock): without them, skipped.
monitor good "$tmp/gate.db" XDG_STATE_HOME="$tmp/state-gate" TMPDIR="$tmp"
if [[ $code != 0 ]] && grep -q "no counter opened" <<<"$out"; then
  echo "SKIPPED: no software counter opens here: $(grep -m1 'no counter opened' <<<"$out")"; exit 77
fi

for ev in negative nan; do
  monitor $ev "$tmp/$ev.db" XDG_STATE_HOME="$tmp/state-$ev" TMPDIR="$tmp"
  [[ $code == 1 ]] || check "$ev formula: exit $code, expected 1"
  grep -q "error: a sample of job jr refused: the sample: /points/0/flops" <<<"$out" || check "$ev formula: the refusal is not said"
  grep -q "1 sample of job jr taken: 0 stored, 1 refused (" <<<"$out" || check "$ev formula: the last line does not say 0 stored, 1 refused"
  grep -q "1 sample of job jr stored" <<<"$out" && check "$ev formula: the last line still says stored"
  spool=$(spool_of)
  [[ $spool == "$tmp/state-$ev/roofline/monitor-"*.jsonl ]] || check "$ev formula: the spool file is not in \$XDG_STATE_HOME/roofline ('$spool')"
  grep -qF "it is kept in $spool" <<<"$out" || check "$ev formula: the last line does not name the spool file"
  if [[ -f $spool ]]; then
    [[ $(wc -l <"$spool") == 1 ]] || check "$ev formula: the spool file should have 1 line"
    jq -e '.schema == "roofline.monitor-spool/1" and .outcome == "refused" and .job == "jr" and
           (.set | startswith("job jr ")) and (.points.points | length) == 1 and .points.points[0].source == "monitor"' \
      "$spool" >/dev/null || check "$ev formula: the spool line: $(head -c 400 "$spool")"
    [[ $(stat -c %a "$spool") == 600 ]] || check "$ev formula: the spool file is not private (mode $(stat -c %a "$spool"))"
  else
    check "$ev formula: no spool file"
  fi
  "$bin" list --db "$tmp/$ev.db" 2>&1 | grep -q "job jr" && check "$ev formula: the refused sample is in the store"
done

# The state directory cannot be made (under a regular file): the spool goes to $TMPDIR.
touch "$tmp/afile"
mkdir "$tmp/t"
monitor negative "$tmp/f.db" XDG_STATE_HOME="$tmp/afile/state" TMPDIR="$tmp/t"
spool=$(spool_of)
[[ $code == 1 && $spool == "$tmp/t/monitor-"*.jsonl && -s $spool ]] || check "an unusable state directory: the spool should fall back to \$TMPDIR ('$spool')"

# Nowhere to write: the sample is printed, and the last line says it is lost.
monitor negative "$tmp/g.db" XDG_STATE_HOME="$tmp/afile/state" TMPDIR="$tmp/afile/t"
[[ $code == 1 ]] || check "nowhere to spool: exit $code, expected 1"
grep -q "no spool file could be written .*; the sample: {" <<<"$out" || check "nowhere to spool: the sample is not printed"
grep -q "0 stored, 1 refused (.*); it is lost" <<<"$out" || check "nowhere to spool: the last line does not say it is lost"

# Everything stored: exit 0, the usual line, no spool file.
monitor good "$tmp/ok.db" XDG_STATE_HOME="$tmp/state-ok" TMPDIR="$tmp/t2"
[[ $code == 0 ]] && grep -q "1 sample of job jr stored in " <<<"$out" || check "a good sample: exit $code, or the last line"
[[ -e $tmp/state-ok ]] && check "a good sample: a spool directory was made"

[[ $fail == 0 ]] && echo "ok: refused samples are said, spooled and counted; exit 1"
exit $fail
