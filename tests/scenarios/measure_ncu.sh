#!/usr/bin/env bash
# measure --engine ncu and --ncu-csv (issue 13): a point per CUDA kernel from Nsight Compute.
# No GPU is needed: --ncu-csv reads a CSV in ncu's details layout (tests/data/ncu-details.csv),
# and --engine ncu drives a stand-in `ncu` on PATH that checks the command line it is given,
# writes that CSV to its --log-file and runs the program, so the driving, the program's exit
# status and the points are all checked. Bad uses: exit 2 with a message.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$src/tests/scenarios/lib/gpu_machine.sh"
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
fixture=$src/tests/data/ncu-details.csv
export ROOFLINE_DB=$tmp/results.db

expect_points() {  # FILE: the fixture's two kernels, daxpy's two launches summed
  python3 - "$1" <<'PY' || { echo "FAIL: the points of $1"; fail=1; }
import json, sys
pts = {p["name"]: p for p in json.load(open(sys.argv[1]))["points"]}
d = pts["daxpy(int, double, const double *, double *)"]
assert d["source"] == "ncu" and d["details"]["launches"] == 2, d
assert d["flops"] == 2 * 2 * 16777216, d["flops"]
assert abs(d["seconds"] - (152416 + 149920) * 1e-9) < 1e-12, d["seconds"]
assert d["bytes"]["DRAM"] == 2 * 402690048 and d["bytes"]["L2"] == 2 * 402751488, d["bytes"]
s = pts["sgemm_tiled(int, const float *, const float *, float *)"]
assert s["details"]["flops_fp32"] == 2 * 1073741824 + 2 * 1048576, s["details"]
assert s["details"]["flops_fp64"] == 0
PY
}

# A recorded CSV: points, the table, the store.
"$bin" measure --ncu-csv "$fixture" -o "$tmp/a.json" >"$tmp/out" 2>&1 || check "measure --ncu-csv failed"
expect_points "$tmp/a.json"
grep -q "daxpy(int, double, const double" "$tmp/out" || check "no table row for daxpy"
grep -q "tensor-core work was not recorded" "$tmp/out" || check "no word that tensor FLOPs were not recorded"
"$bin" list >"$tmp/out" 2>&1; grep -q "ncu CSV" "$tmp/out" || check "the points are not in the store"

# The H200's cuBLAS GEMMs (tests/data/gpu): each kernel with the roof it is judged on and the share
# of its FLOPs there, the tensor cores' included (the DGEMM on DMMA read "FP64 % 0.0"), and "-"
# for DRAM, which this CSV did not record (it read "DRAM GB/s 0"); the points carry no DRAM figure.
"$bin" measure --ncu-csv "$src/tests/data/gpu/h200-ncu-cublas-gemm-n2048-tensor.csv" -o "$tmp/gemms.json" --no-store \
  >"$tmp/out" 2>&1 || check "measure --ncu-csv of the H200 GEMMs failed"
grep -Eq "^sm90_xmma_gemm_f64f64.* fp64 tensor +100\.0 +- +-$" "$tmp/out" || check "the DGEMM's row: not fp64 tensor 100.0, DRAM -"
grep -Eq "^void cutlass::Kernel2.* fp32 +100\.0 +- +-$" "$tmp/out" || check "the SGEMM's row: not fp32 100.0, DRAM -"
grep -Eq "^sm90_xmma_gemm_f16f16.* fp16 tensor +100\.0 +- +-$" "$tmp/out" || check "the HGEMM's row: not fp16 tensor 100.0"
grep -Eq "^daxpy.* fp64 +100\.0 +2664 " <("$bin" measure --ncu-csv "$fixture" --no-store 2>&1) ||
  check "daxpy's measured DRAM rate is not in its row"
python3 - "$tmp/gemms.json" <<'PY' || { echo "FAIL: a figure not measured was written as 0"; fail=1; }
import json, sys
for p in json.load(open(sys.argv[1]))["points"]:
    assert "DRAM" not in p["bytes"], p["bytes"]
    assert not {"dram_read_bytes", "dram_written_bytes", "flops_fp16"} & set(p["details"]), p["details"]
PY

