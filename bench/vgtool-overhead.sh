#!/bin/bash
# Overhead of roofline's Valgrind tool against `valgrind --tool=none`.
# usage: bench/vgtool-overhead.sh [BUILD_DIR] [-- PROGRAM ARGS...]
# Default program: the test loops (dgemm, then stencil) built in BUILD_DIR.
# Prints the best-of-3 wall time of each and the ratio against the 1.2 target.
set -euo pipefail
build=${1:-build}
shift || true
[ "${1:-}" = "--" ] && shift
tooldir=$build/vgtool
if [ ! -x "$tooldir/roofline-amd64-linux" ]; then
  echo "no tool in $tooldir (build target roofline_vgtool first)" >&2; exit 1
fi
if [ $# -gt 0 ]; then
  progs=("$*")
else
  loops=$build/tests/vgtool/vgtool_loops_O3avx2
  loops2=$build/tests/vgtool/vgtool_loops_O2
  progs=("$loops dgemm 300" "$loops2 dgemm 300" "$loops2 stencil 20000000")
fi
best() { # best-of-3 seconds of "$@"
  local b="" t0 t1 t
  for _ in 1 2 3; do
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$b" ] || (( $(echo "$t < $b" | bc -l) )); then b=$t; fi
  done
  echo "$b"
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
for p in "${progs[@]}"; do
  # shellcheck disable=SC2086
  tn=$(best valgrind -q --tool=none $p)
  # shellcheck disable=SC2086
  tr=$(VALGRIND_LIB=$tooldir best valgrind -q --tool=roofline --roofline-out="$out" $p)
  ratio=$(echo "$tr / $tn" | bc -l)
  verdict=$( (( $(echo "$ratio <= 1.2" | bc -l) )) && echo "OK (<= 1.2)" || echo "ABOVE 1.2 target")
  [ "${verdict:0:2}" = OK ] || status=1
  printf '%-60s none %7.3fs  roofline %7.3fs  ratio %5.3f  %s\n' "$p" "$tn" "$tr" "$ratio" "$verdict"
done
exit $status
