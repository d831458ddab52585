#!/usr/bin/env bash
# roofline model against the machine's caches (audit h47): a DAXPY over 1000 doubles
# (16 KB, inside L1) was predicted from DRAM, 5.3 GFLOP/s, below what it runs at (7.9 to
# 23.7 GFLOP/s here); a 400 MB array declared 'resident_in: L3' was predicted from L3 without
# a word. Now a working set that fits a cache is predicted from it, the DRAM figure beside
# it; a residence the sizes given cannot hold is refused (exit 1), one that cannot be
# checked (no 'elements:') and touches more than the level holds is warned about.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
machine=$data/advice-machine-zen4.json  # L1 32 KiB, L2 1 MiB, L3 32 MiB
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }

"$bin" model --machine "$machine" "$data/model-daxpy-small.yaml" --format json -o "$tmp/p.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "model of the small DAXPY failed"
python3 - "$tmp/out" "$tmp/p.json" <<'PY' || fail "the small DAXPY is not predicted from L1"
import json, sys
m = json.load(open(sys.argv[1]))
k = m["kernels"][0]
l1 = next(r["gbs"] for r in m["bandwidth_roofs"] if r["level"] == "L1")
fit = k["cache_fit"]
assert fit and fit["level"] == "L1" and fit["footprint_bytes"] <= fit["capacity_bytes"], fit
assert k["binding_level"] == "L1", k["binding_level"]
assert k["bytes_per_iteration"] == {"L1": 24}, k["bytes_per_iteration"]
assert abs(k["performance"] - l1 * 2 / 24) < 1e-9 * k["performance"], (k["performance"], l1)
cold = fit["from_memory"]
assert cold["binding_level"] == "DRAM" and cold["performance"] < k["performance"], cold
point = json.load(open(sys.argv[2]))["points"][0]
assert set(point["bytes"]) == {"L1"}, point["bytes"]
PY
"$bin" model --machine "$machine" "$data/model-daxpy-small.yaml" >"$tmp/out" 2>"$tmp/err" || fail "text form failed"
grep -q "^  working set     at most .* fits in L1 (32 KiB for 1 thread): x, y predicted from L1" "$tmp/out" ||
    fail "the fit in L1 is not said"
grep -q "^  from memory     .* bound by DRAM" "$tmp/out" || fail "the from-memory figure is not printed beside it"
echo "ok: a DAXPY over 1000 doubles is predicted from L1, its DRAM figure beside it"

sed -e 's/reads: 1, writes: 1}/reads: 1, writes: 1, resident_in: memory}/' -e 's/{name: x, type: double, reads: 1}/{name: x, type: double, reads: 1, resident_in: memory}/' \
    "$data/model-daxpy-small.yaml" >"$tmp/memory.yaml"
"$bin" model --machine "$machine" "$tmp/memory.yaml" >"$tmp/out" 2>"$tmp/err" || fail "resident_in: memory failed"
grep -q "bound by DRAM" "$tmp/out" || fail "'resident_in: memory' did not keep the operands in memory"
grep -q "working set" "$tmp/out" && fail "operands written to stay in memory were moved"
echo "ok: 'resident_in: memory' keeps them streaming"

# 400 MB 'resident_in: L3' with its size given: refused, the other kernels still predicted.
sed -e 's/resident_in: L3}/resident_in: L3, elements: N}/' "$data/model-resident-too-big.yaml" >"$tmp/sized.yaml"
"$bin" model --machine "$machine" "$tmp/sized.yaml" "$data/model-daxpy-small.yaml" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "a residence larger than its cache: exit $code, expected 1"
grep -q "l3res: no prediction: B is declared resident in L3, but its 'elements' make it 381 MiB and L3 holds 32 MiB for 1 thread" "$tmp/err" ||
    fail "the refusal does not say what does not fit"
grep -q "^l3res " "$tmp/out" && fail "the refused kernel was predicted"
grep -q "^daxpy " "$tmp/out" || fail "the other kernel was not predicted"
echo "ok: a 381 MiB array declared resident in a 32 MiB L3 is refused (exit 1)"

# Without sizes it cannot be checked: warned, naming what the loop touches.
"$bin" model --machine "$machine" "$data/model-resident-too-big.yaml" >"$tmp/out" 2>"$tmp/err" || fail "the unsized file failed"
grep -q "warning: l3res: B is declared resident in L3 with no size ('elements:'), and its reads and writes over 1e+08 iterations touch up to 381 MiB, more than L3 holds (32 MiB for 1 thread)" "$tmp/err" ||
    fail "an unchecked L3 residence is not flagged"
grep -q "warning: l3res: C is declared resident in L1 with no size" "$tmp/err" || fail "an unchecked L1 residence is not flagged"
"$bin" model --machine "$machine" "$data/model-resident-too-big.yaml" --format json >"$tmp/out" 2>"$tmp/err" || fail "json failed"
python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kernels"][0]; assert len(k["warnings"]) == 2, k["warnings"]' "$tmp/out" ||
    fail "the warnings are not in the JSON"
echo "ok: residences that cannot be checked and touch more than the level holds are flagged"
