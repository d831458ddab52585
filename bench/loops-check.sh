#!/usr/bin/env bash
# loops-check.sh — issue 36's "Done when" for `roofline measure --loops`, measured: a
# benchmark, not a test (its time shares and overhead depend on the machine; never in CI).
#
# bench/loops-check.c (a stencil sweep, a reduction and a scaled copy in one function; a
# triply nested multiply with and without blocking; a loop calling a function) is built at
# -O2 and -O3 with -g and measured three ways:
#   roofline measure --loops      the points under test (a series per function)
#   roofline measure --functions  the same program's functions (the overhead's yardstick, and
#                                 each function's FLOPs as the tool totals them)
#   roofline measure              the program built with -DUSE_MARKERS, a marker region
#                                 around each loop nest: the reference for the time shares
# and prints, per loop and figure: analytic (or reference), measured, ratio, verdict:
#   FLOPs      the loop's self FLOPs (vector body and remainder together) against the
#              analytic count: within 1%
#   DRAM rd    the loop's DRAM reads (cache_DRAM_read_bytes: the simulated caches' misses
#              to DRAM, write-allocate included; write-backs are the evicting loop's and are
#              not compared) against the arrays' compulsory traffic: within 5%
#   time %     the loop nest's share of the six nests' CPU time (sampled, its points' or
#              its function's samples, pooled over the sampled runs) against its marker
#              region's share of their native time (each region's median run): within 5
#              points; and the same inside marker regions (the marker build measured with
#              --loops: each region's loops and their time against the region's)
#   sum        a function's loop points' self FLOPs + the code outside its loops + its loops
#              without samples (no point) against its function's point, and that against
#              --functions' count of it: equal
#   overhead   measure --loops against measure --functions: the whole command's wall time, its
#              run under the Valgrind tool and its sampled run (said, not judged)
#   calls      the loop calling add_scaled: its point with its calls (the callee's counts, by the
#              call in its body) against 2N FLOPs and its reads of x, and its calls' FLOPs against
#              --functions' count of add_scaled: equal
# Exit status: 0 every verdict ok, 1 one is not, 2 a tool is missing.
#
# Usage: bench/loops-check.sh [--binary PATH] [--n N] [--m M] [--reps R] [--keep DIR]
#   N doubles per array (default 6000000: 48 MB, larger than this machine's L2 + L3, so each
#   streaming loop reads from DRAM), M x M matrices (default 128, M a multiple of 8, three of
#   them in L2), R repetitions of everything (default 10: more samples, and a longer run, for the time shares).
set -uo pipefail
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
binary=$repo/build/roofline n=6000000 m=128 reps=10 keep=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --n) n=$2; shift 2 ;;
    --m) m=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
for tool in cc python3 valgrind; do command -v $tool >/dev/null || { echo "missing $tool" >&2; exit 2; }; done
# shellcheck source=bench/probe-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
marker_program_setup "$binary" "$keep"
cp "$script_dir/loops-check.c" "$work/"
cd "$work" || exit 2

status=0
for opt in O2 O3; do
  cc -$opt -g -o lc_$opt loops-check.c || exit 2
  cc -$opt -g -DUSE_MARKERS -I"$repo/include" -o lcm_$opt loops-check.c -L"$marker_lib" -lroofline_marker \
    -Wl,-rpath,"$marker_lib" || exit 2
  start=$(date +%s.%N)
  "$binary" measure --loops --no-store --min-share 0 -o loops_$opt.json -- ./lc_$opt $n $m $reps >loops_$opt.log 2>&1 ||
    { echo "measure --loops failed: $work/loops_$opt.log" >&2; exit 1; }
  mid=$(date +%s.%N)
  "$binary" measure --functions --no-store --min-share 0 -o functions_$opt.json -- ./lc_$opt $n $m $reps \
    >functions_$opt.log 2>&1 || { echo "measure --functions failed: $work/functions_$opt.log" >&2; exit 1; }
  end=$(date +%s.%N)
  "$binary" measure --no-store -o markers_$opt.json -- ./lcm_$opt $n $m $reps >markers_$opt.log 2>&1 ||
    { echo "measure (markers) failed: $work/markers_$opt.log" >&2; exit 1; }
  "$binary" measure --loops --no-store --min-share 0 -o region_loops_$opt.json -- ./lcm_$opt $n $m $reps \
    >region_loops_$opt.log 2>&1 || { echo "measure --loops (markers) failed: $work/region_loops_$opt.log" >&2; exit 1; }
  python3 - "$opt" "$n" "$m" "$reps" "$mid - $start" "$end - $mid" <<'PY' || status=1
