#!/bin/bash
# Speed of the Valgrind tool's cache simulation (issue 11) against its peers, in one go:
#   none       valgrind --tool=none (the floor: Valgrind's own translation)
#   cachegrind valgrind --tool=cachegrind --cache-sim=yes (two levels simulated; the peer)
#   roofline   our tool counting FLOPs and bytes, no cache simulation
#   +cache     our tool with --roofline-cache (every level of HIERARCHY simulated)
# Prints the best-of-3 user+sys CPU seconds of each and the ratios +cache/none (target <= 3)
# and +cache/cachegrind. A benchmark, not a test: exits 0 whatever the ratios, non-zero only
# when a tool is missing. Machines are shared and noisy: compare the ratios, not the seconds.
# usage: bench/cachesim-speed.sh [BUILD_DIR] [-- PROGRAM ARGS...]
#   env HIERARCHY  the --roofline-cache value (default: a Zen 3 core: 32 KiB 8-way L1,
#                  512 KiB 8-way L2, 32 MiB 16-way L3, a victim cache shared by 8 cores)
set -euo pipefail
build=${1:-build}
shift || true
[ "${1:-}" = "--" ] && shift
tooldir=$build/vgtool
hierarchy=${HIERARCHY:-32768:8:64:1,524288:8:64:1,33554432:16:64:8:victim}
[ -x "$tooldir/roofline-amd64-linux" ] || { echo "no tool in $tooldir (build target roofline_vgtool first)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
  progs=("$*")
else
  # STREAM triad far larger than the last level (every line misses every level), and the
  # test loops: dgemm (cache-friendly reuse) and a stencil sweep.
  cat >"$tmp/triad.c" <<'C'
#include <stdlib.h>
#include <stdio.h>
int main(int argc, char **argv) {
  long n = atol(argv[1]); int reps = atoi(argv[2]);
  double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
  for (long i = 0; i < n; i++) { a[i] = 0; b[i] = 1; c[i] = 2; }
  for (int r = 0; r < reps; r++)
    for (long i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
  printf("%f\n", a[n / 2]);
  return 0;
}
C
  cc -O2 -o "$tmp/triad" "$tmp/triad.c"
  loops=$build/tests/vgtool/vgtool_loops_O2
  progs=("$tmp/triad 4000000 10")
  [ -x "$loops" ] && progs+=("$loops dgemm 300" "$loops stencil 20000000")
fi
cpu() { # best-of-3 user+sys CPU seconds of "$@"
  local b="" t
  for _ in 1 2 3; do
    /usr/bin/time -o "$tmp/time" -f "%U %S" "$@" >/dev/null 2>&1 || true
    t=$(tail -1 "$tmp/time" | awk '{print $1 + $2}')
    if [ -z "$b" ] || (( $(echo "$t < $b" | bc -l) )); then b=$t; fi
  done
  echo "$b"
}
printf '%-44s %8s %10s %9s %8s %12s %14s\n' program none cachegrind roofline +cache "+cache/none" "+cache/cachegr"
for p in "${progs[@]}"; do
  # shellcheck disable=SC2086
  tn=$(cpu valgrind -q --tool=none $p)
  # shellcheck disable=SC2086
  tc=$(cpu valgrind -q --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null $p)
  # shellcheck disable=SC2086
  tr=$(cpu env VALGRIND_LIB="$tooldir" valgrind -q --tool=roofline --roofline-out="$tmp/o.json" $p)
  # shellcheck disable=SC2086
  ts=$(cpu env VALGRIND_LIB="$tooldir" valgrind -q --tool=roofline --roofline-out="$tmp/o.json" --roofline-cache="$hierarchy" $p)
  printf '%-44s %8.2f %10.2f %9.2f %8.2f %12.2f %14.2f\n' "$(basename "${p%% *}") ${p#* }" "$tn" "$tc" "$tr" "$ts" \
    "$(echo "$ts / $tn" | bc -l)" "$(echo "$ts / $tc" | bc -l)"
done
echo "target: +cache/none <= 3 (issue 11); hierarchy: $hierarchy"
