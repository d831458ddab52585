#!/usr/bin/env bash
# The reference kernels' FLOPs on paper (core/reference_kernels) against what our Valgrind
# tool counts when the kernel runs (issue 12): for every kernel of ours (not the libraries'),
# `roofline kernels` runs under the tool with a region on the member function each call goes
# through (--roofline-function, as measure --region-function passes it: counts only, no timing),
# and that region's FLOPs over its calls must equal the analytic count exactly.
# SKIPPED (exit 77) without valgrind, jq or the built tool.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tool_dir=$(dirname "$bin")/vgtool
[[ -x $tool_dir/roofline-amd64-linux ]] || { echo "SKIP: the Valgrind tool is not built in $tool_dir"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
# kernel, the member function its calls go through, its parameters (if any)
for spec in "stream_copy Streams::call" "stream_scale Streams::call" "stream_add Streams::call" \
            "stream_triad Streams::call" "daxpy Streams::call" "ddot Streams::call" \
            "sum_sp_scalar SumSp::call" "sum_sp_unrolled SumSp::call" "sum_sp_simd SumSp::call" \
            "jacobi2d Jacobi::call" "stencil3d Stencil3d::call" "mvm_row Mvm::call" "mvm_col Mvm::call" \
            "spmv_laplace3d Spmv::call" "dgemm_naive Gemm::call" "atb_ours Atb::call" "lbm_d3q19 Lbm::call" \
            "atb_ours Atb::call --param m=8" "atb_ours Atb::call --param m=40" \
            "spmv_random SpmvRandom::call --param nnzr=3"; do
  set -- $spec
  kernel=$1 fn=$2
  params=("${@:3}")
  label="$kernel${params[*]:+ ${params[*]}}"
  rm -f "$tmp/counts.json" "$tmp/paper.json"
  out=$(VALGRIND_LIB=$tool_dir timeout 300 valgrind -q --tool=roofline --roofline-out="$tmp/counts.json" \
        --roofline-function="$fn" "$bin" kernels "$kernel" "${params[@]}" --sizes 40K --samples 1 --no-store -q \
        -o "$tmp/paper.json" 2>&1) || { echo "FAIL: $label: exited $?"; echo "$out" | tail -5; failures=1; continue; }
  paper=$(jq '.points[0].flops' "$tmp/paper.json")
  counted=$(jq --arg f "<function $fn>" \
    '.regions[] | select(.name == $f) | ([.flops[][]] | add) / .calls' "$tmp/counts.json")
  if [[ -n $counted && $(jq -n "$counted == $paper") == true ]]; then
    echo "ok: $label: $paper FLOPs a call, on paper and counted"
  else
    echo "FAIL: $label: $paper FLOPs a call on paper, ${counted:-none} counted"; echo "$out" | tail -4; failures=1
  fi
done
exit $failures
