#!/usr/bin/env bash
# compare and history see real changes, symmetrically (audit h40), on the audit's own model
# (tests/data/compare/epyc-vm.json: one thread of a KVM guest's quick run, whose roofs each had
# a disturbed sample far below them):
# - every compute roof 30% lower is SLOWER roof by roof (a spread taken from the worst sample
#   said "same (change < 44.1%)"), and --fail-on-slower exits 3;
# - the DRAM roofs cut by 40% and then restored: history flags both the -40% and the +67%;
# - history --host H takes the CPU of H's latest model, not that of the newest model in the
#   store (another host's);
# - an L2 roof measured at 512 KiB alone (bench --working-set) is a series of its own, not a
#   -20% step of the default run's L2 roof; compare shows the two apart and does not flag them.
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
def scaled(model, kind, factor, level=None):
    out = copy.deepcopy(model)
    for r in out[kind]:
        if level and r["level"] != level: continue
        for k in ("gflops", "gbs", "gbs_write_allocate"):
            if k in r: r[k] *= factor
        for k in ("median", "min", "max"): r["stats"][k] *= factor
    return out
json.dump(scaled(m, "compute", 0.7), open(f"{tmp}/compute70.json", "w"))
json.dump(scaled(m, "memory", 0.6, "DRAM"), open(f"{tmp}/dram60.json", "w"))
# bench --working-set 16kB,512kB,8MB,256MB: the L2 roof at 512 KiB, the only L2 size measured.
ws = copy.deepcopy(m)
for r in ws["memory"]:
    if r["level"] == "L2" and r["pattern"] == "copy":
        r["working_set_bytes"], r["gbs"] = 524288, 94.3
        for k in ("median", "min", "max"): r["stats"][k] *= 94.3 / 118.06470091709048
for c in ws["curves"]:
    c["points"] = [p for p in c["points"] if p[0] != 65536] + ([[524288, 94.3]] if c["pattern"] == "copy" else [])
    c["points"].sort()
json.dump(ws, open(f"{tmp}/l2_512k.json", "w"))
other = copy.deepcopy(m)
other["environment"]["hostname"] = "spr1"
other["cpu"]["model"] = "Intel(R) Xeon(R) Platinum 8480+"
json.dump(other, open(f"{tmp}/spr1.json", "w"))
PY

# compare: a 30% drop of every compute roof, with quiet bursts and one bad sample each.
"$bin" compare "$base" "$tmp/compute70.json" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 3 ]] || check "--fail-on-slower with every compute roof 30% lower: exit $code, expected 3"
grep -Eq "^dp avx512 fma 1t +GFLOP/s .* 0\\.700 +A's CV +SLOWER \\(-30%\\)" "$tmp/out" || check "the headline dp roof's -30% is not SLOWER"
[[ $(grep -Ec 'GFLOP/s .*SLOWER \(-30%\)' "$tmp/out") -eq 4 ]] || check "not every compute roof is SLOWER"
grep -Eq 'GB/s .*SLOWER|GB/s .*FASTER' "$tmp/out" && check "an unchanged memory roof was called a change"
# its spread is the CV of its samples (9.6%), wider than its top bursts: the band is made of it
grep -Eq "^L2 copy 1t +GB/s +118 \\(4 bursts, CV 9\\.6%\\) .* A's CV +same \\(B/A inside 0\\.912-1\\.096\\)" "$tmp/out" ||
  check "an unchanged roof does not show its spread and the band of no change"
"$bin" compare "$base" "$tmp/dram60.json" >"$tmp/out" 2>&1 || check "compare of the DRAM cut failed"
[[ $(grep -Ec '^DRAM .*SLOWER \(-40%\)' "$tmp/out") -eq 3 ]] || check "not every DRAM roof cut by 40% is SLOWER"
"$bin" compare "$tmp/dram60.json" "$base" >"$tmp/out" 2>&1 || check "compare of the DRAM restored failed"
[[ $(grep -Ec '^DRAM .*FASTER \(\+67%\)' "$tmp/out") -eq 3 ]] || check "not every DRAM roof restored by 67% is FASTER"

# compare: the L2 roof at 512 KiB alone is another roof than the default run's.
"$bin" compare "$base" "$tmp/l2_512k.json" --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] || check "roofs at other working sets made --fail-on-slower exit $code"
grep -Eq '^L2 copy 1t at 64 KiB +GB/s .*only in A \(the other run.s is at another working set\)' "$tmp/out" ||
  check "A's L2 roof is not shown with its working set"
