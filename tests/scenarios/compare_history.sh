#!/usr/bin/env bash
# compare and history (issue 12): two machines and two point sets side by side,
# a change put down to the roof or the efficiency, the overlay chart, exit 3 for
# CI on a slowdown; history over runs kept in a store.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # MESSAGE: a failed expectation, with the last command's output
  echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1
}
data=$src/tests/data
# B: the DRAM roofs 30% higher; the triad rides its roof, the DGEMM got slower, one point is new.
python3 - "$data" "$tmp" <<'PY'
import json, sys
data, tmp = sys.argv[1], sys.argv[2]
m = json.load(open(f"{data}/report-machine.json"))
for r in m["memory"]:
    if r["level"] == "DRAM": r["gbs"] *= 1.3
json.dump(m, open(f"{tmp}/b-machine.json", "w"))
p = json.load(open(f"{data}/report-points.json"))
for x in p["points"]:
    if x["name"] == "stream triad": x["seconds"] /= 1.3
    if x["name"].startswith("dgemm"): x["seconds"] *= 1.5
p["points"].append(dict(p["points"][2], name="new kernel"))
json.dump(p, open(f"{tmp}/b-points.json", "w"))
PY

"$bin" compare "$data/report-machine.json" "$tmp/b-machine.json" >"$tmp/out" 2>&1 || check "compare of two machines failed"
grep -Eq '^DRAM load 2t +GB/s +20.0 +26.0 +1.300 +floor +FASTER \(\+30%\)' "$tmp/out" || check "the DRAM roof's change is not shown"
grep -Eq '^L1 load 2t .* same' "$tmp/out" || check "an unchanged roof is not called the same"

"$bin" compare "$data/report-points.json" "$tmp/b-points.json" --machine "$data/report-machine.json" \
    --machine "$tmp/b-machine.json" --format json --chart "$tmp/both.svg" >"$tmp/out" 2>"$tmp/err" || check "compare of points failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: compare's JSON"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
pts = {p["point"]: p for p in j["points"]}
t, d, s, n = pts["stream triad"], pts["dgemm 256x256, blocked"], pts['stencil "7-point"'], pts["new kernel"]
assert t["changed"] and t["cause"] == "roof" and abs(t["ratio"] - 1.3) < 1e-9, t
assert d["changed"] and d["cause"] == "efficiency" and abs(d["ratio"] - 1 / 1.5) < 1e-9, d
assert not s["changed"] and s["cause"] is None, s
assert n["a"] is None and n["b"]["value"] > 0, n
assert any(r["roof"] == "DRAM load 2t" and r["changed"] for r in j["roofs"])
PY
grep -q 'A: Example CPU' "$tmp/both.svg" && grep -q 'B: Example CPU' "$tmp/both.svg" || { cp "$tmp/err" "$tmp/out"; check "the chart does not overlay both machines"; }
grep -q 'stream triad (B)' "$tmp/both.svg" || { cp "$tmp/err" "$tmp/out"; check "the chart does not hold B's points"; }

"$bin" compare "$data/report-points.json" "$tmp/b-points.json" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 3 ]] || check "--fail-on-slower with a slower point: exit $code, expected 3"
"$bin" compare "$data/report-points.json" "$data/report-points.json" --fail-on-slower >"$tmp/out" 2>&1 \
  || check "--fail-on-slower with nothing slower failed"

# Usage mistakes.
for args in "$data/report-points.json" "stored:1 stored:2" "--machine $data/report-machine.json"; do
  # shellcheck disable=SC2086
  "$bin" compare $args >"$tmp/out" 2>&1; code=$?
  [[ $code -eq 2 ]] || check "compare $args: exit $code, expected 2"
done
# A file that is not there is a failed read, exit 1 as in show, report and plot.
"$bin" compare "$tmp/none.json" "$tmp/none.json" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "compare of missing files: exit $code, expected 1"

# history over a store: two bench runs of one machine, two runs of one kernel.
db=$tmp/r.db
for i in 1 2; do
  "$bin" bench --only compute --precision dp --threads 1 --time-budget 1 -q -o '' --svg '' --db "$db" >"$tmp/out" 2>&1 \
    || check "bench $i failed"
  "$bin" kernels sum_sp_scalar --sizes 4K --samples 3 --rerun -q --db "$db" >"$tmp/out" 2>&1 || check "kernels $i failed"
done
"$bin" history --db "$db" --format json >"$tmp/out" 2>&1 || check "history of the machine failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: history's JSON"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["figures"], j
for f in j["figures"]:
    assert len(f["runs"]) == 2 and all(r["figure"]["value"] > 0 for r in f["runs"]), f
PY
"$bin" history --db "$db" --point "sum_sp_scalar 4 KiB" >"$tmp/out" 2>&1 || check "history of a point failed"
grep -Eq '^sum_sp_scalar 4 KiB +GFLOP/s +2 ' "$tmp/out" || check "history of a point does not show its two runs"
"$bin" history --db "$db" --point "nope" >"$tmp/out" 2>&1 && check "history of a point never stored exited 0"
"$bin" history --db "$tmp/none.db" >"$tmp/out" 2>&1 && check "history without a store exited 0"
grep -q "no results store at $tmp/none.db" "$tmp/out" || check "history without a store: unclear message"
exit $fail
