#!/usr/bin/env bash
# A results store on a full disk: SQLite cannot create the -wal and -shm files it needs even to
# read, and says only "disk I/O error". Reading and writing fail with exit 1 and a message that
# names the full file system; the store is intact once space is freed. Needs a small tmpfs
# (mount as root); elsewhere it is skipped.
set -u
bin=$1
mnt=$(mktemp -d)
tmp=$(mktemp -d)
cleanup() { umount "$mnt" 2>/dev/null; rmdir "$mnt"; rm -rf "$tmp"; }
trap cleanup EXIT
mount -t tmpfs -o size=512k tmpfs "$mnt" 2>/dev/null || { echo "skip: cannot mount a tmpfs here"; exit 77; }
fail() { echo "FAIL: $*"; sed 's/^/  | /' "$tmp/err"; exit 1; }

"$bin" kernels stream_triad --sizes 4K --db "$mnt/s.db" -q >"$tmp/out" 2>"$tmp/err" || fail "kernels into the store"
dd if=/dev/zero of="$mnt/fill" bs=4k >/dev/null 2>&1  # until the disk is full
for args in "list" "kernels stream_triad --sizes 8K -q"; do
  # shellcheck disable=SC2086
  "$bin" $args --db "$mnt/s.db" >"$tmp/out" 2>"$tmp/err"
  code=$?
  [[ $code -eq 1 ]] || fail "'$args' on a full disk: exit $code, expected 1"
  grep -q "bytes free: SQLite cannot write its journal files" "$tmp/err" || fail "'$args' did not name the full disk"
done
rm -f "$mnt/fill"
"$bin" list --db "$mnt/s.db" >"$tmp/out" 2>"$tmp/err" || fail "list once space is freed"
grep -q "Point sets (1" "$tmp/out" || fail "the point set stored before the disk filled is gone: $(cat "$tmp/out")"
echo "ok: a full disk is named, exit 1, and the store is intact once space is freed"