grep -A1 '^L2 copy 1t at 64 KiB' "$tmp/out" | grep -Eq '^L2 copy 1t at 512 KiB +GB/s .*only in B' ||
  check "B's L2 roof at 512 KiB is not shown next to A's"
grep -q "measured at working sets the other run did not measure" "$tmp/out" || check "no note says why they are apart"
"$bin" compare "$base" "$tmp/l2_512k.json" --format json >"$tmp/out" 2>&1 || check "compare --format json failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: compare's JSON of roofs at other working sets"; fail=1; }
import json, sys
roofs = {r["roof"]: r for r in json.load(open(sys.argv[1]))["roofs"]}
a, b = roofs["L2 copy 1t at 64 KiB"], roofs["L2 copy 1t at 512 KiB"]
assert a["b"] is None and a["other_working_set"] and a["working_set_bytes_a"] == 65536, a
assert b["a"] is None and b["other_working_set"] and b["working_set_bytes_b"] == 524288, b
l2 = roofs["L2 load 1t"]  # its band is 1 + its samples' CV (6.4%), wider than its top bursts and the 5% floor
assert abs(l2["band"]["high"] - (1 + l2["a"]["cv"])) < 1e-12 and l2["band_from"] == "A's CV" and l2["judged"], l2
PY

# history over a store: vm, vm with DRAM cut, vm, then spr1 (the newest), then vm at 512 KiB.
db=$tmp/r.db
source "$src/tests/scenarios/lib/model_store.sh"
store_models "$bin" "$db" "$base" "$tmp/dram60.json" "$base" "$tmp/spr1.json" || { echo "FAIL: cannot make or fill the store"; fail=1; }
"$bin" history --db "$db" >"$tmp/out" 2>&1 || check "history of the newest model's machine failed"
grep -q "History of the roofs of Intel(R) Xeon(R) Platinum 8480+ on host spr1" "$tmp/out" || check "history without --host is not the newest model's"
"$bin" history --db "$db" --host vm >"$tmp/out" 2>&1 || check "history --host vm took another host's CPU"
grep -q "History of the roofs of AMD EPYC on host vm" "$tmp/out" || check "history --host vm is not vm's"
for roof in "DRAM copy 1t" "DRAM load 1t" "DRAM triad 1t"; do
  grep -Eq "^$roof +GB/s +3 .*run 2: -40% \(x0\.600, outside [0-9.]+-[0-9.]+\); run 3: \+67% \(x1\.667, outside " "$tmp/out" ||
    check "$roof: the -40% drop and the +67% recovery are not both flagged"
done
grep -Eq '^dp avx512 fma 1t +GFLOP/s +3 .*none beyond the spread' "$tmp/out" || check "an unchanged roof was flagged"
"$bin" history --db "$db" --host nope >"$tmp/out" 2>&1 && check "history of a host never stored exited 0"
grep -q "no stored machine of host 'nope'" "$tmp/out" || check "history of a host never stored: unclear message"

python3 - "$db" "$tmp/l2_512k.json" <<'PY' || { echo "FAIL: cannot add to the store"; fail=1; }
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
m = json.load(open(sys.argv[2]))
db.execute("INSERT INTO machines (created, hostname, cpu_model, mode, partial, schema, json) VALUES (?, ?, ?, 'quick', 0, ?, ?)",
           ("2026-11-26T00:00:00Z", m["environment"]["hostname"], m["cpu"]["model"], m["schema"], json.dumps(m)))
db.commit()
PY
"$bin" history --db "$db" --host vm --fail-on-slower >"$tmp/out" 2>&1; code=$?
[[ $code -eq 0 ]] || check "a roof at another working set made history --fail-on-slower exit $code"
grep -Eq '^L2 copy 1t at 64 KiB +GB/s +3 .*none beyond the spread' "$tmp/out" || check "the default runs' L2 roof is not a series of its own"
grep -A1 '^L2 copy 1t at 64 KiB' "$tmp/out" | grep -Eq '^L2 copy 1t at 512 KiB +GB/s +1 ' ||
  check "the L2 roof at 512 KiB is not a series of its own next to it"
grep -Eq '^L2 load 1t +GB/s +4 ' "$tmp/out" || check "a roof at the same working set in every run was split"
exit $fail
