#!/usr/bin/env bash
# roofline-gpubench's tensor kernels in the machine code the GPU runs (issue 32), checked by
# sass_check.py: each kernel's loop holds the HGMMA/QGMMA/IGMMA/DMMA/HMMA it is credited with.
#   sass_checks.sh fixture   the H200's SASS (tests/data/gpu), and the same with one HGMMA taken
#                            out of the fp16 wgmma loop, which must be refused; needs python3 only
#   sass_checks.sh GPUBENCH  the SASS of that build (cuobjdump -sass); exit 77 (skipped) without
#                            cuobjdump, which comes with CUDA on GPU machines, not always elsewhere
set -u
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ $1 == fixture ]]; then
  fixture=$here/../data/gpu/h200-gpubench-tensor-kernels.sass.xz
  python3 "$here/sass_check.py" "$fixture" || exit 1
  echo "== the checker on the fp16 wgmma kernel short of one HGMMA (must refuse it)"
  python3 -c 'import lzma, sys; sys.stdout.write(lzma.open(sys.argv[1], "rt").read())' "$fixture" | awk '/arch = / {arch = ($3 == "sm_90a")} arch && /wgmma_kernelILNS_9WgmmaKindE0EE/ {inside = 1}
    inside && !done && /HGMMA/ {done = 1; next} {print}' >"$tmp/mutated.sass"
  python3 "$here/sass_check.py" "$tmp/mutated.sass" --expect-fail >"$tmp/out" || { cat "$tmp/out"; exit 1; }
  grep -q "^FAIL: sm_90a wgmma_kernel<fp16>: 7 of 7 an iteration are HGMMA.64x256x16.F32, expected 8" "$tmp/out" ||
    { echo "FAIL: a wgmma loop short of one HGMMA was not refused"; sed 's/^/  | /' "$tmp/out"; exit 1; }
  exit 0
fi
gpubench=$1
cuobjdump=$(command -v cuobjdump || true)
[[ -z $cuobjdump && -x /usr/local/cuda/bin/cuobjdump ]] && cuobjdump=/usr/local/cuda/bin/cuobjdump
[[ -n $cuobjdump ]] || { echo "SKIP: no cuobjdump (it comes with CUDA on GPU machines)"; exit 77; }
[[ -x $gpubench ]] || { echo "SKIP: $gpubench not built (no nvcc)"; exit 77; }
"$cuobjdump" -sass "$gpubench" >"$tmp/gpubench.sass" || { echo "FAIL: cuobjdump -sass $gpubench"; exit 1; }
python3 "$here/sass_check.py" "$tmp/gpubench.sass"
