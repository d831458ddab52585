#!/usr/bin/env bash
# The GPU's L2 roof and curve against gpu-benches (issue 32), on a GPU machine, about 90 s:
# roofline-gpubench --only l2 --l2-sweep-chunks (the DRAM read, then the L2 read in every chunk
# size, each with its roof, its read past twice the L2 and its curve, and the chunk taken) and,
# just before it, gpu-benches' gpu-l2-cache, built there from its source when GPU_BENCHES_SRC
# names a checkout of te42kyfo/gpu-benches (not in this repository: carry one, e.g. as the
# ignored .gpu-exp/gb; its counter readings are replaced by a stub written here, only its timing
# is used). bench/gpu/ratios.py RESULTS puts them side by side.
#   there: [GPU_BENCHES_SRC=DIR] bash bench/gpu/l2-check.sh ROOFLINE_GPUBENCH RESULTS [SECONDS=30]
# Writes RESULTS/gpubench-l2.json and RESULTS/gpu-benches-l2.txt (the second only with a source).
set -u
gb=${1:?usage: l2-check.sh ROOFLINE_GPUBENCH RESULTS [SECONDS]}
res=$(mkdir -p "${2:?usage: l2-check.sh ROOFLINE_GPUBENCH RESULTS [SECONDS]}" && cd "$2" && pwd)
peer_seconds=${3:-30}
src=${GPU_BENCHES_SRC:-}
if [[ -n $src && -f $src/gpu-l2-cache/main.cu ]]; then
  w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
  cp -r "$src" "$w/gb"
  mkdir -p "$w/gb/gpu-metrics"
  cat >"$w/gb/gpu-metrics/gpu-metrics.hpp" <<'H'
// Written by roofline's bench/gpu/l2-check.sh: the counter readings are not used, only the timing.
#pragma once
#include <vector>
inline void initMeasureMetric() {}
inline void measureDRAMBytesStart() {}
inline std::vector<double> measureDRAMBytesStop() { return {0, 0}; }
inline void measureL2BytesStart() {}
inline std::vector<double> measureL2BytesStop() { return {0, 0}; }
H
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  if (cd "$w/gb/gpu-l2-cache" && nvcc -std=c++17 -O3 -arch=sm_$cc main.cu -o "$w/gpu-l2-cache"); then
    # Its sizes grow 10% a line from 1.5 MB without end: what fits in the time is kept.
    timeout "$peer_seconds" "$w/gpu-l2-cache" >"$res/gpu-benches-l2.txt"
    echo "gpu-benches gpu-l2-cache: $(grep -c 'GB/s' "$res/gpu-benches-l2.txt") sizes in ${peer_seconds} s"
  else
    echo "gpu-benches gpu-l2-cache: did not build"
  fi
else
  echo "gpu-benches: GPU_BENCHES_SRC unset or without gpu-l2-cache/main.cu: roofline's side only"
fi
/usr/bin/time -f "roofline-gpubench --only l2 --l2-sweep-chunks: %e s" \
  "$gb" --only l2 --l2-sweep-chunks -o "$res/gpubench-l2.json"
echo "roofline-gpubench exit $?"
