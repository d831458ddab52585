#!/usr/bin/env bash
# Issue 35: the advice each of nine small programs must lead with (a scalar chain, unrolled
# and SIMD reductions, daxpy in L1, L2 and DRAM, a naive and a blocked multiply, a stencil),
# from the table tests/advice_programs/advice.tsv. Each is built with its flags, measured with
# the instrument engine (exact counts; the cache simulation of the fixture machine,
# tests/data/advice-machine-zen4.json, so its bytes per level do not depend on this host's
# caches) and judged by `report` against a model of this host measured first (bench --full,
# 1 thread, every ceiling: the times are this host's, so are the roofs and ceilings that judge them); the first of its region's next steps
# (next_steps_typed in the JSON report) must be the table's, and none of its 'never' steps
# may appear, nor may the ceilings that sandwich it (upper_ceiling, lower_ceiling) be ones its
# counts contradict ('never' upper:WORDS, lower:WORDS). Prints program, flags, leading advice, the ceiling
# just above it and the figure that led to the advice.
# Time is measured natively, so performance is this host's: the leads were chosen so that
# what decides them is counted (scalar share, store share, binding level) or far from its
# threshold (see the table's notes in the programs' comments).
# SKIPPED (exit 77) without a C compiler, jq, python3, valgrind, the Valgrind tool, the
# marker library or a CPU that runs x86-64-v3 (AVX2, FMA) code.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIPPED: python3 is not installed"; exit 77; }
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo ||
  { echo "SKIPPED: this CPU cannot run the x86-64-v3 builds (AVX2, FMA)"; exit 77; }
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
lib=$(dirname "$bin")/lib
[[ -e $lib/libroofline_marker.so ]] || { echo "SKIPPED: the marker library (target roofline_marker) is not built"; exit 77; }
export ROOFLINE_DB=$tmp/results.db
cache_model=$src/tests/data/advice-machine-zen4.json
# Native times judged against another CPU's roofs give that CPU's advice: on a Zen 5 host
# (FP adds of 2 cycles, Zen 4's 3) simd_sum ran past the Zen 4 fixture's ADD-only and L1 load
# ceilings and was told to raise its intensity. So the roofs are this host's, measured now.
machine=$tmp/host-model.json
out=$("$bin" bench --full --threads 1 --no-store -o "$machine" 2>&1) || fail "bench --full --threads 1 on this host failed"
programs=$src/tests/advice_programs
table=""
rows=0

# One attempt at a row: measure, report, judge; sets $line (the row's line, or why it failed).
# 0 passed, 1 the advice was wrong, 2 measure or report failed ($out says why).
judge_row() {
  # shellcheck disable=SC2086
  out=$("$bin" measure --engine instrument --no-store -q --machine "$machine" --cache-model "$cache_model" \
    -o "$name.points.json" -- "./$name" $args 2>&1) || return 2
  out=$("$bin" report --machine "$machine" --points "$name.points.json" --format json 2>&1 >"$name.report.json") || return 2
  line=$(python3 - "$name" "$flags" "$lead" "$never" "$name.report.json" "$name.points.json" 2>&1 <<'PY'
import json, sys
name, flags, lead, never, report, points = sys.argv[1:]
rep = json.load(open(report))
# The program's one marker region (the whole program is "(program)").
regions = [p for p in rep["points"] if p["point"] != "(program)"]
if len(regions) != 1:
    sys.exit(f"{name}: expected one region, got {[p['point'] for p in rep['points']]}")
a = regions[0]
steps, texts = a["next_steps_typed"], a["next_steps"]

def identity(step):
    if step["kind"] == "lift_ceiling": return "lift_ceiling:" + step["ceiling"]["category"]
    if step["kind"] == "raise_intensity": return "raise_intensity:" + step["level"]
    return step["kind"]

ids = [identity(s) for s in steps]
advice = "\n    ".join(f"{i + 1}. {t}" for i, t in enumerate(texts))
if not ids or ids[0] != lead:
    sys.exit(f"{name}: leads with {ids[0] if ids else 'nothing'}, expected {lead}\n    {advice}")
sandwich = {side: (a[side + "_ceiling"] or {}).get("name", "") for side in ("upper", "lower")}
for bad in filter(None, never.split(",")):
    side = bad.split(":", 1)[0]
    if side in sandwich:
        if bad[len(side) + 1:] in sandwich[side]:
            sys.exit(f"{name}: its {side} ceiling is '{sandwich[side]}', a ceiling its counts contradict\n    {advice}")
    elif bad.startswith("text:"):
        if any(bad[5:] in t for t in texts): sys.exit(f"{name}: its advice says '{bad[5:]}'\n    {advice}")
    elif bad in ids:
        sys.exit(f"{name}: advised {bad}, which it must not be\n    {advice}")

# The figure that led to the first step.
first, perf = steps[0], a["performance"]
if first["kind"] == "vectorize":
    why = f"{first['scalar_share']:.0%} of the FLOPs scalar (counted)"
elif first["kind"] == "split_chain":
    why = f"{perf:.3g} GFLOP/s <= one chain's {first['cap']:.3g}, stores {first['store_share']:.1%} of its bytes"
elif first["kind"] == "lift_ceiling":
    why = f"{perf:.3g} GFLOP/s under the {first['ceiling']['name']} ceiling ({first['cap']:.3g} here)"
elif first["kind"] == "non_temporal_stores":
    why = (f"{first['unread_write_allocate_share']:.1%} of its DRAM bytes are write-allocate fills "
           f"never read (counted), bound by {a['binding_roof']}")
elif first["kind"] == "raise_intensity":
    why = (f"bound by {a['binding_roof']} at I = {a['intensity']:.3g} FLOP/B (counted), "
           f"{a['efficiency']:.0%} of its {first['cap']:.3g} GFLOP/s")
    if "lines_used_share" in first:
        why += f", {first['lines_used_share']:.0%} of its lines' bytes used"
else:
    why = f"{perf:.3g} of {a['attainable']:.3g} GFLOP/s"
print(f"{name:<15} {flags:<42} {ids[0]:<22} {sandwich['upper'] or '-':<18} {why}")
PY
  ) || return 1
}

while IFS=$'\t' read -r name source flags args lead never; do
  [[ -z $name || $name == \#* ]] && continue
  rows=$((rows + 1))
  [[ $args == - ]] && args=""  # an empty field would vanish: read folds runs of tabs
  # shellcheck disable=SC2086  # flags and args are word lists
  cc $flags -o "$name" "$programs/$source" -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" ||
    fail "$name: cannot build $source with $flags"
  # The time is this host's: a row whose advice comes out wrong is measured once more, so one
  # run slowed by a busy host does not fail it; the same wrong advice twice does.
  status=0
  judge_row || status=$?
  if ((status == 1)); then
    first=$line
    status=0
    judge_row || status=$?
    ((status == 0)) && line+="  (second run; the first: ${first##*: })"
  fi
  ((status == 2)) && fail "$name: measure or report failed"
  ((status == 1)) && { out=$line; fail "the advice of $name"; }
  table+="$line"$'\n'
done <"$programs/advice.tsv"

((rows >= 8)) || fail "the table has $rows programs, expected at least 8"
printf '%-15s %-42s %-22s %-18s %s\n' program flags "leads with" "upper ceiling" "because"
printf '%s' "$table"
echo PASS