# On the GPU's roofline (a model with the example H100's roofs): daxpy bound by DRAM; on a
# CPU's, refused (a CUDA kernel would sit far above it).
gpu_machine "$src" "$tmp/gpu-machine.json"
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/a.json" --gpu 0 --format json >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/err" >>"$tmp/out"; check "report --gpu of the kernels failed"; }
# The fixture recorded no tensor-core metric: every verdict says its tensor work may be missing.
grep -q "measured without tensor-core metrics" "$tmp/err" || { cp "$tmp/err" "$tmp/out"; check "no warning that tensor work was not recorded"; }
python3 - "$tmp/out" <<'PY' || { echo "FAIL: the kernels on the GPU's roofline"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
# Kernels of several precisions: a section each, on the roofline of its own precision.
report = json.load(open(sys.argv[1]))
sections = [s["report"] for s in report["sections"]] if "sections" in report else [report]
pts = {p["point"].split("(")[0]: p for s in sections for p in s["points"]}
assert pts["daxpy"] in next(s["points"] for s in sections if s["roofline"]["precision"] == "fp64"), sections
d = pts["daxpy"]
assert d["binding_level"] == "DRAM" and abs(d["efficiency"] - 2 * 402690048 / 302336e-9 / 1e9 / 2950) < 1e-6, d
PY
"$bin" report --machine "$tmp/gpu-machine.json" --points "$tmp/a.json" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || check "report of CUDA kernels on a CPU roofline: exit $code, expected 2"
grep -q "is a CUDA kernel (measured by ncu): judge it against a GPU's roofline with --gpu N" "$tmp/out" ||
  check "no word on --gpu for CUDA kernels"
"$bin" plot --machine "$tmp/gpu-machine.json" --points "$tmp/a.json" -o "$tmp/c.svg" >"$tmp/out" 2>&1; code=$?
[[ $code -eq 2 ]] || check "plot of CUDA kernels without --gpu: exit $code, expected 2"
"$bin" plot --machine "$tmp/gpu-machine.json" --points "$tmp/a.json" --gpu 0 -o "$tmp/g.svg" >"$tmp/out" 2>&1 ||
  check "plot --gpu of the kernels failed"
# The CPU's roofline and the GPU's fp64 one: daxpy's, and the fp32 kernel's too, as the example GPU
# has no fp32 roof (one roofline, not the same one drawn twice).
grep -q "chart written to .*(2 machines, 2 points)" "$tmp/out" || check "the GPU chart lacks the kernels"
grep -q "ABOVE ITS ROOF" "$tmp/out" && check "the kernels were judged on the CPU's roofline, not the GPU's"

# A stand-in ncu: the roofline metrics, --csv, --print-units base, a log file, then the program.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/ncu" <<SH
#!/usr/bin/env bash
log= metrics= csv= units=
while [[ \$# -gt 0 ]]; do
  case \$1 in
    --csv) csv=1; shift ;;
    --print-units) units=\$2; shift 2 ;;
    --log-file) log=\$2; shift 2 ;;
    --metrics) metrics=\$2; shift 2 ;;
    --target-processes) shift 2 ;;
    --clock-control) clocks=\$2; shift 2 ;;
    -*) echo "stand-in ncu: unexpected option \$1" >&2; exit 9 ;;
    *) break ;;
  esac
done
[[ \$csv && \$units == base && \$log ]] || { echo "stand-in ncu: not asked for CSV in base units to a file" >&2; exit 9; }
[[ \${clocks:-} == none ]] || { echo "stand-in ncu: clocks locked (no --clock-control none)" >&2; exit 9; }
[[ \$metrics == *gpu__time_duration.sum* && \$metrics == *dram__bytes.sum* && \$metrics == *_op_dfma_pred_on.sum* ]] ||
  { echo "stand-in ncu: metrics missing: \$metrics" >&2; exit 9; }
"\$@"; code=\$?
cp "$fixture" "\$log"
exit \$code
SH
chmod +x "$tmp/bin/ncu"
PATH=$tmp/bin:$PATH "$bin" measure --engine ncu -o "$tmp/b.json" --no-store -- sh -c 'echo program ran' >"$tmp/out" 2>&1 ||
  check "measure --engine ncu failed"
grep -q "program ran" "$tmp/out" || check "the program did not run under ncu"
expect_points "$tmp/b.json"
# The program's exit status is passed through; the points are still written.
rm -f "$tmp/c.json"
PATH=$tmp/bin:$PATH "$bin" measure --engine ncu -o "$tmp/c.json" --no-store -- sh -c 'exit 3' >"$tmp/out" 2>&1
code=$?
[[ $code -eq 3 ]] || check "a failing CUDA program: exit $code, expected its 3"
[[ -s $tmp/c.json ]] || check "a failing program's kernels were not written"

# Bad uses.
bad() {  # EXPECTED-MESSAGE ARGS...: exit 2 with the message
  local want=$1; shift
  "$bin" measure "$@" >"$tmp/out" 2>&1; local code=$?
  [[ $code -eq 2 ]] || check "measure $*: exit $code, expected 2"
  grep -q -- "$want" "$tmp/out" || check "measure $*: no '$want'"
}
bad "give no command" --ncu-csv "$fixture" --no-store -- ./app
bad "for the CPU engines" --ncu-csv "$fixture" --functions --no-store
bad "not --engine perf" --ncu-csv "$fixture" --engine perf --no-store
bad "no CUDA program to measure" --engine ncu --no-store
if ! command -v ncu >/dev/null && [[ ! -x /usr/local/cuda/bin/ncu ]]; then
  bad "ncu is not on PATH" --engine ncu --no-store -- true
fi
printf 'a,b\n1,2\n' >"$tmp/not-ncu.csv"
"$bin" measure --ncu-csv "$tmp/not-ncu.csv" --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -eq 1 ]] || check "a CSV that is not ncu's: exit $code, expected 1"
grep -q "not-ncu.csv: no Nsight Compute CSV header" "$tmp/out" || check "no word that the CSV is not ncu's"
"$bin" measure --ncu-csv /dev/zero --no-store >"$tmp/out" 2>&1; code=$?
[[ $code -ne 0 && $code -lt 128 ]] || check "/dev/zero as the CSV: exit $code"
exit $fail
