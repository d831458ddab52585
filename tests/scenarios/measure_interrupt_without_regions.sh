#!/usr/bin/env bash
# A measured program interrupted (SIGINT, as Ctrl-C sends) is told what its run lost: a program
# that loads no marker library lost the rest of its run, not region timings (an audit's loop
# without regions, interrupted after 2.7 s, was told 'region timings were not written'); one that
# loads the library (here by LD_PRELOAD) is told its regions' timings were not written.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
command -v ldd >/dev/null || { echo "SKIPPED: ldd is not installed"; exit 77; }
tag=$((RANDOM % 900 + 100))
wait_for() { for _ in $(seq 1 100); do pgrep -f "$1" >/dev/null && return 0; sleep 0.1; done; return 1; }
sleep_bin=$(command -v sleep)
ldd "$sleep_bin" >/dev/null 2>&1 || { echo "SKIPPED: $sleep_bin is not a dynamic program"; exit 77; }

# 1. No marker library: the message speaks of the part that ran, not of regions.
"$bin" measure --engine time --no-store -- "$sleep_bin" 63.$tag </dev/null >"$tmp/out" 2>&1 &
pid=$!; pids+=("$pid")
wait_for "^$sleep_bin 63.$tag" || fail "the child did not start"
sleep 0.5
kill -INT "$pid"
wait "$pid"; code=$?
[[ $code == 130 ]] || fail "exit $code, expected 130"
grep -q "the command did not finish: its time, [0-9.]* s, is that of the part that ran before it stopped, not of a whole run" \
  "$tmp/out" || fail "the lost part of the run is not said"
grep -qiE "region timings|regions were|marker regions" "$tmp/out" && fail "a program without marker regions is told of regions"
echo "ok: an interrupted program without the marker library is told it lost the rest of its run"

# 2. The marker library loaded (LD_PRELOAD): its regions' timings were lost, and that is said.
# LD_PRELOAD reaches roofline itself too: an AddressSanitizer build refuses to start with another
# library loaded before its runtime ("ASan runtime does not come first"), so that build skips it.
lib=$(dirname "$bin")/lib/libroofline_marker.so
if [[ -n ${ROOFLINE_SANITIZED:-} ]] || ldd "$bin" 2>/dev/null | grep -q 'libasan'; then
  echo "note: a sanitizer build of roofline cannot run with LD_PRELOAD: the marker library's case is not run"
elif [[ -e $lib ]]; then
  LD_PRELOAD=$lib "$bin" measure --engine time --no-store -- "$sleep_bin" 64.$tag </dev/null >"$tmp/out" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_for "^$sleep_bin 64.$tag" || fail "the child did not start"
  sleep 0.5
  kill -INT "$pid"
  wait "$pid"; code=$?
  [[ $code == 130 ]] || fail "exit $code, expected 130"
  grep -q "the timings of its marker regions were not written" "$tmp/out" || fail "the lost regions are not said"
  echo "ok: an interrupted program that loads the marker library is told its regions' timings were not written"
else
  echo "note: the marker library (target roofline_marker) is not built: its case is not run"
fi
