#!/bin/bash
# Issue 12's acceptance figures in one go, on this machine: the roofs (bench --quick), then
# the reference kernels judged against them by `roofline report`:
#   - a STREAM triad sweep 1 KiB .. 1 GiB: the binding level and efficiency at each size
#     (it should step down through L1, L2, L3 and DRAM);
#   - STREAM/daxpy/dot at DRAM size (>= 85% / >= 70% of the binding roof expected);
#   - the three SP sums in L1 (under three ceilings, in order);
#   - AᵀB at M = N = 16 in DRAM, ours and OpenBLAS's, and the factor between them next to
#     the factor the roofline leaves OpenBLAS (attainable / OpenBLAS's performance).
# Writes the chart of the triad sweep to OUT/triad-sweep.svg. A benchmark, not a test: exits
# 0 whatever the figures. Machines are shared and noisy: read efficiencies and ratios.
# usage: bench/kernels-acceptance.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=${1:-build}
out=${2:-$(mktemp -d)}
bin=$build/roofline
[ -x "$bin" ] || { echo "no $bin (build first)" >&2; exit 1; }
mkdir -p "$out"
db=$out/acceptance.db
rm -f "$db"
echo "== roofs: roofline bench --quick" >&2
"$bin" bench --quick -q -o "$out/machine.json" --svg '' --db "$db" >/dev/null
run() {  # NAME ARGS...: kernels to OUT/NAME.json
  local name=$1; shift
  echo "== roofline kernels $*" >&2
  "$bin" kernels "$@" --rerun -q --db "$db" -o "$out/$name.json" >/dev/null
}
# The DRAM set first, nearest in time to the roofs it is judged against: this host's DRAM
# bandwidth drifts by 10-50% over minutes (other tenants).
run stream stream_copy stream_scale stream_add stream_triad daxpy ddot mvm_row --sizes 512M
run triad stream_triad --sizes 1K..1G:x4
run sums sum_sp_scalar sum_sp_unrolled sum_sp_simd --sizes 16K
run atb atb_ours atb_openblas --param m=16 --sizes 256M
echo "== roofline bench --full --only compute --precision sp --threads 1 (the SP ceilings)" >&2
"$bin" bench --full --only compute --precision sp --threads 1 -q -o "$out/sp-ceilings.json" --svg '' --no-store >/dev/null
"$bin" plot --machine "$out/machine.json" --points "$out/triad.json" -o "$out/triad-sweep.svg" -q
for set in triad stream sums atb; do
  "$bin" report --machine "$out/machine.json" --points "$out/$set.json" --format json -q >"$out/$set.report.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def rows(name):
    r = json.load(open(f"{out}/{name}.report.json"))
    return r["points"] if isinstance(r, dict) else r
def line(p):
    return (f"  {p['point']:<28} {p['performance']:>9.3g} GFLOP/s  of {p['attainable']:>9.3g} "
            f"({100 * p['efficiency']:5.1f}%)  bound by {p['binding_roof']}")
for name, title in [("triad", "STREAM triad sweep (binding level and efficiency)"),
                    ("stream", "Memory-bound kernels at DRAM size (roof: the fastest pattern)"),
                    ("sums", "SP sums in L1 (three ceilings)"), ("atb", "AᵀB, M = N = 16, in DRAM")]:
    print(title)
    for p in rows(name): print(line(p))
# The DRAM roof is the fastest pattern's traffic (write-allocate reads included); a kernel that
# only reads, or reads one array per array written, cannot use the bandwidth writes add on top
# of reads. Each kernel next to the DRAM roof of the pattern with its own mix of reads and
# writes (bench --quick measures load, copy and triad), both as traffic: the points' DRAM
# bytes include write-allocate reads, and so does the roof's gbs_write_allocate.
machine = json.load(open(f"{out}/machine.json"))
points = {p["name"]: p for p in json.load(open(f"{out}/stream.json"))["points"]}
own = {"stream_copy": "copy", "stream_scale": "copy", "stream_add": "triad", "stream_triad": "triad",
       "daxpy": "triad", "ddot": "load", "mvm_row": "load"}
print("The same kernels against the DRAM roof of their own pattern (traffic, write-allocate reads included):")
for p in rows("stream"):
    kernel, pt = p["point"].split()[0], points[p["point"]]
    roof = max((m for m in machine["memory"] if m["level"] == "DRAM" and m["pattern"] == own.get(kernel)
                and m["threads"] == pt["threads"]), key=lambda m: m["gbs"], default=None)
    if roof is None: continue
    gbs = pt["bytes"]["DRAM"] / pt["seconds"] / 1e9
    traffic = roof.get("gbs_write_allocate") or roof["gbs"]
    print(f"  {p['point']:<28} {gbs:6.1f} GB/s of DRAM {roof['pattern']:<5} {traffic:6.1f} ({100 * gbs / traffic:5.1f}%)")
ceilings = sorted((c["gflops"], c["name"]) for c in json.load(open(f"{out}/sp-ceilings.json"))["compute"]
                  if c["threads"] == 1 and c["mix"] in ("add", "chain"))  # the sums add, nothing else
print("SP sums between the single-thread SP add and dependent-chain ceilings of bench --full:")
for p in rows("sums"):
    below = [c for c in ceilings if c[0] < p["performance"]]
    above = [c for c in ceilings if c[0] >= p["performance"]]
    print(f"  {p['point']:<28} {p['performance']:>7.3g}  above {below[-1][1] + f' ({below[-1][0]:.3g})' if below else 'none'}"
          f", under {above[0][1]} ({above[0][0]:.3g})")
atb = {p["point"].split()[0]: p for p in rows("atb")}
ours, blas = atb["atb_ours"], atb["atb_openblas"]
print(f"AᵀB: ours / OpenBLAS = {ours['performance'] / blas['performance']:.2f}; "
      f"the roofline leaves OpenBLAS a factor {blas['attainable'] / blas['performance']:.2f} "
      f"(ours at {100 * ours['efficiency']:.0f}%, OpenBLAS at {100 * blas['efficiency']:.0f}% of the roof)")
print(f"chart: {out}/triad-sweep.svg")
PY
