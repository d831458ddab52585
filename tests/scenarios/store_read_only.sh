#!/usr/bin/env bash
# Readers of the results store (issue 10): list, show, report and plot read a
# store on a read-only file system, never wait long behind a writer, and say
# clearly when there is no store or it is not one.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/lib/scratch_tmpfs.sh"
scratch_tmpfs 4m
ro=$tmp/mnt
fail=0
check() {  # MESSAGE: a failed expectation, with the command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
db=$ro/results.db
"$bin" bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' --db "$db" >"$tmp/out" 2>&1 \
  || { check "bench could not write the store"; exit 1; }
mount -o remount,ro "$ro" || { echo "skip: cannot remount read-only"; exit 77; }
touch "$ro/probe" 2>/dev/null && { echo "skip: the mount is still writable"; exit 77; }

for args in "list" "show" "show stored:1 --format json" \
            "report --machine stored --points $src/tests/data/report-points.json" \
            "plot --machine stored --points $src/tests/data/report-points.json -o $tmp/chart.svg"; do
  # shellcheck disable=SC2086
  "$bin" $args --db "$db" >"$tmp/out" 2>&1 || check "'$args' on a read-only store failed"
done
[[ -s $tmp/chart.svg ]] || check "plot from a read-only store wrote no chart"

# A user who may read the store but not write its directory (no -shm can be made beside it):
# readers still read it. As root this runs as nobody; otherwise as ourselves.
if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
  mkdir -p "$tmp/shared" && cp "$db" "$tmp/shared/results.db" && rm -f "$tmp/shared/results.db-"*
  chmod 555 "$tmp/shared"; chmod 444 "$tmp/shared/results.db"; chmod o+x "$tmp"
  for args in "list" "show stored:1" "report --machine stored --points $src/tests/data/report-points.json"; do
    # shellcheck disable=SC2086
    setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" $args --db "$tmp/shared/results.db" >"$tmp/out" 2>&1 ||
      check "'$args' by a user who cannot write the store's directory failed"
  done
  chmod 755 "$tmp/shared"
fi

# A store that does not exist is named as such, and is not created.
"$bin" show --db "$tmp/none.db" >"$tmp/out" 2>&1 && check "show with no store exited 0"
grep -q "no results store at $tmp/none.db" "$tmp/out" || check "missing store not named"
[[ -e $tmp/none.db ]] && check "a reader created the missing store"

# Corrupt files: a clear message, a non-zero exit, no crash.
head -c 8192 /dev/urandom >"$tmp/random.db"
echo "not a database" >"$tmp/text.db"
for f in random text; do
  "$bin" list --db "$tmp/$f.db" >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 1 ]] || check "list on a $f file: exit $code, expected 1"
  grep -q "not a roofline results store or is damaged" "$tmp/out" || check "list on a $f file: unclear message"
done

# A writer holding the lock of a store that is not in WAL mode: the reader
# gives up within seconds and says why, instead of waiting a minute.
cp "$db" "$tmp/locked.db"
sqlite3 "$tmp/locked.db" 'PRAGMA journal_mode=DELETE;' >/dev/null
{ echo 'BEGIN EXCLUSIVE;'; sleep 8; echo 'ROLLBACK;'; } | sqlite3 "$tmp/locked.db" & holder=$!
sleep 1
start=$(date +%s)
"$bin" list --db "$tmp/locked.db" >"$tmp/out" 2>&1; code=$?
elapsed=$(( $(date +%s) - start ))
wait $holder
[[ $code -ne 0 && $elapsed -le 6 ]] || check "reader behind a writer: exit $code after ${elapsed}s"
grep -q "is locked by another process" "$tmp/out" || check "reader behind a writer: unclear message"

[[ $fail -eq 0 ]] && echo "ok: readers work read-only, fail fast and clearly"
exit $fail
