#!/usr/bin/env bash
# A spec sheet's caches are per core where they are private: its 'caches:' give the size of
# one instance, L1 and L2 one per core and L3 one per socket unless 'shared_by_cores' says
# otherwise. Before, every level was one instance for the whole machine: on 4 cores a
# 96,000 B DAXPY did not fit "L1 (32 KiB for 4 threads)" and was predicted from L2, and
# operands resident in L1 at 64,000 B were refused although each core holds a quarter.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
machine=$data/spec-sheet-private-caches.yaml  # 4 cores, 1 socket: L1 32 KiB, L2 512 KiB, L3 8 MiB
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }

# 4 threads: four private L1s hold the working set; the prediction is the L1 roof's.
"$bin" model --machine "$machine" "$data/model-daxpy-64k.yaml" --format json >"$tmp/out" 2>"$tmp/err" ||
    fail "model at 4 threads failed"
python3 - "$tmp/out" <<'PY' || fail "at 4 threads the DAXPY is not predicted from the four L1s"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["threads"] == 4, m["threads"]
k = m["kernels"][0]
fit = k["cache_fit"]
assert fit and fit["level"] == "L1", fit
assert fit["capacity_bytes"] == 4 * 32 * 1024, fit["capacity_bytes"]
assert fit["footprint_bytes"] == 96000, fit["footprint_bytes"]
l1 = next(r["gbs"] for r in m["bandwidth_roofs"] if r["level"] == "L1")
assert abs(k["performance"] - l1 * 2 / 24) < 1e-9 * k["performance"], (k["performance"], l1)
PY
"$bin" model --machine "$machine" "$data/model-daxpy-64k.yaml" >"$tmp/out" 2>"$tmp/err" || fail "text form failed"
grep -q "fits in L1 (128 KiB for 4 threads)" "$tmp/out" || fail "the four L1s are not said"
echo "ok: 4 threads have four private L1s (128 KiB): the DAXPY is predicted from L1"

# 1 thread: one L1 (32 KiB) is too small, one L2 (512 KiB) holds it.
"$bin" model --machine "$machine" "$data/model-daxpy-64k.yaml" --threads 1 >"$tmp/out" 2>"$tmp/err" ||
    fail "model at 1 thread failed"
grep -q "fits in L2 (512 KiB for 1 thread)" "$tmp/out" || fail "at 1 thread it is not predicted from one L2"
echo "ok: 1 thread has one L1 and one L2"

# Declared resident in L1 with sizes (64,000 B): accepted for 4 threads, refused for 1.
sed -e 's/{name: x, type: double, reads: 1}/{name: x, type: double, reads: 1, elements: N, resident_in: L1}/' \
    -e 's/reads: 1, writes: 1}/reads: 1, writes: 1, elements: N, resident_in: L1}/' \
    "$data/model-daxpy-64k.yaml" >"$tmp/l1.yaml"
grep -q "resident_in: L1" "$tmp/l1.yaml" || fail "the L1 residence was not written"
"$bin" model --machine "$machine" "$tmp/l1.yaml" >"$tmp/out" 2>"$tmp/err" || fail "a residence four L1s hold was refused"
grep -q "bound by L1 bandwidth" "$tmp/out" || fail "the L1 residence is not predicted from L1"
"$bin" model --machine "$machine" "$tmp/l1.yaml" --threads 1 >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "62.5 KiB resident in one 32 KiB L1: exit $code, expected 1"
grep -q "make them 62.5 KiB and L1 holds 32 KiB for 1 thread" "$tmp/err" || fail "the refusal does not say one L1"
echo "ok: 62.5 KiB resident in L1 fits four cores' L1s, not one"

# L3 is one per socket unless the sheet says otherwise: 12 MiB does not stay in it at 4 threads...
cat >"$tmp/l3.yaml" <<'YAML'
name: l3res
flops: 1
sizes: {N: 1572864}
iterations: N
arrays:
  - {name: a, type: double, reads: 1, elements: N, resident_in: L3}
YAML
"$bin" model --machine "$machine" "$tmp/l3.yaml" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "12 MiB resident in an 8 MiB shared L3: exit $code, expected 1"
grep -q "make it 12 MiB and L3 holds 8 MiB for 4 threads" "$tmp/err" || fail "the shared L3 was counted per core"
# ... and with 'shared_by_cores: 1' written (an L3 slice per core) it does; an L2 shared by 2 cores is two instances.
sed -e 's/caches: {L1: 32KiB, L2: 512KiB, L3: 8MiB}/caches: {L1: 32KiB, L2: {size: 512KiB, shared_by_cores: 2}, L3: {size: 8MiB, shared_by_cores: 1}}/' \
    "$machine" >"$tmp/sliced.yaml"
grep -q "shared_by_cores: 1" "$tmp/sliced.yaml" || fail "the sharing was not written"
"$bin" model --machine "$tmp/sliced.yaml" "$tmp/l3.yaml" >"$tmp/out" 2>"$tmp/err" || fail "four 8 MiB L3 instances did not hold 12 MiB"
sed -e 's/resident_in: L3/resident_in: L2/' -e 's/N: 1572864/N: 262144/' "$tmp/l3.yaml" >"$tmp/l2.yaml"  # 2 MiB
"$bin" model --machine "$tmp/sliced.yaml" "$tmp/l2.yaml" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "2 MiB resident in two 512 KiB L2s: exit $code, expected 1"
grep -q "make it 2 MiB and L2 holds 1 MiB for 4 threads" "$tmp/err" || fail "an L2 shared by 2 of 4 cores is not two instances"
echo "ok: L3 one per socket by default; 'shared_by_cores' gives the sharing"

# A sharing no core count allows is refused at its line.
sed -e 's/L3: 8MiB}/L3: {size: 8MiB, shared_by_cores: 5}}/' "$machine" >"$tmp/bad.yaml"
"$bin" model --machine "$tmp/bad.yaml" "$data/model-daxpy-64k.yaml" >"$tmp/out" 2>"$tmp/err"; code=$?
[[ $code == 1 ]] || fail "shared_by_cores 5 of 4 cores: exit $code, expected 1"
grep -q "caches.L3.shared_by_cores: expected the number of cores sharing one instance, from 1 to the sheet's 4 cores ('cores:', 1 when not given), found 5" "$tmp/err" || fail "the bad sharing is not named"
echo "ok: a sharing above the sheet's cores is refused"