import json, re, sys
opt, n, m, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
loops_s, functions_s = eval(sys.argv[5]), eval(sys.argv[6])
src = open("loops-check.c").read().splitlines()
line = lambda tag: next(i + 1 for i, t in enumerate(src) if t.rstrip().endswith(f"/* {tag} */") or f"/* {tag} */ " in t or t.rstrip().endswith(f"/* {tag} */"))
loops = json.load(open(f"loops_{opt}.json"))["points"]
functions = {p["name"]: p for p in json.load(open(f"functions_{opt}.json"))["points"]}
regions = {p["name"]: p for p in json.load(open(f"markers_{opt}.json"))["points"]}
def loop_points(function, tag):
    first = line(tag)
    return [p for p in loops if p.get("series") == function and p["details"].get("loop_first_line") == first
            and not p["details"].get("loop_with_calls")]
def function_point(function):
    return next((p for p in loops if p["name"] == function), None)
rows, bad = [], 0
def row(loop, figure, analytic, measured, ok, ratio=None):
    global bad
    if ratio is None: ratio = measured / analytic if analytic else float("nan")
    bad += not ok
    rows.append((loop, figure, analytic, measured, ratio, "ok" if ok else "FAIL"))
# (function, marker comment of the loop's first line, region, analytic FLOPs, analytic DRAM reads)
R, N, M = reps, n, m
cases = [("sweep_reduce_copy", "sweep", "sweep", 4 * (N - 2) * R, 16 * N * R),
         ("sweep_reduce_copy", "reduce", "reduce", (N - 2) * R, 8 * N * R),
         ("sweep_reduce_copy", "copy", "copy", N * R, 16 * N * R),
         ("matmul", "matmul j", "matmul", 2 * M**3 * R, 16 * M * M * R),
         ("matmul_blocked", "blocked j", "blocked", 2 * M**3 * R, 16 * M * M * R)]
for function, tag, region, flops, dram in cases:
    pts = loop_points(function, tag)
    name = f"{function}: {tag} (:{line(tag)})"
    if not pts:
        row(name, "found", 1, 0, False); continue
    got = sum(p["flops"] for p in pts)
    # A machine loop of this source loop without samples (-O3's remainder after an
    # unroll-and-jam) has no point; its FLOPs are on its function's point. Counted here
    # when this is its function's only loop under test, said in the verdict.
    unsampled = function_point(function)["details"].get("loop_unsampled_flops", 0)
    if unsampled and sum(c[0] == function for c in cases) == 1:
        got += unsampled
        ok = abs(got / flops - 1) <= 0.01
        rows.append((name, "FLOPs", flops, got, got / flops, f"{'ok' if ok else 'FAIL'} ({unsampled:.0f} of an unsampled remainder)"))
        bad += not ok
    else:
        row(name, "FLOPs", flops, got, abs(got / flops - 1) <= 0.01)
    got = sum(p["details"]["cache_DRAM_read_bytes"] for p in pts)
    row(name, "DRAM rd B", dram, got, abs(got / dram - 1) <= 0.05)
# The loop calling a function: add_scaled's counts are its calling loop's, by the call in its
# body; the loop's point with its calls holds them (and the loop's own, none).
callee = functions.get("add_scaled", {}).get("flops", 0)
name = f"call_in_loop: calling (:{line('calling')})"
calling = [p for p in loops if p.get("series") == "call_in_loop" and p["details"].get("loop_with_calls")
           and p["details"].get("loop_first_line") == line("calling")]
if not calling:
    row(name, "found", 1, 0, False)
else:
    got = sum(p["flops"] for p in calling)
    row(name, "FLOPs with calls", 2 * N * R, got, abs(got / (2 * N * R) - 1) <= 0.01)
    got = sum(p["details"]["loop_call_flops"] for p in calling)
    row(name, "calls vs --functions", callee, got, got == callee)
    got = sum(p["details"]["cache_DRAM_read_bytes"] for p in calling)
    row(name, "DRAM rd B", 8 * N * R, got, abs(got / (8 * N * R) - 1) <= 0.05)
# Time shares: a nest's samples (the sweep's, reduction's and copy's own loops; a multiply's
# whole function: its nest and the few instructions around it; the calling loop: its point with
# its calls, its samples and add_scaled's) against its region's time.
def nest_seconds(function, tag):
    if function.startswith("matmul"):
        return function_point(function)["seconds"]
    if function == "call_in_loop":
        return sum(p["seconds"] for p in calling)
    return sum(p["seconds"] for p in loop_points(function, tag))
nests = [(f, tag, region) for f, tag, region, _, _ in cases] + [("call_in_loop", "calling", "calling")]
ours = {region: nest_seconds(f, tag) for f, tag, region in nests}
# A region's median run, not its fastest: the sampled times are a mean over runs, and the fastest of
# a streaming loop's runs lies further under its mean than a latency-bound loop's does.
def region_seconds(r):
    return regions[r]["details"].get("seconds_median", regions[r]["seconds"])
