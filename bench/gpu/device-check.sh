#!/usr/bin/env bash
# The GPU checks of issue 32 in one run on a GPU machine (CUDA, ncu, PyTorch; none of our Debian
# packages), six to eight minutes: our GPU roofs (bench --gpu: gpubench's kernels, each checked on
# the host, the limit guard), the tensor instructions the hardware executes (cuobjdump -sass),
# the peers (cuBLAS through PyTorch, same minutes; gpu-benches' L2 figures published for the H200), points of CUDA programs with known counts
# (bench/gpu/programs: ncu kernel points and the whole offload under CUPTI), then gpubench's
# full run if time is left. The L2 by chunk size beside gpu-benches run there (l2-check.sh)
# when GPU_BENCHES_SRC names a checkout of it carried along (e.g. .gpu-exp/gb, ignored).
# bench/gpu/ratios.py puts ours beside the peers and the limits.
#   here:  make build && bench/gpu/pack-kit.sh .gpu-kit
#   there: [GPU_BENCHES_SRC=DIR] bash bench/gpu/device-check.sh .gpu-kit OUTDIR [SECONDS=460]
# Writes OUTDIR/log.txt (everything), OUTDIR/summary.txt (also on standard output) and
# OUTDIR/results.tgz (every file), refreshed after each step, so a run cut short keeps its part.
set -u
packed=$(cd "${1:?usage: device-check.sh KIT OUTDIR [SECONDS]}" && pwd)/kit.tar.xz
out=$(mkdir -p "${2:?usage: device-check.sh KIT OUTDIR [SECONDS]}" && cd "$2" && pwd)
budget=${3:-460}
root=$(cd "$(dirname "$0")/../.." && pwd)
t0=$(date +%s); left() { echo $(( budget - ($(date +%s) - t0) )); }
w=$(mktemp -d); res=$w/results; mkdir -p "$res"
kit=$w/kit; mkdir -p "$kit"; tar -xJf "$packed" -C "$kit" || { echo "device-check: cannot unpack $packed (bench/gpu/pack-kit.sh makes it)" >&2; exit 2; }
exec 3>&1 >"$out/log.txt" 2>&1
say() { echo "$*"; echo "$*" >>"$out/summary.txt"; echo "$*" >&3; }
step() { echo; echo "=== [$(( $(date +%s) - t0 )) s] $*"; echo "[$(( $(date +%s) - t0 )) s] $*" >&3; }
pack() { cp "$out/summary.txt" "$res/" 2>/dev/null; tar -czf "$out/results.tgz" -C "$w" results; }
: >"$out/summary.txt"
export PATH=$PATH:/usr/local/cuda/bin
rl() { LD_LIBRARY_PATH=$kit/lib ROOFLINE_GPUBENCH=$gb ROOFLINE_OFFLOAD_LIB=$kit/bin/roofline-offload.so "$kit/bin/roofline" "$@"; }

step machine
nvidia-smi --query-gpu=name,compute_cap,clocks.sm,clocks.max.sm,clocks.max.mem,memory.total,driver_version --format=csv | tee "$res/gpu.txt"
nvcc --version | tail -1; ncu --version | tail -1
say "gpu: $(tail -1 "$res/gpu.txt")"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
arch=$cc; [[ $cc == 90 ]] && arch=90a   # wgmma needs Hopper's arch-specific target

