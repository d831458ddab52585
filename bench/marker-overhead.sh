#!/usr/bin/env bash
# ns per roofline_begin/roofline_end pair, library off and timing, against the
# targets (50 ns off, 200 ns timing). Usage: bench/marker-overhead.sh [build-dir] [pairs]
# The build dir must hold bench/marker_overhead (target marker_overhead).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
pairs=${2:-2000000}
exe=$build/bench/marker_overhead
if [[ ! -x $exe ]]; then
  echo "missing $exe: cmake --build $build --target marker_overhead" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

off=$(env -u ROOFLINE_MARKER_OUT -u ROOFLINE_PERF_EVENTS "$exe" "$pairs" | awk '/ns_per_pair/ {print $2}')
timing=$(env -u ROOFLINE_PERF_EVENTS ROOFLINE_MARKER_OUT="$tmp/out.json" "$exe" "$pairs" | awk '/ns_per_pair/ {print $2}')
calls=$(jq '.regions[] | select(.name == "overhead") | .calls' "$tmp/out.json")

status=0
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v < t) ? "ok" : "OVER TARGET" }'; }
printf '%-28s %10s ns/pair   target < %3d ns   %s\n' "off (not under measure)" "$off" 50 "$(verdict "$off" 50)"
printf '%-28s %10s ns/pair   target < %3d ns   %s\n' "timing (ROOFLINE_MARKER_OUT)" "$timing" 200 "$(verdict "$timing" 200)"
echo "(timing run recorded $calls calls of region 'overhead')"
# Exit codes: 0 within targets, 3 over a target (a loaded machine, not a bug),
# 1 when the timing run recorded fewer calls than it made.
(( calls >= pairs )) || { echo "expected at least $pairs calls, recorded $calls" >&2; exit 1; }
[[ $(verdict "$off" 50) == ok && $(verdict "$timing" 200) == ok ]] || status=3
exit $status