ref = {region: region_seconds(region) for _, _, region in nests if region in regions}
if len(ref) == len(ours):
    for region in ours:
        a, b = 100 * ref[region] / sum(ref.values()), 100 * ours[region] / sum(ours.values())
        row(f"{region} (nest)", "time %", a, b, abs(a - b) <= 5, b - a)
else:
    row("marker regions", "found", len(ours), len(ref), False)
# Inside marker regions (the program with a region around each nest, measured with --loops):
# each region's loops are its nest's, with the nest's FLOPs, and none of another nest's; their
# time (each sample's share by its instruction's runs in the region) against the region's.
in_regions = json.load(open(f"region_loops_{opt}.json"))["points"]
region_ours = {}
for function, tag, region, flops, _ in cases:
    name = f"{region}: {function}: {tag} (:{line(tag)})"
    pts = [p for p in in_regions if p.get("series") == f"{region}: {function}"
           and p["details"].get("loop_first_line") == line(tag) and not p["details"].get("loop_with_calls")]
    if not pts:
        row(name, "found in region", 1, 0, False); continue
    got = sum(p["flops"] for p in pts)
    fp = next((p for p in in_regions if p["name"] == f"{region}: {function}"), None)
    unsampled = fp["details"].get("loop_unsampled_flops", 0) if fp else 0
    row(name, "FLOPs in region", flops, got + unsampled, abs((got + unsampled) / flops - 1) <= 0.01)
    other_lines = {line(t) for f2, t, r2, _, _ in cases if f2 == function and r2 != region}
    others = [p["name"] for p in in_regions if p["name"].startswith(region + ": ") and p["flops"] > 0
              and (p.get("series") != f"{region}: {function}" or p["details"].get("loop_first_line") in other_lines)]
    row(name, "others in region", 0, len(others), not others)
    region_ours[region] = fp["seconds"] if function.startswith("matmul") and fp else sum(p["seconds"] for p in pts)
ref5 = {r: region_seconds(r) for r in region_ours if r in regions}
if region_ours and len(ref5) == len(region_ours):
    for region in region_ours:
        a, b = 100 * ref5[region] / sum(ref5.values()), 100 * region_ours[region] / sum(region_ours.values())
        row(f"{region} (in its region)", "time %", a, b, abs(a - b) <= 5, b - a)
# Sums: loop points' self FLOPs + outside == the function's point == --functions' count.
for function in ("sweep_reduce_copy", "matmul", "matmul_blocked"):
    fp = function_point(function)
    if fp is None:
        row(function, "sum", 1, 0, False); continue
    parts = (sum(p["flops"] for p in loops
                 if p.get("series") == function and p is not fp and not p["details"].get("loop_with_calls"))
             + fp["details"]["loop_outside_flops"] + fp["details"].get("loop_unsampled_flops", 0))
    row(f"{function}", "loops+rest FLOPs", fp["flops"], parts, parts == fp["flops"])
    theirs = functions.get(function, {}).get("flops")
    row(f"{function}", "vs --functions", theirs or 0, fp["flops"], theirs == fp["flops"])
rows.append(("overhead: measure wall s", "--loops/--functions", functions_s, loops_s, loops_s / functions_s, "said"))
def seconds_of(log, what):
    m = re.search(what + r"[^:]*: ([0-9.]+) s", open(log).read())
    return float(m.group(1)) if m else float("nan")
for label, what in (("overhead: Valgrind run s", r"run under the Valgrind tool"), ("overhead: sampled run s", r"sampling run")):
    a, b = seconds_of(f"functions_{opt}.log", what), seconds_of(f"loops_{opt}.log", what)
    rows.append((label, "--loops/--functions", a, b, b / a, "said"))
print(f"\n-O{opt[1]}: N={N} M={M} reps={R}")
print(f"{'loop':44} {'figure':20} {'analytic/ref':>14} {'measured':>14} {'ratio':>8}  verdict")
for loop, figure, a, b, ratio, verdict in rows:
    fmt = (lambda v: f"{v:14.2f}") if figure.startswith("time") or figure.startswith("--loops") else (lambda v: f"{v:14.6g}")
    r = f"{ratio:+8.1f}" if figure.startswith("time") else f"{ratio:8.4f}"
    print(f"{loop:44} {figure:20} {fmt(a)} {fmt(b)} {r}  {verdict}")
sys.exit(1 if bad else 0)
PY
done
[[ -n $keep ]] && echo "(files kept in $work)"
exit $status