step "build the test programs (sm_$cc) in the background"
pids=()
for p in "$root"/bench/gpu/programs/*.cu; do
  nvcc -O3 -gencode "arch=compute_$cc,code=sm_$cc" "$p" -o "$w/$(basename "$p" .cu)" -lcublas & pids+=($!)
done
gb=$kit/bin/roofline-gpubench
if ! "$gb" --probe; then
  step "the carried roofline-gpubench does not run here: built from source for sm_$arch"
  nvcc -std=c++17 -O3 -gencode "arch=compute_$arch,code=sm_$arch" "$root/tools/gpubench/gpubench.cu" -o "$w/roofline-gpubench" -ldl
  gb=$w/roofline-gpubench
fi

step "tensor instructions in gpubench's SASS (per kernel)"
cuobjdump -sass "$gb" >"$res/gpubench.sass"
python3 "$root/tests/gpubench/sass_check.py" "$res/gpubench.sass" >"$res/sass-check.txt"
say "sass_check.py exit $?: $(grep -c 'an iteration' "$res/sass-check.txt") kernel loops checked"; cat "$res/sass-check.txt"

step "the L2 by chunk size beside gpu-benches (bench/gpu/l2-check.sh; GPU_BENCHES_SRC=${GPU_BENCHES_SRC:-unset})"
timeout 150 bash "$root/bench/gpu/l2-check.sh" "$gb" "$res" 30 | tee -a "$out/summary.txt" >&3; pack

step "roofline bench --quick --gpu 0 (CPU: compute at 1 thread only)"
cat >"$w/gpubench-keep" <<SH
#!/bin/sh
# roofline-gpubench as bench runs it, its JSON kept for ratios.py
"$gb" "\$@"; rc=\$?
prev=; for a in "\$@"; do [ "\$prev" = -o ] && cp "\$a" "$res/gpubench-quick.json"; prev=\$a; done
exit \$rc
SH
chmod +x "$w/gpubench-keep"
/usr/bin/time -f "bench wall %e s" timeout 200 env LD_LIBRARY_PATH="$kit/lib" ROOFLINE_GPUBENCH="$w/gpubench-keep" \
  "$kit/bin/roofline" bench --quick --gpu 0 --only compute --threads 1 -o "$res/machine.json" --svg "$res/machine.svg" \
  --db "$res/store.db" >"$res/bench.txt" 2>&1
say "bench exit $?"; cat "$res/bench.txt"; pack

step "peers: cuBLAS through PyTorch"
timeout 100 python3 "$root/bench/gpu/torch_peers.py" | tee "$res/peers.txt"; pack

for p in "$root"/bench/gpu/programs/*.cu; do [[ ${#pids[@]} -gt 0 ]] && { wait "${pids[@]}"; pids=(); }
  n=$(basename "$p" .cu); [[ -x $w/$n ]] || { say "$n: not built"; continue; }
  [[ $(left) -gt 40 ]] || { say "$n: no time left"; continue; }
  step "measure --engine ncu --offload -- $n"
  # ROOFLINE_OFFLOAD_TRACE: where CUPTI took the migration counter, and the driver callbacks turned off.
  (cd "$w" && timeout 90 env LD_LIBRARY_PATH="$kit/lib" ROOFLINE_OFFLOAD_LIB="$kit/bin/roofline-offload.so" ROOFLINE_OFFLOAD_TRACE=1 \
     "$kit/bin/roofline" measure --engine ncu --offload --db "$res/store.db" -o "$res/points-$n.json" -- "$w/$n" \
     >"$res/measure-$n.txt" 2>&1)
  say "$n: measure exit $?"; cat "$res/measure-$n.txt"
  rl report --machine "$res/machine.json" --gpu 0 --points "$res/points-$n.json" >"$res/report-$n.txt" 2>&1
  say "$n: report exit $?"; cat "$res/report-$n.txt"; pack
done

if [[ $(left) -gt 90 ]]; then
  # An independent count of the tensor kernels' work: the hardware's own tensor-op counters for
  # a few launches of each (gpubench --quick under ncu), against the FLOPs gpubench credits.
  step "ncu's tensor-op counts of gpubench's tensor kernels"
  m=gpu__time_duration.sum; for t in fp16 bf16_dst_fp32 tf32_dst_fp32 fp8 int8 fp64; do m=$m,sm__ops_path_tensor_src_$t.sum; done
  timeout $(( $(left) - 30 )) ncu --csv --print-units base --clock-control none --kernel-name-base function \
    --kernel-name 'regex:mma' --launch-count 80 --metrics "$m" --log-file "$res/ncu-gpubench.csv" \
    "$gb" --quick -o "$w/under-ncu.json" >/dev/null
  say "ncu over gpubench exit $?"; pack
fi
if [[ $(left) -gt 60 ]]; then
  step "roofline-gpubench, full run ($(left) s left)"
  /usr/bin/time -f "gpubench full wall %e s" timeout $(( $(left) - 15 )) "$gb" -o "$res/gpubench-full.json"
  say "gpubench full exit $?"; pack
fi
step "ratios"
python3 "$root/bench/gpu/ratios.py" "$res" | tee -a "$out/summary.txt" >&3
pack; step done
