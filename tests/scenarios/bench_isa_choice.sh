#!/usr/bin/env bash
# --quick chooses each roof's ISA by measurement, records the winner and every
# variant tried, and never runs an ISA the CPU lacks (or that ROOFLINE_MAX_ISA caps).
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/scenarios/lib/bench_output.sh
source "$(dirname "$0")/lib/bench_output.sh"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
supported='["sse2"'
[[ $flags == *" avx2 "* && $flags == *" fma "* ]] && supported+=',"avx2"'
[[ $flags == *" avx512f "* && $flags == *" avx512dq "* && $flags == *" avx512vl "* ]] && supported+=',"avx512"'
supported+=']'

"$bin" bench --quick --time-budget 6 --dram-size 256MB -o "$tmp/m.json" --no-store >"$tmp/out" 2>&1 ||
  { echo "FAIL: bench exit $?"; bench_output "$tmp/out"; exit 1; }
[[ -f "$tmp/m.svg" ]] || { echo "FAIL: the chart is not next to the model"; exit 1; }
m="$tmp/m.json"
check() { jq -e --argjson ok "$supported" "$1" "$m" >/dev/null || { echo "FAIL: $2"; jq -c "$3" "$m"; exit 1; }; }
check 'all(.memory[]; .isa as $i | $ok | index($i))' "a memory roof ran an ISA the CPU lacks" '[.memory[].isa]'
check 'all(.compute[]; .isa as $i | $ok | index($i))' "a compute roof ran an ISA the CPU lacks" '[.compute[].isa]'
# Every level and pattern tried every supported ISA and kept the fastest.
check 'all(.memory[] | select(.threads == 1); (.isa_trials | length) == ($ok | length))' \
  "not every ISA tried" '[.memory[] | {level, pattern, isa_trials}]'
check 'all(.memory[] | select(.threads == 1 and (.isa_trials | length) > 1);
           .isa as $w | (.isa_trials | max_by(.gbs) | .isa) == $w)' "the winner is not the fastest trial" \
  '[.memory[] | {level, pattern, isa, isa_trials}]'
check 'all(.compute[] | select(.mix == "fma+add"); .mixes_tried >= 5)' "no port-mix search" \
  '[.compute[] | {name, mixes_tried}]'

# Capped at SSE2: every roof is SSE2, nothing wider ran.
ROOFLINE_MAX_ISA=sse2 "$bin" bench --quick --time-budget 4 --dram-size 256MB -o "$tmp/s.json" --svg '' --no-store \
  >"$tmp/out2" 2>&1 || { echo "FAIL: capped bench exit $?"; bench_output "$tmp/out2"; exit 1; }
jq -e 'all(.memory[]; .isa == "sse2") and all(.compute[]; .isa == "sse2") and (.compute | length) > 0' "$tmp/s.json" \
  >/dev/null || { echo "FAIL: ROOFLINE_MAX_ISA=sse2 ran something wider"; jq -c '[.compute[].isa, .memory[].isa]' "$tmp/s.json"; exit 1; }
echo "ok: ISAs $supported tried; winners recorded"
