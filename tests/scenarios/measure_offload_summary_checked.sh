#!/usr/bin/env bash
# measure --ncu-csv --offload-summary with summaries that cannot be true and outside text
# (issue 33). Before: 1.8e21 B/s over the bus became a point (plotted against a 52 GB/s bus
# roof without a flag); a span of 0 with kernels and copies was reported as "nothing was
# offloaded"; an earlier run's summary said "the program's wall time 0 s"; the summary's
# note and ncu's kernel names reached the terminal raw (an OSC sequence retitled it).
# No GPU needed: tests/data/ncu-details.csv and hand-written summaries.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
fixture=$here/../data/ncu-details.csv
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out"; exit 1; }

summary() {  # FILE H2D_BYTES H2D_BUSY_NS FIRST_NS LAST_NS NOTE
  python3 - "$@" <<'PY'
import json, sys
out, h2d, busy, first, last, note = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
z = {"bytes": 0, "operations": 0, "busy_ns": 0}
json.dump({"schema": "roofline.offload/1", "pid": 1,
           "copies": {"host_to_device": {"bytes": h2d, "operations": 1, "busy_ns": busy}, "device_to_host": z,
                      "device_to_device": z, "host_to_host": z, "peer_to_peer": z, "unknown": z},
           "migrations": {"host_to_device": z, "device_to_host": z},
           "kernels": {"bytes": 0, "operations": 3, "busy_ns": 1000},
           "first_ns": first, "last_ns": last, "dropped_records": 0, "note": note}, open(out, "w"))
PY
}

# 1.8 TB in 1 ns: refused with the reason, no whole-offload point; the kernels' points are kept.
summary "$tmp/absurd.json" 1800000000000 1 1000 1001 ""
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/absurd.json" -o "$tmp/absurd-points.json" --no-store \
  >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] || fail "an impossible bus rate: exit $code, expected 1"
grep -q "no whole-offload point: the offload summary cannot be true: " "$tmp/out" || fail "the summary is not refused"
grep -q "copies host to device: 1800000000000 bytes in 1e-09 s of transfers" "$tmp/out" ||
  fail "the impossible rate is not the reason given"
grep -q "faster than any host-device link" "$tmp/out" || fail "the link is not named"
python3 -c 'import json,sys; pts=json.load(open(sys.argv[1]))["points"]; assert pts and all(p["name"] != "whole offload" for p in pts), pts' \
  "$tmp/absurd-points.json" || fail "the impossible point was kept, or the kernels' points were not"
echo "ok: an impossible bus rate is refused"

# A span of 0 with kernels and a copy: a damaged summary, not "nothing was offloaded".
summary "$tmp/zero.json" 1000000 1000 5000 5000 ""
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/zero.json" --no-store >"$tmp/out" 2>&1; code=$?
[[ $code == 1 ]] || fail "a zero span: exit $code, expected 1"
grep -q "its span is 0 s (first_ns 5000, last_ns 5000) though it records 3 kernel launch(es) and 1 copies or migrations: a damaged summary" \
  "$tmp/out" || fail "the zero span is not called a damaged summary"
grep -q "nothing was offloaded" "$tmp/out" && fail "a zero span with kernels said 'nothing was offloaded'"
echo "ok: a zero span with kernels is a damaged summary"

# An earlier run's summary: the wall time is unknown, not 0 s; the note and the kernel names escaped.
summary "$tmp/note.json" 1000000 100000 1000 2000000 $'evil\e]0;pwn\a'
sed 's/"daxpy(int/"\x1b]0;pwn\x07daxpy(int/' "$fixture" >"$tmp/hostile.csv"
"$bin" measure --ncu-csv "$tmp/hostile.csv" --offload-summary "$tmp/note.json" --no-store >"$tmp/out" 2>&1 ||
  fail "a plausible summary refused"
grep -q "the program's wall time unknown" "$tmp/out" || fail "an unknown wall time is not said as unknown"
grep -q "wall time 0 s" "$tmp/out" && fail "an unknown wall time printed as 0 s"
if grep -q $'\e' "$tmp/out"; then fail "an escape byte from the note or a kernel name reached the terminal"; fi
grep -qF 'CUPTI: evil\x1b]0;pwn\x07' "$tmp/out" || fail "the note is not shown escaped"
grep -qF '\x1b]0;pwn\x07daxpy' "$tmp/out" || fail "the kernel name is not shown escaped"
# One process's summary given twice (the same file, or a copy under another name): refused, not
# added twice (TI would be halved: 148 instead of 296 FLOP per bus byte).
summary "$tmp/one.json" 1048576 100000 1000 2000000 ""
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/one.json" "$tmp/./one.json" --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || fail "the same summary twice: exit $code, expected 2"
grep -q "one.json is given twice" "$tmp/out" || fail "the same summary twice not said"
cp "$tmp/one.json" "$tmp/copy.json"
"$bin" measure --ncu-csv "$fixture" --offload-summary "$tmp/one.json" "$tmp/copy.json" --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || fail "two summaries of one process: exit $code, expected 2"
grep -q "are both of process 1" "$tmp/out" || fail "two summaries of one process not named"
echo "ok: unknown wall time said, the note and kernel names escaped, one process's summary once"
