#!/usr/bin/env bash
# history --fail-on-slower judges the latest run; when none of its figures could be judged
# against a run before it (every roof unstable, every point without a rate, one run alone), no
# slowdown was ruled out: exit 4 with 'nothing judged', as compare does. It exited 0 there.
# A point's run whose region a signal cut off is marked and not judged either.
# A latest run with something judged keeps its exits: 0, or 3 on a slowdown.
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
base=$src/tests/data/compare/epyc-vm.json
python3 - "$base" "$tmp" <<'PY'
import copy, json, sys
base, tmp = sys.argv[1], sys.argv[2]
m = json.load(open(base))
unstable = copy.deepcopy(m)
for kind in ("compute", "memory"):
    for r in unstable[kind]: r["stats"]["stable"] = False
json.dump(unstable, open(f"{tmp}/unstable.json", "w"))
slow = copy.deepcopy(m)
for r in slow["compute"]:
    r["gflops"] *= 0.7
    for k in ("median", "min", "max"): r["stats"][k] *= 0.7
json.dump(slow, open(f"{tmp}/compute70.json", "w"))
PY
# store DB MODEL...: a fresh store holding these models of one machine, oldest first
source "$src/tests/scenarios/lib/model_store.sh"
store() { store_models "$bin" "$@" || { echo "FAIL: cannot make or fill the store"; fail=1; }; }
db=$tmp/r.db

# Every roof unstable in both runs: nothing judged.
store "$db" "$tmp/unstable.json" "$tmp/unstable.json"
"$bin" history --db "$db" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "history --fail-on-slower with every roof unstable: exit $code, expected 4"
grep -Eq "^roofline: error: --fail-on-slower: nothing judged: no figure of the latest run \(run 2, #[0-9]+\) was judged against a run before it: ([0-9]+) of \1 unstable in it; nothing to pass \(exit 4\)$" "$tmp/out" ||
  check "history --fail-on-slower with every roof unstable does not say nothing was judged"
"$bin" history --db "$db" >"$tmp/out" 2>&1 || check "history without --fail-on-slower failed over unstable roofs"
grep -Eq "^Nothing judged: no figure of the latest run \(run 2, #[0-9]+\) was judged against a run before it" "$tmp/out" ||
  check "history's text does not say nothing was judged"

# Stable runs, then one with every roof unstable: the latest run is not judged (the earlier step is).
store "$db" "$base" "$base" "$tmp/unstable.json"
"$bin" history --db "$db" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "history --fail-on-slower with the latest run unstable: exit $code, expected 4"
# The last run alone (--last 1): no run before it.
"$bin" history --db "$db" --fail-on-slower --last 1 >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "history --fail-on-slower --last 1: exit $code, expected 4"
grep -q "nothing judged: the history holds one run (run 1, #[0-9]*), with no run before it to judge it against" "$tmp/out" ||
  check "history of one run does not say why nothing was judged"

# Something judged: exits as before.
store "$db" "$base" "$tmp/unstable.json" "$base"
"$bin" history --db "$db" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] || check "history --fail-on-slower judged against the last stable run: exit $code, expected 0"
grep -q "Nothing judged" "$tmp/out" && check "a judged history says nothing was judged"
store "$db" "$base" "$tmp/compute70.json"
"$bin" history --db "$db" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 3 ]] || check "history --fail-on-slower with every compute roof 30% lower: exit $code, expected 3"
# A latest run whose compute roofs are unstable but memory roofs judged: judged, no slowdown.
python3 - "$base" "$tmp" <<'PY'
import copy, json, sys
m = json.load(open(sys.argv[1]))
for r in m["compute"]: r["stats"]["stable"] = False
json.dump(m, open(f"{sys.argv[2]}/compute_unstable.json", "w"))
PY
store "$db" "$base" "$tmp/compute_unstable.json"
"$bin" history --db "$db" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] || check "history --fail-on-slower with memory roofs judged: exit $code, expected 0"

# A point without FLOPs (stream_copy) in every run: no rate, nothing judged.
pdb=$tmp/p.db
for i in 1 2; do
  "$bin" kernels stream_copy --sizes 4K --samples 3 --rerun -q --db "$pdb" >"$tmp/out" 2>&1 || check "kernels $i failed"
done
"$bin" history --db "$pdb" --point "stream_copy 4 KiB" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "history --point of a point without a rate: exit $code, expected 4"
grep -q "nothing judged: no figure of the latest run (run 2, #2) was judged against a run before it: 1 of 1 without a rate in it (no FLOPs); nothing to pass (exit 4)" "$tmp/out" ||
  check "history --point of a point without a rate does not say why nothing was judged"

# The latest run's point cut off by a signal (details.cut_off_by_signal): its time only the part
# that ran, so not judged; RUNS marks it '*' with a footnote, JSON runs[].cut_off.
tdb=$tmp/t.db
for i in 1 2; do
  "$bin" kernels stream_triad --sizes 4K --samples 3 --rerun -q --db "$tdb" >"$tmp/out" 2>&1 || check "triad $i failed"
done
python3 - "$tdb" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
i, j = db.execute("SELECT id, json FROM point_sets ORDER BY id DESC LIMIT 1").fetchone()
d = json.loads(j)
for p in d["points"]: p.setdefault("details", {})["cut_off_by_signal"] = 2
db.execute("UPDATE point_sets SET json = ? WHERE id = ?", (json.dumps(d), i))
db.commit()
PY
name=$("$bin" history --db "$tdb" --point "stream_triad 3.98 KiB" --format json 2>/dev/null | jq -r '.figures[0].figure')
[[ $name == "stream_triad 3.98 KiB" ]] || { echo "SKIPPED part: the 4K triad point is named otherwise ($name)"; exit $fail; }
"$bin" history --db "$tdb" --point "$name" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 4 ]] || check "history --point of a latest run cut off: exit $code, expected 4"
grep -q "1 of 1 cut off by a signal in it" "$tmp/out" || check "history does not say the latest run was cut off"
grep -q "run 2: cut off by SIGINT, not judged" "$tmp/out" || check "history's CHANGES does not say run 2 was cut off"
grep -q "^  2  #2 .*  \*$" "$tmp/out" || check "history's RUNS does not mark run 2"
grep -q "^  \* cut off by a signal (run 2: '$name' by SIGINT)" "$tmp/out" || check "history's footnote is missing"
"$bin" history --db "$tdb" --point "$name" --format json >"$tmp/out" 2>&1
jq -e '.figures[0] | .runs[0].cut_off == null and .runs[1].cut_off == "SIGINT" and (.unjudged | length) == 1' \
  "$tmp/out" >/dev/null 2>&1 || check "history JSON does not carry the cut-off run"
exit $fail
