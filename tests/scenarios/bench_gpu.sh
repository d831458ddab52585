#!/usr/bin/env bash
# bench --gpu (issue 13) where it can be checked without a GPU: a build without nvcc says
# how to get the GPU benchmark (exit 2); without a device it says so before any CPU
# measuring and writes nothing (exit 1); a model with a `gpus` section is shown. With a
# device, the real measurement runs (a short one) and its model must hold the GPU's roofs.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # MESSAGE: a failed expectation, with the last command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
gpubench=$(dirname "$bin")/roofline-gpubench
args=(bench --only compute --precision dp --threads 1 --time-budget 1 --no-store --svg '' -o "$tmp/m.json")
if [[ ! -x $gpubench ]]; then
  "$bin" "${args[@]}" --gpu >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 2 ]] || check "bench --gpu without the GPU benchmark: exit $code, expected 2"
  grep -q "built without its GPU benchmark: nvcc" "$tmp/out" || check "no word on how to get the GPU benchmark"
elif "$gpubench" --probe >/dev/null 2>&1; then
  "$bin" "${args[@]}" --gpu >"$tmp/out" 2>&1 || check "bench --gpu on a device failed"
  python3 - "$tmp/m.json" <<'PY' || { echo "FAIL: the model's gpus section"; fail=1; }
import json, sys
g = json.load(open(sys.argv[1]))["gpus"][0]
assert g["sm_count"] > 0 and g["compute"] and g["memory"] and g["bus"], g
assert all(r["gflops"] > 0 for r in g["compute"]), g["compute"]
PY
else
  start=$SECONDS
  "$bin" "${args[@]}" --gpu >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 1 ]] || check "bench --gpu without a device: exit $code, expected 1"
  grep -q "no CUDA device to measure" "$tmp/out" || check "no word that there is no CUDA device"
  [[ -e $tmp/m.json ]] && check "bench --gpu without a device wrote a model"
  (( SECONDS - start < 20 )) || check "bench --gpu without a device measured the CPU first"
  "$bin" bench --gpu -1 --no-store -o '' >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 2 ]] || check "bench --gpu -1: exit $code, expected 2"
fi

# A model with a GPU: show prints its roofs beside the CPU's.
python3 - "$src/tests/data" "$tmp/gpu-machine.json" <<'PY'
import json, sys
data, out = sys.argv[1], sys.argv[2]
m = json.load(open(f"{data}/report-machine.json"))
m["gpus"] = [json.load(open(f"{data}/gpubench-example.json"))["gpu"]]
json.dump(m, open(out, "w"))
PY
"$bin" show "$tmp/gpu-machine.json" >"$tmp/out" 2>&1 || check "show of a model with a GPU failed"
grep -q "GPU 0: NVIDIA H100 80GB HBM3, compute capability 9.0, 132 SMs" "$tmp/out" || check "show does not name the GPU"
grep -Eq "bf16 tensor \(wmma, fp32 accumulate\) +600000.0" "$tmp/out" || check "show does not list the GPU's roofs"
grep -Eq "bidirectional +pinned +98.0 at 256 MiB" "$tmp/out" || check "show does not list the bus"
# The CPU and the GPU of one node on one chart, the bus as the GPU's PCIe roof.
"$bin" plot --machine "$tmp/gpu-machine.json" --gpu 0 --gpu 0:bf16 -o "$tmp/node.svg" >"$tmp/out" 2>&1 \
  || check "plot --gpu failed"
grep -q "NVIDIA H100 80GB HBM3 (GPU 0) bf16" "$tmp/node.svg" || check "the chart does not hold the GPU's bf16 roofline"
grep -q "BF16 tensor peak" "$tmp/node.svg" || check "the chart does not show the tensor roof"
grep -q "PCIe h2d pinned" "$tmp/node.svg" || check "the chart does not show the bus roof"
grep -q "Example CPU" "$tmp/node.svg" || check "the chart lost the CPU"
grep -q "Roofline (CARM): 3 machines, DP, FP64, BF16" "$tmp/node.svg" || check "the title does not name every precision drawn"
"$bin" plot --machine "$tmp/gpu-machine.json" --gpu 0:tf32 -o "$tmp/node.svg" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || check "plot --gpu 0:tf32 (not measured): exit $code, expected 2"
grep -q "has no tf32 roof (measured: fp64 fma" "$tmp/out" || check "plot --gpu with a missing precision: unclear"
"$bin" plot --machine "$src/tests/data/report-machine.json" --gpu 0 -o "$tmp/node.svg" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "plot --gpu of a machine without GPUs: exit $code, expected 1"
# report --gpu: an offload whose bytes over the bus bind it (TI = 10 FLOP per bus byte: 52 GB/s x 10).
cat >"$tmp/offload.json" <<'JSON'
{"schema": "roofline.points/1", "points": [
  {"name": "offload", "flops": 4e11, "seconds": 1, "bytes": {"DRAM": 1e10, "PCIe": 4e10}},
  {"name": "kernel", "flops": 2e13, "seconds": 1, "bytes": {"DRAM": 1e10}}]}
JSON
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/offload.json" --gpu 0 --format json >"$tmp/out" 2>&1 \
  || check "report --gpu failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: report --gpu's judgement"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
pts = {p["point"]: p for p in json.load(open(sys.argv[1]))["points"]}
o, k = pts["offload"], pts["kernel"]
assert o["binding_roof"] == "PCIe h2d pinned" and abs(o["attainable"] - 520) < 1e-6, o
assert abs(o["efficiency"] - 400 / 520) < 1e-9, o
# The multi-roofline's throughput intensity (FLOP per bus byte) and a = TI / I(DRAM) = 10 / 40.
assert o["throughput"] == {"bus": "PCIe", "throughput_intensity": 10, "memory_level": "DRAM",
                           "memory_intensity": 40, "coefficient": 0.25}, o["throughput"]
assert k["throughput"] is None, k
assert k["binding_roof"] == "FP64 peak" and abs(k["attainable"] - 31000) < 1e-6, k
PY
# A point measured on the CPU is never judged on a GPU's roofline (core's point_device); 'dp' names fp64.
cat >"$tmp/cpu.json" <<'JSON'
{"schema": "roofline.points/1", "points": [
  {"name": "cpu_region", "flops": 4e9, "seconds": 1, "bytes": {"DRAM": 1e9}, "source": "perf"}]}
JSON
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/cpu.json" --gpu 0 >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] && grep -q "point 'cpu_region' was measured on the CPU (perf)" "$tmp/out" ||
  check "report --gpu judged a CPU point on the GPU's roofline (exit $code)"
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/offload.json" --gpu 0:dp --format json >"$tmp/out" 2>&1 &&
  grep -q '"binding_roof": *"FP64 peak"' "$tmp/out" || check "report --gpu 0:dp is not the fp64 roofline"
exit $fail
