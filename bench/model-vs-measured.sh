#!/usr/bin/env bash
# model-vs-measured.sh — `roofline model`'s predictions of loops described on paper against
# the same loops timed and counted: a benchmark, not a test (times depend on the machine and
# its load; nothing here is asserted, ratios are printed).
#
# The loops are bench/model-vs-measured.c (a 2-D Jacobi at three sizes, a 3-D Jacobi, a naive
# and a blocked transpose, a histogram in L2 and past L3, row- and column-major matrix-vector
# products, a strided sum, dot products in L2 and past L3, a sum in double and in float),
# built with -O3 -march=x86-64-v3 (no -ffast-math), each also written as a kernel spec the way
# examples/README.md teaches (bench/model-vs-measured/*.yaml, examples/kernels/dmvm.yaml and
# dot.yaml). For each loop:
#   time      the program's own timing of one pass over its data, the fastest of --reps
#             passes after a warm-up pass (a pass repeated over data it has touched, as
#             `model` predicts it), against `model`'s predicted time; ratio = model / measured
#             (1 = exact, above 1: the model promised more time than the loop took, under 1:
#             the model is optimistic; a roofline prediction is an upper bound on speed, so
#             under 1 is what it should give)
#   bytes     `model`'s bytes per iteration at L1, L2, L3 and DRAM against those the
#             instrument engine's cache simulation counted for one pass after the warm-up
#             (`roofline measure --engine instrument --loops`, the marker region "kernel"
#             around the timed passes): ratio = model / simulated.
# The machine: `roofline bench --quick --threads 1` run here (about 10 s), or --machine FILE.
# Everything runs on one thread.
#
# Usage: bench/model-vs-measured.sh [--binary PATH] [--machine FILE] [--reps R] [--only NAME]
#                                   [--no-sim] [--keep DIR]
#   --only NAME   one loop (a row name below); --no-sim skips the Valgrind runs (bytes)
# Exit status: 0 done, 1 a run failed, 2 a tool is missing.
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
binary=$repo/build/roofline machine="" reps=10 only="" sim=1 keep=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --machine) machine=$(readlink -f "$2"); shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --no-sim) sim=0; shift ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
for tool in cc python3; do command -v $tool >/dev/null || { echo "missing $tool" >&2; exit 2; }; done
[[ $sim == 0 ]] || command -v valgrind >/dev/null || { echo "missing valgrind (or give --no-sim)" >&2; exit 2; }
# shellcheck source=bench/probe-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
marker_program_setup "$binary" "$keep"
cd "$work" || exit 2

cc -O3 -march=x86-64-v3 -g -o mvm "$script_dir/model-vs-measured.c" || exit 2
cc -O3 -march=x86-64-v3 -g -DUSE_MARKERS -I"$repo/include" -o mvm_markers "$script_dir/model-vs-measured.c" \
  -L"$marker_lib" -lroofline_marker -Wl,-rpath,"$marker_lib" || exit 2
if [[ -z $machine ]]; then
  machine=$work/machine.json
  "$binary" bench --quick --threads 1 --no-store -q -o "$machine" --svg '' >bench.log 2>&1 ||
    { echo "roofline bench failed: $work/bench.log" >&2; exit 1; }
fi

# row name | program kernel, size and a factor of --reps for short loops | spec file | kernel name in the spec
cases=(
  "jacobi2d-L2|jacobi2d 200 100|$script_dir/model-vs-measured/jacobi2d.yaml|jacobi2d-L2"
  "jacobi2d-L3|jacobi2d 1000 10|$script_dir/model-vs-measured/jacobi2d.yaml|jacobi2d-L3"
  "jacobi2d-mem|jacobi2d 4000|$script_dir/model-vs-measured/jacobi2d.yaml|jacobi2d-mem"
  "jacobi3d|jacobi3d 256|$script_dir/model-vs-measured/jacobi3d.yaml|jacobi3d"
  "transpose-naive|transpose_naive 4000|$script_dir/model-vs-measured/transpose.yaml|transpose-naive"
  "transpose-blocked|transpose_blocked 4000|$script_dir/model-vs-measured/transpose.yaml|transpose-blocked"
  "histogram-L2|histogram 20000000|$script_dir/model-vs-measured/histogram.yaml|histogram-L2"
  "histogram-mem|histogram:16777216 20000000|$script_dir/model-vs-measured/histogram.yaml|histogram-mem"
  "dmvm-row|dmvm_row 8000|$repo/examples/kernels/dmvm.yaml|dmvm-row-major"
  "dmvm-col|dmvm_col 8000|$repo/examples/kernels/dmvm.yaml|dmvm-column-major"
  "strided-sum|strided_sum 4000000|$script_dir/model-vs-measured/strided_sum.yaml|strided-sum"
  "dot-L2|dot 32768 100|$script_dir/model-vs-measured/dot_L2.yaml|dot-L2"
  "dot-mem|dot 20000000|$repo/examples/kernels/dot.yaml|dot"
  "sum-double|sum_double 20000000|$script_dir/model-vs-measured/sum.yaml|sum-double"
  "sum-float|sum_float 20000000|$script_dir/model-vs-measured/sum.yaml|sum-float"
)

