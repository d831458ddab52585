#!/usr/bin/env bash
# A run kept to --isa avx2 (or sse2) whose FMA+ADD (MUL+ADD) roof stays well under its
# theory is checked against the same width encoded with AVX-512's 32 registers, and
# the model's notes say which explains the gap. Needs AVX-512 (else nothing to check
# against: skipped). Figures are not asserted; that every low roof is explained is.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/scenarios/lib/bench_output.sh
source "$(dirname "$0")/lib/bench_output.sh"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
[[ $flags == *" avx512f "* && $flags == *" avx512vl "* && $flags == *" avx2 "* && $flags == *" fma "* ]] ||
  { echo "skip: no AVX-512VL to check a narrower encoding against"; exit 77; }

for isa in avx2:fma+add sse2:mul+add; do
  name=${isa%%:*} mix=${isa#*:}
  "$bin" bench --quick --isa "$name" --only compute --threads 1 --no-store -o "$tmp/$name.json" --svg '' \
    >"$tmp/out" 2>&1 || { echo "FAIL: bench --isa $name exit $?"; bench_output "$tmp/out"; exit 1; }
  m="$tmp/$name.json"
  jq -e --arg mix "$mix" '[.compute[] | select(.mix == $mix)] | length > 0' "$m" >/dev/null ||
    { echo "FAIL: --isa $name measured no $mix roof"; jq -c '[.compute[].name]' "$m"; exit 1; }
  # Each roof of the mix under 90% of its theory has its note; none at or above has one.
  jq -e --arg mix "$mix" --arg isa "$name" '
    .environment.warnings as $w
    | all(.compute[] | select(.mix == $mix and .theoretical_gflops > 0);
          .name as $n
          | ([$w[] | select(startswith($n + ":") and contains("avx512") and contains("timed side by side"))]
             | length) as $notes
          | if .gflops < 0.9 * .theoretical_gflops then $notes == 1 else $notes == 0 end)' "$m" >/dev/null ||
    { echo "FAIL: --isa $name: a $mix roof under 90% of theory without its register check, or one with it above";
      jq -c '[.compute[] | {name, gflops, theoretical_gflops}], .environment.warnings' "$m"; exit 1; }
  # Nothing of the wider encoding entered the model: the roofs stay the restricted ISA's.
  jq -e --arg isa "$name" 'all(.compute[]; .isa == $isa)' "$m" >/dev/null ||
    { echo "FAIL: --isa $name: a roof of another ISA in the model"; jq -c '[.compute[].isa]' "$m"; exit 1; }
  echo "ok: --isa $name: $(jq -r --arg mix "$mix" '[.compute[] | select(.mix == $mix) | "\(.name) \(100 * .gflops / .theoretical_gflops | floor)%"] | join("; ")' "$m")"
done
