#!/usr/bin/env bash
# bench on a full disk (issue 10): every destination (-o, the chart, the store)
# is tried, every failure is reported, the exit is non-zero, and the measured
# model is never lost (the store has it, or a fallback file does).
set -u
bin=$1
source "$(dirname "$0")/lib/scratch_tmpfs.sh"
scratch_tmpfs 64k
full=$tmp/mnt
dd if=/dev/zero of="$full/filler" bs=4k >/dev/null 2>&1  # until ENOSPC
# One page free again: a disk full from the start is refused before the run (issue 33,
# scenario.outputs_unwritable_before_run); this one has room for the pre-flight's probe
# block and fills up with the run's outputs, as a disk that fills during the run does.
truncate -s -4096 "$full/filler"
fail=0
bench=(bench --only compute --precision dp --threads 1 --time-budget 1 -q)
check() {  # MESSAGE: a failed expectation, with the run's stderr
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/err"; fail=1
}

# -o on the full disk: the chart and the store still get written; the user is told the store has it.
"$bin" "${bench[@]}" -o "$full/m.json" --svg "$tmp/a.svg" --db "$tmp/a.db" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code -ne 0 ]] || check "-o on a full disk exited 0"
grep -q "$full/m.json" "$tmp/err" || check "-o failure does not name the file"
[[ -s $tmp/a.svg ]] || check "the chart was skipped after -o failed"
rows=$(sqlite3 "$tmp/a.db" 'select count(*) from machines' 2>/dev/null)
[[ $rows == 1 ]] || check "the store has $rows rows after -o failed, expected 1"
grep -q "results store has it" "$tmp/err" || check "the user is not told the store has the model"

# -o on the full disk and no store: a fallback file holds the model.
(cd "$full" && TMPDIR=$tmp "$bin" "${bench[@]}" -o "$full/m.json" --svg '' --no-store >"$tmp/out" 2>"$tmp/err"); code=$?
[[ $code -ne 0 ]] || check "-o on a full disk with --no-store exited 0"
fallback=$(sed -n 's/.*it was written to \(.*\) instead$/\1/p' "$tmp/err")
if [[ -z $fallback || ! -s $fallback ]] || ! grep -q '"roofline.machine/1"' "$fallback"; then
  check "no fallback model file (got '$fallback')"
fi

# The chart on the full disk: the model and the store are written, the failure reported.
"$bin" "${bench[@]}" -o "$tmp/c.json" --svg "$full/c.svg" --db "$tmp/c.db" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code -ne 0 ]] || check "--svg on a full disk exited 0"
grep -q "$full/c.svg" "$tmp/err" || check "the chart failure does not name the file"
[[ -s $tmp/c.json ]] || check "the model was not written when only the chart failed"
rows=$(sqlite3 "$tmp/c.db" 'select count(*) from machines' 2>/dev/null)
[[ $rows == 1 ]] || check "the store has $rows rows after the chart failed, expected 1"

# A store that cannot be created on the full disk is not left behind empty (third hostile sweep).
"$bin" measure --engine time -q --db "$full/new.db" -- true >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code -ne 0 ]] || check "a store on a full disk: measure exited 0"
[[ -e $full/new.db ]] && check "an empty $full/new.db was left behind"

[[ $fail -eq 0 ]] && echo "ok: a full disk costs only what it holds; every failure is reported"
exit $fail
