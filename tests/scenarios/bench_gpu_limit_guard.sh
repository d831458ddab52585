#!/usr/bin/env bash
# Issue 32: GPU figures the hardware cannot reach are refused, end to end and without a GPU.
# A stand-in roofline-gpubench (ROOFLINE_GPUBENCH) writes what the real one wrote on an
# H200 before its tensor loops were made observable (tensor rows 1.7-2.3x the dense limit),
# plus an L2 curve and one kernel whose self-check failed, and exits 1 as the real one does
# then. bench --gpu must: exit 1; leave every tensor row out of the model and name each in
# environment.refused (and the self-check); keep the rows within the limit and the curve.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
python3 - "$src/tests/data/gpu/h200-gpubench-before.json" "$tmp/gpu.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["gpu"]["curves"] = [{"level": "L2", "pattern": "read", "blocks_per_sm": 8,
                       "points": [[2097152, 12000.0], [31457280, 9800.0], [125829120, 3900.0]]}]
j["gpu"]["self_check_failed"] = ["lop3: thread 0 read 7, expected 9"]
json.dump(j, open(sys.argv[2], "w"))
PY
# --probe: a device is there; -o FILE: the recorded figures, and exit 1 (a self-check failed).
cat >"$tmp/gpubench" <<STANDIN
#!/usr/bin/env bash
out=""
while [[ \$# -gt 0 ]]; do [[ \$1 == -o ]] && { out=\$2; shift; }; shift; done
[[ -z \$out ]] && exit 0
cp "$tmp/gpu.json" "\$out"
exit 1
STANDIN
chmod +x "$tmp/gpubench"
export ROOFLINE_GPUBENCH=$tmp/gpubench
# bench --gpu with the stand-in: the model in $tmp/m.json, the output in $tmp/out, the exit in $code.
bench_gpu() {
  "$bin" bench --only compute --precision dp --threads 1 --time-budget 1 --no-store --svg '' -o "$tmp/m.json" --gpu \
    >"$tmp/out" 2>&1
  code=$?
}
bench_gpu
[[ $code -eq 1 ]] || check "bench --gpu with refused figures: exit $code, expected 1"
python3 - "$tmp/m.json" <<'PY' || { echo "FAIL: the model"; fail=1; }
import json, sys
m = json.load(open(sys.argv[1]))
g = m["gpus"][0]
assert not [r for r in g["compute"] if r["tensor"]], [r["name"] for r in g["compute"] if r["tensor"]]
assert [r for r in g["compute"] if r["name"] == "fp64 fma"], g["compute"]
for r in g["compute"]:
    assert r["gflops"] <= 1.03 * r["theoretical_gflops"], r
refused = m["environment"]["refused"]
for name in ("fp16", "bf16", "tf32", "fp64"):
    assert any(name in w and "tensor" in w for w in refused), (name, refused)
assert any("self-check failed: lop3" in w for w in refused), refused
assert g["curves"][0]["level"] == "L2" and len(g["curves"][0]["points"]) == 3, g.get("curves")
PY
grep -q "roofline: error: GPU 0: .*tensor.*refused" "$tmp/out" || check "no error naming a refused tensor roof"
grep -q "^Refused" "$tmp/out" || check "no 'Refused' section in the summary"
"$bin" show "$tmp/m.json" >"$tmp/out" 2>&1 || check "show cannot read the model"
# The L2 read curve past twice the L2 (60 MiB here) well above the DRAM read: blocks shared
# lines just fetched from DRAM (a read in 512 KiB chunks on the H200, 6.7 TB/s at 128 MiB).
# The curve and the L2 read roof are refused with the reason; the DRAM roofs stay.
python3 - "$tmp/gpu.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["gpu"]["curves"][0]["points"] = [[2097152, 14000.0], [31457280, 10400.0], [134217728, 6700.0]]
json.dump(j, open(sys.argv[1], "w"))
PY
bench_gpu
[[ $code -eq 1 ]] || check "bench --gpu with an L2 curve that does not fall to DRAM: exit $code, expected 1"
python3 - "$tmp/m.json" <<'PY' || { echo "FAIL: the model with the L2 curve refused"; fail=1; }
import json, sys
m = json.load(open(sys.argv[1]))
g = m["gpus"][0]
assert not g.get("curves"), g.get("curves")
assert not [r for r in g["memory"] if r["level"] == "L2"], g["memory"]
assert len([r for r in g["memory"] if r["level"] == "DRAM"]) == 3, g["memory"]
assert any("L2 read curve: 6700 GB/s" in w and "refused" in w for w in m["environment"]["refused"]), m["environment"]
PY
grep -q "roofline: error: GPU 0: L2 read curve: 6700 GB/s at 128 MiB.*1.59x the DRAM read roof" "$tmp/out" ||
  check "no error naming the L2 curve's point past twice the L2"
[[ $fail -eq 0 ]] && echo "ok: tensor rows above the H200's limit refused by name, exit 1, the rest and the L2 curve kept;" \
  "an L2 curve that stays above the DRAM read past twice the L2 refused with its L2 roof"
exit $fail
