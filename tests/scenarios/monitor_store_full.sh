#!/usr/bin/env bash
# Issue 33: `roofline monitor` with its store on a file system that fills. Samples that fail
# to commit used to be dropped while the last line said "6 samples ... stored". Now each
# failure is said, the sample goes to the spool file (one JSON line, a points document the
# user can read back), the last line's stored count is what the store holds, and the exit
# status is 1. The store is on a small tmpfs (root; SKIPPED, 77, where it cannot be mounted)
# left with room for about two commits. Counted with a task-clock event file (no PMU needed).
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$(dirname "$0")/lib/scratch_tmpfs.sh"
scratch_tmpfs 1m
full=$tmp/mnt
spin=""
trap '[[ -n $spin ]] && kill $spin 2>/dev/null; umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
unset SLURM_JOB_ID ROOFLINE_MONITOR_DIR ROOFLINE_JOB_ID STATE_DIRECTORY
export ROOFLINE_EVENTS_DIR=$src/tests/data/events-software XDG_STATE_HOME=$tmp/state
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' <<<"$out"; fail=1; }
ROOFLINE_JOB_ID=jf bash -c 'while :; do :; done' &
spin=$!
sleep 0.3
# The store exists; then the disk fills, but for about two commits' room.
if ! out=$("$bin" monitor -q --job jf --once --interval 0.2 --db "$full/r.db" 2>&1); then
  grep -q "no counter opened" <<<"$out" && { echo "SKIPPED: no software counter opens here"; exit 77; }
  check "the first sample failed"
fi
dd if=/dev/zero of="$full/filler" bs=1k >/dev/null 2>&1
truncate -s -48K "$full/filler"
before=$(sqlite3 "$full/r.db" 'select count(*) from point_sets')
out=$("$bin" monitor --job jf --interval 0.2 --duration 1.3 --db "$full/r.db" 2>&1); code=$?
after=$(sqlite3 "$full/r.db" 'select count(*) from point_sets')
stored=$((after - before))
line=$(grep "samples of job jf" <<<"$out" | tail -1)
taken=$(sed -n 's/.* \([0-9]*\) samples of job jf taken: .*/\1/p' <<<"$line")
said_stored=$(sed -n 's/.* taken: \([0-9]*\) stored.*/\1/p' <<<"$line")
unstored=$(sed -n 's/.*, \([0-9]*\) not stored (.*/\1/p' <<<"$line")
spool=$(sed -n 's/.* kept in \(.*\) (one JSON line each)$/\1/p' <<<"$out" | head -1)
[[ $code == 1 ]] || check "exit $code, expected 1"
[[ -n $taken && -n $unstored ]] || check "the last line does not say what was not stored: '$line'"
[[ $said_stored == "$stored" ]] || check "the last line says $said_stored stored; the store gained $stored"
(( ${unstored:-0} >= 1 && ${taken:-0} == stored + ${unstored:-0} )) || check "taken $taken, stored $stored, not stored $unstored"
grep -q "committing failed: database or disk is full" <<<"$line" || check "the last line does not say why"
(( $(grep -c "error: a sample of job jf not stored" <<<"$out") == ${unstored:-0} )) || check "not every failure was said"
if [[ -f $spool ]]; then
  [[ $spool == "$tmp/state/roofline/"* ]] || check "the spool file is not in \$XDG_STATE_HOME/roofline: $spool"
  grep -qF "they are kept in $spool" <<<"$line" || grep -qF "it is kept in $spool" <<<"$line" || check "the last line does not name $spool"
  [[ $(wc -l <"$spool") == "$unstored" ]] || check "the spool file has $(wc -l <"$spool") lines, expected $unstored"
  jq -e 'select(.outcome != "not stored")' "$spool" >/dev/null && check "a spool line is not 'not stored'"
  # Each line holds a points file that reads back.
  head -1 "$spool" | jq '.points' >"$tmp/back.json"
  o=$("$bin" show --points "$tmp/back.json" 2>&1) || { out=$o; check "show --points of a spooled sample"; }
else
  check "no spool file ('$spool')"
fi
[[ $fail == 0 ]] && echo "ok: $taken samples taken, $stored stored, $unstored not stored and kept in the spool file; exit 1"
exit $fail
