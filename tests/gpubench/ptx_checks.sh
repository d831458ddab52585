#!/usr/bin/env bash
# roofline-gpubench's kernels as nvcc compiles them, checked without a GPU (issue 32): PTX for
# sm_80, sm_90 and sm_90a (ptx_check.py says what is checked: MMAs per loop iteration of each tensor
# kernel, the fp64 one on the DMMA shape, FMA chains intact, L2/DRAM reads with ld.global.cg,
# every result stored), and ptxas assembles each. The checker's own test: the old kernels
# (dropped_mma.cu) must be refused. The SASS (HMMA/DMMA counts) needs cuobjdump, which
# machines without a GPU here lack: that check is left to a GPU machine.
# usage: ptx_checks.sh GPUBENCH.cu [NVCC]; exit 77 (skipped) without nvcc.
set -u
source_file=$1
nvcc=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
if [[ -z $nvcc || ! -x $nvcc ]]; then
  nvcc=$(command -v nvcc || true)
  [[ -z $nvcc && -n ${CUDA_HOME:-} && -x $CUDA_HOME/bin/nvcc ]] && nvcc=$CUDA_HOME/bin/nvcc
  [[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [[ -z $nvcc ]]; then
  echo "SKIP: no nvcc (set CUDA_HOME or PATH)"
  exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for arch in 80 90 90a; do
  echo "== sm_$arch"
  if ! "$nvcc" -std=c++17 -O3 -ptx -arch=sm_$arch "$source_file" -o "$tmp/gpubench-$arch.ptx" 2>"$tmp/err"; then
    echo "FAIL: nvcc -ptx -arch=sm_$arch"; sed 's/^/  | /' "$tmp/err"; fail=1; continue
  fi
  python3 "$here/ptx_check.py" "$tmp/gpubench-$arch.ptx" || fail=1
  ptxas=$(dirname "$nvcc")/ptxas
  if [[ -x $ptxas ]] && ! "$ptxas" -arch=sm_$arch "$tmp/gpubench-$arch.ptx" -o "$tmp/gpubench-$arch.cubin" 2>"$tmp/err"; then
    echo "FAIL: ptxas -arch=sm_$arch"; sed 's/^/  | /' "$tmp/err"; fail=1
  fi
done
echo "== the checker on the old kernels (must refuse each tensor kernel and the L1 reads)"
if "$nvcc" -std=c++17 -O3 -ptx -arch=sm_90 "$here/dropped_mma.cu" -o "$tmp/dropped.ptx" 2>"$tmp/err"; then
  python3 "$here/ptx_check.py" "$tmp/dropped.ptx" --expect-fail >"$tmp/out" || fail=1
  for kernel in mma_fp16 mma_bf16 mma_tf32 mma_fp64; do
    grep -Eq "^FAIL: $kernel: .*(MMAs|loops hold)" "$tmp/out" || { echo "FAIL: the old $kernel was not refused for its MMA count"; fail=1; }
    grep -q "^FAIL: $kernel: stores nothing" "$tmp/out" || { echo "FAIL: the old $kernel was not refused for storing nothing"; fail=1; }
  done
  grep -q "^FAIL: read_kernel: .*may use L1" "$tmp/out" || { echo "FAIL: the old read_kernel was not refused for its L1 loads"; fail=1; }
  (( fail )) && sed 's/^/  | /' "$tmp/out"
else
  echo "FAIL: nvcc -ptx dropped_mma.cu"; sed 's/^/  | /' "$tmp/err"; fail=1
fi
echo "== the checker on a wgmma kernel missing one wgmma (must refuse it)"
if [[ -s $tmp/gpubench-90a.ptx ]]; then
  # Drop the first wgmma.mma_async of the fp16 kernel (WgmmaKind 0): 7 an iteration, not 8.
  awk '/wgmma_kernelILNS_9WgmmaKindE0EE/ {inside = 1} inside && !done && /wgmma\.mma_async/ {done = 1; next} {print}' \
    "$tmp/gpubench-90a.ptx" >"$tmp/mutated.ptx"
  python3 "$here/ptx_check.py" "$tmp/mutated.ptx" --expect-fail >"$tmp/out" || fail=1
  grep -q "^FAIL: wgmma_kernel<fp16>: 7 wgmma an iteration, expected 8" "$tmp/out" ||
    { echo "FAIL: a wgmma kernel short of one wgmma was not refused"; sed 's/^/  | /' "$tmp/out"; fail=1; }
fi
exit $fail
