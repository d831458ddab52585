#!/usr/bin/env bash
# roofline model judges a loop on the peak of its FLOPs' precision (audit h47): an
# all-float blocked SGEMM was predicted at the DP peak ("compute-bound (DP peak ...)",
# twice the time), and `model -o` wrote its point without a precision, so `report` judged
# it as dp too. Now the precision follows from the element types (all float: sp; all
# double: dp), or a `precision:` key; mixed types are judged on the lower peak, said so.
set -u
bin=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
machine=$data/advice-machine-zen4.json  # dp and sp roofs, 1 thread
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ROOFLINE_DB=$tmp/results.db
fail() { echo "FAIL: $*"; cat "$tmp/out" 2>/dev/null; exit 1; }
peak() {  # the machine's top compute roof of one precision at 1 thread
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(max(c["gflops"] for c in m["compute"] if c["precision"]==sys.argv[2] and c["threads"]==1))' "$machine" "$1"
}
sp=$(peak sp); dp=$(peak dp)
python3 -c "import sys; sys.exit(0 if float('$sp') > 1.5 * float('$dp') else 1)" || fail "the fixture's sp peak ($sp) is not well above dp ($dp)"

"$bin" model --machine "$machine" "$data/model-sgemm-float.yaml" --format json -o "$tmp/p.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "model of the float SGEMM failed"
python3 - "$tmp/out" "$sp" <<'PY' || fail "the float SGEMM is not judged on the SP peak"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
sp = float(sys.argv[2])
assert k["precision"]["judged"] == "sp" and k["precision"]["basis"] == "element_types", k["precision"]
assert abs(k["compute_roof"]["value"] - sp) < 1e-6 * sp, k["compute_roof"]
assert abs(k["performance"] - sp) < 1e-6 * sp, k["performance"]  # compute-bound at 32 FLOP/B
work = k["work_per_iteration"] * k["iterations"]
assert abs(k["seconds"] - work / (sp * 1e9)) < 1e-6 * k["seconds"], k["seconds"]
PY
"$bin" model --machine "$machine" "$data/model-sgemm-float.yaml" >"$tmp/out" 2>&1 || fail "text form failed"
grep -q "compute-bound (SP peak" "$tmp/out" || fail "the prediction does not name the SP peak"
grep -q "DP peak" "$tmp/out" && fail "the DP peak is named for an all-float kernel"
echo "ok: an all-float kernel is predicted at the SP peak ($sp GFLOP/s, DP $dp)"

# The points file carries the precision: report judges the point on the SP roofline.
"$bin" report --machine "$machine" --points "$tmp/p.json" >"$tmp/out" 2>&1 || fail "report of the predicted point failed"
grep -q "^Roofline report: .*(sp, " "$tmp/out" || fail "report does not judge the predicted point as sp"
echo "ok: model -o writes the point's precision; report judges it on the SP roofline"

# --precision dp overrides, and says that the kernel's own is sp.
"$bin" model --machine "$machine" --precision dp "$data/model-sgemm-float.yaml" >"$tmp/out" 2>&1 || fail "--precision dp failed"
grep -q "compute-bound (DP peak" "$tmp/out" || fail "--precision dp not used"
grep -q "but the spec's FLOPs are SP" "$tmp/out" || fail "--precision dp does not say the kernel's FLOPs are sp"
echo "ok: --precision dp judges it on DP and says its FLOPs are SP"

# Mixed float and double: the lower peak, said; a declared precision decides.
sed -e 's/name: "A, B (memory)", type: float/name: "A, B (memory)", type: double/' \
    "$data/model-sgemm-float.yaml" >"$tmp/mixed.yaml"
"$bin" model --machine "$machine" "$tmp/mixed.yaml" >"$tmp/out" 2>&1 || fail "mixed types failed"
grep -Eq "the operands are (single|double) precision and (single|double) precision .*judged on the lower peak, the DP peak" "$tmp/out" ||
    fail "mixed types are not judged on the lower peak with a note"
sed -e 's/^flops: 2$/flops: 2\nprecision: sp/' "$tmp/mixed.yaml" >"$tmp/declared.yaml"
"$bin" model --machine "$machine" "$tmp/declared.yaml" >"$tmp/out" 2>&1 || fail "declared precision failed"
grep -q "SP (as the spec declares): judged on the SP peak" "$tmp/out" || fail "a declared precision is not used"
sed -e 's/^flops: 2$/flops: 2\nprecision: quad/' "$tmp/mixed.yaml" >"$tmp/bad.yaml"
"$bin" model --machine "$machine" "$tmp/bad.yaml" >"$tmp/out" 2>&1 && fail "precision: quad accepted"
grep -q "bad.yaml:[0-9]*:[0-9]*: precision: expected dp or sp" "$tmp/out" || fail "precision: quad: the reason is not said"
echo "ok: mixed types on the lower peak (said), a declared precision used, an unknown one refused"
