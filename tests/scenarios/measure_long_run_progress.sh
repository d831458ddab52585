#!/usr/bin/env bash
# A run under the Valgrind tool can take minutes (FMA-heavy code runs up to 1000x slower than
# natively: an OpenBLAS DGEMM of 0.25 s took 297 s), and measure said nothing until it ended.
# Now it says the run goes on at 10 s, 30 s, 60 s, then every minute, with what to expect.
# (A sleep of 11 s: the same time natively and under Valgrind, about 23 s in all.)
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
export HOME=$tmp
"$bin" measure --engine instrument --no-store -- sleep 11 >"$tmp/out" 2>&1 ||
  { echo "FAIL: measure exit $?"; cat "$tmp/out"; exit 1; }
grep -q "the run under the Valgrind tool (counts) goes on: 10 s so far (the native run took" "$tmp/out" ||
  { echo "FAIL: no progress line during the counting run"; cat "$tmp/out"; exit 1; }
# Said while the run went on: before the run's own line, which comes once it ended.
progress=$(grep -n "goes on: 10 s so far" "$tmp/out" | head -1 | cut -d: -f1)
ended=$(grep -n "run under the Valgrind tool (counts): " "$tmp/out" | head -1 | cut -d: -f1)
((progress < ended)) || { echo "FAIL: the progress line came after the run's end"; cat "$tmp/out"; exit 1; }
echo "ok: the counting run said it went on at 10 s"
