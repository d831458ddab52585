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

# Judged on the GPU of the latest stored machine model (bench --gpu with a stand-in gpubench that
# writes the H200's measured roofs, tests/data/gpu/h200-machine.json), the cuBLAS DGEMM (DMMA),
# SGEMM (FFMA) and HGEMM (HGMMA) that ncu measured there. Before: report --gpu put the whole
# offload on the fp32 FMA roof (its FMA FLOPs counted twice beside its kernels, its tensor ones
# once) and its bus on the d2h roof whatever way its bytes went; measure named no roof.
gemms=$here/../data/gpu/h200-ncu-cublas-gemm-n2048-tensor.csv
python3 - "$here/../data/gpu/h200-gpubench-before.json" "$here/../data/gpu/h200-machine.json" "$tmp/gpu.json" <<'PY'
import json, sys
bench, model, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
for k in ("compute", "memory", "bus", "curves"):
    bench["gpu"][k] = model["gpus"][0][k]
json.dump(bench, open(out, "w"))
PY
cat >"$tmp/gpubench" <<STANDIN
#!/usr/bin/env bash
out=""
while [[ \$# -gt 0 ]]; do [[ \$1 == -o ]] && { out=\$2; shift; }; shift; done
[[ -z \$out ]] && exit 0
cp "$tmp/gpu.json" "\$out"
STANDIN
chmod +x "$tmp/gpubench"
"$bin" measure --ncu-csv "$gemms" --offload-summary "$tmp/one.json" -o "$tmp/none.json" >"$tmp/out" 2>&1 ||
  fail "measure with a store that holds no machine model"
grep -q "not judged here: the results store holds no machine model (bench --gpu 0 measures its roofs)" "$tmp/out" ||
  fail "a store without a machine model: no word that the offload is not judged"
ROOFLINE_GPUBENCH=$tmp/gpubench "$bin" bench --only compute --precision dp --threads 1 --time-budget 1 --svg '' \
  -o "$tmp/m.json" --gpu >"$tmp/out" 2>&1 || fail "bench --gpu with the stand-in gpubench"
traffic() {  # FILE UP_BYTES DOWN_BYTES: 3 kernels, copies at 50 GB/s, a span of 10 ms
  python3 - "$@" <<'PY'
import json, sys
out, up, down = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
z = {"bytes": 0, "operations": 0, "busy_ns": 0}
way = lambda b: {"bytes": b, "operations": 1, "busy_ns": b // 50} if b else z
json.dump({"schema": "roofline.offload/1", "pid": 1,
           "copies": {"host_to_device": way(up), "device_to_host": way(down), "device_to_device": z,
                      "host_to_host": z, "peer_to_peer": z, "unknown": z},
           "migrations": {"host_to_device": z, "device_to_host": z},
           "kernels": {"bytes": 0, "operations": 3, "busy_ns": 1000000},
           "first_ns": 1000, "last_ns": 10001000, "dropped_records": 0, "note": ""}, open(out, "w"))
PY
}
judged() {  # SUMMARY: measure's text in $tmp/out, the points in $tmp/judged.json
  "$bin" measure --ncu-csv "$gemms" --offload-summary "$1" -o "$tmp/judged.json" --no-store >"$tmp/out" 2>&1 ||
    fail "measure --ncu-csv --offload-summary $1"
}
traffic "$tmp/up.json" 100000000 24
"$bin" measure --ncu-csv "$gemms" --offload-summary "$tmp/up.json" -o "$tmp/up-points.json" >"$tmp/out" 2>&1 ||
  fail "measure with the store's model"
grep -q "its FLOPs: fp32 33.3%, fp64 33.3% (100.0% on the tensor cores), fp16 33.3% (100.0% on the tensor cores)" \
  "$tmp/out" || fail "the whole offload's FLOPs by precision are not said"
grep -q "judged on NVIDIA H200 (GPU 0) of the latest stored machine model: compute FP16 tensor peak 9.66e+05 GFLOP/s, the highest roof its work could use" \
  "$tmp/out" || fail "the whole offload is not judged on the highest roof its work could use"
grep -q "bus PCIe h2d pinned 55.1 GB/s (its bus bytes went host to device, 24 B back)" "$tmp/out" ||
  fail "copies up are not judged on the h2d roof"
grep -q "bound by PCIe h2d pinned; efficiency" "$tmp/out" || fail "no attainable and efficiency on those roofs"
grep -q "d2h pinned" "$tmp/out" && fail "copies up judged on the d2h roof"
traffic "$tmp/down.json" 0 100000000
"$bin" measure --ncu-csv "$gemms" --offload-summary "$tmp/down.json" --no-store >"$tmp/out" 2>&1 ||
  fail "measure of copies down"
grep -q "not judged here: no results store" "$tmp/out" || fail "--no-store: no word that the offload is not judged"
"$bin" measure --ncu-csv "$gemms" --offload-summary "$tmp/down.json" -o "$tmp/down-points.json" >"$tmp/out" 2>&1 ||
  fail "measure of copies down with the store"
grep -q "bus PCIe d2h pinned 55.2 GB/s (its bus bytes went device to host)" "$tmp/out" || fail "copies down not on the d2h roof"
traffic "$tmp/both.json" 100000000 100000000
"$bin" measure --ncu-csv "$gemms" --offload-summary "$tmp/both.json" -o "$tmp/both-points.json" >"$tmp/out" 2>&1 ||
  fail "measure of copies both ways"
grep -q "bus PCIe bidirectional pinned 97.9 GB/s (100 MB in, 100 MB back, both ways at once at best)" "$tmp/out" ||
  fail "copies both ways alike not on the bidirectional roof"
python3 - "$tmp/up-points.json" <<'PY' || fail "the whole offload's FLOPs per tensor format are not in its point"
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
w, d = pts["whole offload"]["details"], [p for n, p in pts.items() if "f64f64" in n][0]
assert w["flops_tensor_fp64"] == d["details"]["flops_tensor_fp64"] > 0, w
assert "flops_fp16" not in w and "dram_read_bytes" not in d["details"], (w, d["details"])
assert "DRAM" not in d["bytes"], d["bytes"]
PY
echo "ok: the whole offload is judged on the highest roof its work could use and the bus roof of its traffic"
