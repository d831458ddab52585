#!/usr/bin/env bash
# How long `roofline plot` takes for 10 machines and 10,000 points, per format,
# against the 2 s target. A benchmark, not a test: it prints, it does not fail.
#   bench/plot-speed.sh [path/to/roofline]
set -u
bin=${1:-$(dirname "$0")/../build/roofline}
target=2.0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Ten spec-sheet machines of different speeds, with ceilings.
machines=()
for m in $(seq 1 10); do
  cat >"$tmp/machine$m.yaml" <<EOF
schema: roofline.machine-spec/1
name: Synthetic machine $m
cores: $((4 * m))
simd_bits: 256
peak:
  dp: $((40 * m)).5
bandwidth:
  L1: $((300 * m))
  L2: $((150 * m))
  L3: $((70 * m))
  DRAM: $((10 + 6 * m))
ceilings:
  compute:
    - {name: no FMA, category: fma, value: $((20 * m))}
    - {name: scalar, category: simd, value: $((5 * m))}
  bandwidth:
    - {name: DRAM 1 thread, level: DRAM, category: threads, value: $((5 + 2 * m))}
EOF
  machines+=(--machine "$tmp/machine$m.yaml")
done

# 10,000 points in 100 series of 100 problem sizes.
awk 'BEGIN {
  srand(42);
  print "{\"schema\": \"roofline.points/1\", \"points\": [";
  for (i = 0; i < 10000; i++) {
    flops = 1e9 * (1 + rand() * 100); intensity = 10 ^ (rand() * 5 - 2);
    dram = flops / intensity; l1 = dram * (1 + rand() * 20); l2 = dram * (1 + rand() * 5);
    printf "%s{\"name\": \"kernel %d\", \"series\": \"s%d\", \"flops\": %g, \"bytes\": {\"L1\": %g, \"L2\": %g, \"DRAM\": %g}, \"seconds\": %g, \"threads\": 8, \"source\": \"analytic\"}\n",
      (i ? "," : ""), i, int(i / 100), flops, l1, l2, dram, 0.05 + rand();
  }
  print "]}";
}' >"$tmp/points.json"

echo "roofline plot: 10 machines, 10,000 points ($(du -h "$tmp/points.json" | cut -f1) of points JSON); target ${target} s"
printf '%-8s %8s %10s  %s\n' format seconds output verdict
for format in svg html term gnuplot; do
  out="$tmp/chart.$format"
  start=$(date +%s.%N)
  if [[ $format == term ]]; then
    "$bin" plot "${machines[@]}" --points "$tmp/points.json" --format term --width 120 --height 40 >"$out" 2>"$tmp/err"
  else
    "$bin" plot "${machines[@]}" --points "$tmp/points.json" --format "$format" -o "$out" 2>"$tmp/err"
  fi
  code=$?
  end=$(date +%s.%N)
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  verdict=$(awk -v s="$seconds" -v t="$target" 'BEGIN { print (s < t ? "ok" : "SLOW") }')
  [[ $code -eq 0 ]] || { verdict="FAILED (exit $code)"; cat "$tmp/err"; }
  printf '%-8s %8s %10s  %s\n' "$format" "$seconds" "$(du -h "$out" | cut -f1)" "$verdict"
done