: >rows.tsv
status=0
for c in "${cases[@]}"; do
  IFS='|' read -r row prog spec kname <<<"$c"
  [[ -z $only || $only == "$row" ]] || continue
  read -r kernel size passes <<<"$prog"
  # Loops of microseconds get more passes, so the fastest is not one a timer tick disturbed.
  r=$((reps * ${passes:-1}))
  ./mvm $kernel $size $r >"native_$row.txt" 2>&1 || { echo "$row: the program failed: $work/native_$row.txt" >&2; status=1; continue; }
  "$binary" model "$spec" --machine "$machine" --threads 1 --format json >"model_$row.json" 2>"model_$row.err"
  [[ -s model_$row.json ]] || { echo "$row: roofline model failed: $work/model_$row.err" >&2; status=1; continue; }
  if [[ $sim == 1 ]]; then
    "$binary" measure --engine instrument --loops --no-store -q --repeat 1 --warmup 0 --machine "$machine" \
      -o "sim_$row.json" -- ./mvm_markers $kernel $size 1 >"sim_$row.log" 2>&1 ||
      { echo "$row: roofline measure failed: $work/sim_$row.log" >&2; status=1; }
  fi
  printf '%s\t%s\t%s\n' "$row" "$kname" "$(cat "native_$row.txt")" >>rows.tsv
done

python3 - "$sim" <<'PY' || status=1
import json, os, re, sys
sim = sys.argv[1] == "1"
levels = ["L1", "L2", "L3", "DRAM"]
rows = []
for line in open("rows.tsv"):
    row, kname, native = line.rstrip("\n").split("\t")
    got = dict(kv.split("=", 1) for kv in native.split())
    model = json.load(open(f"model_{row}.json"))
    k = next(k for k in model["kernels"] if k["name"] == kname)
    simulated = None
    if sim and os.path.exists(f"sim_{row}.json"):
        pts = json.load(open(f"sim_{row}.json"))["points"]
        region = next((p for p in pts if p["name"] == "kernel"), None)
        if region:
            it = float(got["iterations"])
            simulated = {l: region["bytes"].get(l, 0) / it for l in levels}
    rows.append((row, k, got, simulated))

print("time of one pass: model / measured (model: its predicted time; with chain: the time at the")
print("lower of the prediction and the 'one chain' rate model gives a scalar accumulator)")
print(f"{'loop':18} {'bound by':22} {'model s':>9} {'measured s':>10} {'model/meas':>10} "
      f"{'model GF/s':>10} {'chain GF/s':>10} {'with chain':>10} {'meas GF/s':>9}  warnings")
for row, k, got, _ in rows:
    t_model, t_meas = k.get("seconds") or 0, float(got["seconds"])
    chain = (k.get("one_chain") or {}).get("performance")
    t_chain = t_model * k["performance"] / chain if chain else t_model
    note = "; ".join(k.get("warnings", []))
    print(f"{row:18} {k['binding_roof'][:22]:22} {t_model:9.3g} {t_meas:10.3g} {t_model / t_meas:10.2f} "
          f"{k['performance']:10.3g} {(f'{chain:.3g}' if chain else '-'):>10} {t_chain / t_meas:10.2f} "
          f"{float(got['gflops']):9.3g}  {note[:100]}")
if sim:
    print()
    print("bytes per iteration: model / simulated (instrument engine, one warm pass)")
    print(f"{'loop':18} " + " ".join(f"{l + ' model':>10} {l + ' sim':>8} {'ratio':>6}" for l in levels))
    for row, k, _, s in rows:
        if s is None:
            print(f"{row:18} (no simulation)"); continue
        cells = []
        for l in levels:
            m = k["bytes_per_iteration"].get(l, 0.0)
            ratio = f"{m / s[l]:6.2f}" if s[l] > 0 else ("     -" if m == 0 else "   inf")
            cells.append(f"{m:10.3g} {s[l]:8.3g} {ratio}")
        print(f"{row:18} " + " ".join(cells))
    print("(an AMD L3 is a victim cache: lines from DRAM go straight to L2, so data streaming from"
          " memory shows no L3 bytes in the simulation; docs/METHODS.md, 'What the cache simulation counts')")
PY
exit $status
