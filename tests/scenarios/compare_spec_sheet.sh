#!/usr/bin/env bash
# compare of a measured model (stored, and as a file) with a spec sheet: each figure of the sheet
# is matched to the measured roof that answers it (the best of its precision or level, at the
# most threads measured), what cannot be matched is said, a measured roof above the sheet's
# figure is called out, and two models or two sheets are still compared roof by roof.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "SKIPPED: python3 not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # MESSAGE: a failed expectation, with the last command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
# One thread of a 2-thread KVM guest: dp best 88.7 GFLOP/s, DRAM best 35.1 GB/s (load), L2 118.
model=$src/tests/data/compare/epyc-vm.json
# A vendor's sheet for the same 2 cores: dp 118.4 (2 x 3.7 GHz x 16), DRAM 30 (below what was
# measured: one of them is wrong), an IOP peak the model has no roof of, no L2, a ceiling.
cat >"$tmp/sheet.yaml" <<'EOF'
schema: roofline.machine-spec/1
name: Vendor sheet
cores: 2
clock_ghz: 3.7
peak: {dp: 118.4, sp: 236.8, IOP: 100}
bandwidth: {L1: 600, L3: 200, DRAM: 30}
ceilings:
  compute:
    - {name: no FMA, category: fma, value: 59.2}
EOF
db=$tmp/r.db
source "$src/tests/scenarios/lib/model_store.sh"
store_models "$bin" "$db" "$model" || { echo "FAIL: cannot make or fill the store"; exit 1; }

"$bin" compare --db "$db" --machine stored:1 --machine "$tmp/sheet.yaml" >"$tmp/out" 2>&1 \
  || check "compare of a stored model with a spec sheet failed"
grep -q 'B is a spec sheet' "$tmp/out" || check "the sheet is not said to be one"
grep -Eq '^dp peak 2t +GFLOP/s +118 +dp avx512 fma\+add 1t +1 of 2 \(the most measured\) +88\.7.* +0\.749 +below' "$tmp/out" \
  || check "the dp peak is not matched to the best measured dp roof at the most threads measured"
grep -Eq '^DRAM bandwidth 2t +GB/s +30\.0 +DRAM load 1t .* +1\.171 +ABOVE THE SHEET.S \(\+17%' "$tmp/out" \
  || check "a measured DRAM roof above the sheet's is not called out"
grep -q 'the sheet or the measurement is wrong' "$tmp/out" || check "what a roof above the sheet means is not said"
grep -Eq '^IOP peak 2t .*not matched: the model has no IOP roof' "$tmp/out" || check "a precision the model lacks is not said"
grep -q 'Measured, not on the sheet: L2 (L2 triad 1t 118 GB/s): the sheet gives no bandwidth of this level' "$tmp/out" \
  || check "a level the sheet lacks is not said"
grep -q "Not compared: the sheet's 1 ceiling" "$tmp/out" || check "the sheet's ceilings are not said to be left out"
grep -q 'only in A' "$tmp/out" && check "the roof-by-roof table (nothing in common) is still shown"

# The sheet as A, the model as a file, as JSON: the ratio is always measured over spec.
"$bin" compare "$tmp/sheet.yaml" "$model" --format json >"$tmp/out" 2>&1 || check "compare of a sheet with a model file failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: compare's JSON of a sheet and a model"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
s = j["spec_comparison"]
assert s["spec_side"] == "A" and s["ratio_is"] == "measured / spec", s
f = {x["figure"]: x for x in s["figures"]}
assert f["dp peak 2t"]["measured_roof"] == "dp avx512 fma+add 1t" and f["dp peak 2t"]["verdict"] == "below", f
assert f["dp peak 2t"]["measured_threads"] == 1 and f["dp peak 2t"]["model_threads"] == 1, f
assert f["DRAM bandwidth 2t"]["verdict"] == "above" and abs(f["DRAM bandwidth 2t"]["ratio"] - 35.1297 / 30) < 1e-3, f
assert f["IOP peak 2t"]["verdict"] == "unmatched" and f["IOP peak 2t"]["measured"] is None, f
assert [n["level"] for n in s["not_in_sheet"]] == ["L2"], s["not_in_sheet"]
assert s["ceilings_not_compared"] == 1 and s["above"] == 1 and s["matched"] == 5, s
assert j["compared"] == {"pairs": 5, "judged": 5}, j["compared"]
assert "roofs" not in j, j
PY

# A sheet's figure is no run to be slower than: --fail-on-slower passes on what it matched ...
"$bin" compare "$model" "$tmp/sheet.yaml" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] || check "--fail-on-slower against a sheet: exit $code, expected 0"
# ... and exits 4 when the sheet has nothing the model measured.
python3 - "$model" "$tmp/nodram.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["memory"] = [r for r in m["memory"] if r["level"] != "DRAM"]
m["curves"] = []
json.dump(m, open(sys.argv[2], "w"))
PY
printf 'schema: roofline.machine-spec/1\nname: DRAM only\ncores: 2\npeak: {IOP: 100}\nbandwidth: {DRAM: 30}\n' >"$tmp/dram.yaml"
"$bin" compare "$tmp/nodram.json" "$tmp/dram.yaml" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "--fail-on-slower with nothing matched: exit $code, expected 4"
grep -q 'Nothing compared: no figure of the spec sheet (2 of them) has a measured roof' "$tmp/out" \
  || check "a sheet with nothing matched is not said to be so"
grep -q 'not matched: the model has no DRAM roof: a level it did not measure' "$tmp/out" || check "the missing level is not said"

# Two sheets (and two models) are compared roof by roof, as before.
"$bin" compare "$tmp/sheet.yaml" "$tmp/sheet.yaml" >"$tmp/out" 2>&1 || check "compare of two sheets failed"
grep -Eq '^dp spec best 2t .* same' "$tmp/out" || check "two sheets are not compared roof by roof"
grep -q 'is a spec sheet: its figures' "$tmp/out" && check "two sheets were matched as a model and a sheet"
"$bin" compare "$model" "$model" >"$tmp/out" 2>&1 || check "compare of two models failed"
grep -Eq '^DRAM load 1t .* same' "$tmp/out" || check "two models are not compared roof by roof"

exit $fail
