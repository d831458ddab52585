#!/usr/bin/env bash
# roofline remove on a store it cannot write (a read-only file system): says so, with the
# store, removes nothing (exit 1); --dry-run still says what would go, as it only reads.
set -u
bin=$1
source "$(dirname "$0")/lib/scratch_tmpfs.sh"
scratch_tmpfs 4m
for v in $(env | grep -o '^ROOFLINE_[A-Z_]*'); do unset "$v"; done
fail=0
bad() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
db=$tmp/mnt/results.db
"$bin" bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' --db "$db" >"$tmp/out" 2>&1 \
  || { bad "bench could not write the store"; exit 1; }
mount -o remount,ro "$tmp/mnt" || { echo "skip: cannot remount read-only"; exit 77; }
touch "$tmp/mnt/probe" 2>/dev/null && { echo "skip: the mount is still writable"; exit 77; }

"$bin" remove --machine 1 --dry-run --db "$db" >"$tmp/out" 2>&1 || bad "remove --dry-run on a read-only store failed"
grep -q "^would remove machine #1 (host " "$tmp/out" || bad "--dry-run did not say what would go"
"$bin" remove --machine 1 --db "$db" >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] || bad "remove on a read-only store: exit $code, want 1"
grep -qE "^roofline: error: cannot write results database .*/results\.db: .*(not writable|[Rr]ead-only).*; nothing was removed$" "$tmp/out" \
  || bad "remove on a read-only store did not say so"
[[ $(sqlite3 "file:$db?immutable=1" "SELECT count(*) FROM machines") == 1 ]] || bad "the machine is gone"
[[ $fail -eq 0 ]] && echo "ok: remove on a read-only store says so and removes nothing; --dry-run reads it"
exit $fail
