#!/usr/bin/env bash
# Issue 32: CUDA kernels of several precisions are each judged on the roofline of their own
# precision. The H200's measured model and the ncu points of five cuBLAS GEMMs (fp64 on DMMA,
# fp32 on FFMA, tf32, fp16 and bf16 on wgmma; tests/data/gpu): report --gpu 0 gives a section
# per precision, each GEMM under the tensor (or FMA) roof of its own precision at 85-100% of
# it; on one roofline (--gpu 0:fp32) the tensor GEMMs of other precisions are named, not judged
# (they would sit far above it), and without a tensor roof of their own they are not judged at
# all. plot the same.
set -u
bin=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
data=$src/tests/data/gpu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { echo "FAIL: $1"; sed 's/^/  | /' "$tmp/out"; fail=1; }
export ROOFLINE_DB=$tmp/results.db
"$bin" report --machine "$data/h200-machine.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0 \
  --format json >"$tmp/out" 2>"$tmp/err" || check "report --gpu 0 failed"
python3 - "$tmp/out" <<'PY' || { echo "FAIL: the sections"; sed 's/^/  | /' "$tmp/out"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
want = {"sm90_xmma_gemm_f64f64": ("fp64", "FP64 tensor peak"), "sm80_xmma_gemm_f32f32": ("fp32", "FP32 peak"),
        "tf32f32": ("tf32", "TF32 tensor peak"), "nvjet_sm90_hss": ("fp16", "FP16 tensor peak"),
        "nvjet_sm90_tss": ("bf16", "BF16 tensor peak")}
seen = set()
for s in d["sections"]:
    precision = s["report"]["roofline"]["precision"]
    for p in s["report"]["points"]:
        if p["point"] == "whole offload":
            continue
        key = next(k for k in want if k in p["point"])
        assert (precision, p["binding_roof"]) == want[key], (p["point"], precision, p["binding_roof"])
        assert 0.85 <= p["efficiency"] <= 1.0, (p["point"], p["efficiency"])
        seen.add(key)
assert seen == set(want), seen
PY
"$bin" report --machine "$data/h200-machine.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0:fp32 \
  >"$tmp/out" 2>&1 || check "report --gpu 0:fp32 failed"
# One fp32 roofline: the tensor GEMMs of other precisions are named, never judged on it.
grep -q "not judged: their FLOPs ran on the fp16 tensor cores: only the fp16 tensor roof judges them" "$tmp/out" ||
  check "one fp32 roofline: the fp16 GEMM not said to be judged only on its own tensor roof"
grep -qi "above roof" "$tmp/out" && check "a tensor GEMM judged on the fp32 FMA roof"
grep -q "^== kernels in" "$tmp/out" && check "--gpu 0:fp32 asked for one roofline, got sections"
# The model bench --gpu made from the gpubench run whose tensor rows the limit guard refused: no
# tensor roof at all. No tensor GEMM is judged (on an FMA roof the DGEMM read 190%, the HGEMM
# 760%, the TF32 one 1295% on fp64's), each is named with the missing roof; the SGEMM is judged.
python3 - "$data/h200-machine.json" "$tmp/no-tensor.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for g in m["gpus"]:
    g["compute"] = [c for c in g["compute"] if not c.get("tensor")]
json.dump(m, open(sys.argv[2], "w"))
PY
"$bin" report --machine "$tmp/no-tensor.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0 \
  >"$tmp/out" 2>&1 || check "report --gpu 0 on a model without tensor roofs failed"
grep -qi "above roof" "$tmp/out" && check "a tensor GEMM judged on an FMA roof"
for p in fp64 tf32 fp16 bf16; do
  grep -q "not judged: their FLOPs ran on the $p tensor cores and .* has no $p tensor roof" "$tmp/out" ||
    check "no word that the $p GEMM has no $p tensor roof"
done
grep -q "sm80_xmma_gemm_f32f32.* FP32 peak (compute)" "$tmp/out" || check "the SGEMM not judged on the fp32 FMA roof"
"$bin" plot --machine "$tmp/no-tensor.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0 \
  -o "$tmp/no-tensor.svg" >"$tmp/out" 2>&1 || check "plot --gpu 0 on a model without tensor roofs failed"
grep -qi "above" "$tmp/out" && check "plot: a tensor GEMM drawn on an FMA roof"
grep -q "left out: their FLOPs ran on the fp16 tensor cores" "$tmp/out" || check "plot: the fp16 GEMM not said to be left out"
# plot --gpu 0 draws a GPU roofline of each precision (five here, and the CPU's) and places each
# GEMM under its own: no point above its roof; the SVG is well-formed XML (a cross marker's
# stroke-width was written twice, and browsers showed an error instead of the chart).
"$bin" plot --machine "$data/h200-machine.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0 \
  -o "$tmp/gemms.svg" >"$tmp/out" 2>&1 || check "plot --gpu 0 failed"
grep -q "chart written to .*(6 machines, 6 points)" "$tmp/out" || check "not a roofline of each precision"
grep -qi "above" "$tmp/out" && check "a GEMM above the roof of its own precision"
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$tmp/gemms.svg" 2>"$tmp/out" ||
  check "the chart is not well-formed XML"
"$bin" plot --machine "$data/h200-machine.json" --points "$data/h200-points-cublas-gemm-n4096.json" --gpu 0:fp32 \
  -o "$tmp/one.svg" >"$tmp/out" 2>&1 || check "plot --gpu 0:fp32 failed"
grep -q "left out: their FLOPs ran on the fp16 tensor cores" "$tmp/out" || check "one fp32 roofline: the fp16 GEMM drawn on it"
grep -qi "above" "$tmp/out" && check "one fp32 roofline: a tensor GEMM above it"
[[ $fail -eq 0 ]] && echo "ok: five GEMMs, each under the roof of its own precision (85-100%), in report and plot"
exit $fail
