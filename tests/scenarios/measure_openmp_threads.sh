#!/usr/bin/env bash
# A region opened on the main thread around an OpenMP parallel loop is run by the team. The time
# engine said 'threads 1' for it (only the opening thread calls begin), so its point was judged
# against one core's roofs, while the instrument engine said 2 (the threads that did FLOPs in
# it). Now both say the team's threads, and 1 for a serial region. Built with g++ -fopenmp
# (libgomp: its entry points are wrapped) and, where found, clang++ -fopenmp (LLVM's libomp:
# the OpenMP tool interface). Needs a C++ compiler with OpenMP and the marker library, else 77;
# the instrument engine's part needs valgrind and the tool.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
export OMP_NUM_THREADS=2
fail=0
progs=()
for cxx in g++ clang++; do
  command -v $cxx >/dev/null || continue
  $cxx -O2 -fopenmp "$src/tests/marker/openmp_loop.cpp" -I "$src/include" -L "$lib" -lroofline_marker \
    -Wl,-rpath,"$lib" -o "$tmp/loop_$cxx" 2>/dev/null && progs+=("$tmp/loop_$cxx")
done
((${#progs[@]})) || { echo "skip: no C++ compiler with OpenMP here"; exit 77; }
engines=(time)
if command -v valgrind >/dev/null && [[ -d $build/vgtool ]]; then engines+=(instrument)
else echo "note: no valgrind or Valgrind tool here: only the time engine is checked"; fi
threads() { jq -r --arg n "$2" '.points[] | select(.name == $n) | .threads' "$1"; }
for p in "${progs[@]}"; do
  for e in "${engines[@]}"; do
    out=$("$bin" measure --engine $e --cache-sim off --no-store --repeat 1 -o "$tmp/$e.json" -- "$p" 2>&1) ||
      { echo "FAIL: $(basename "$p") $e: exit $?"; sed 's/^/  | /' <<<"$out"; fail=1; continue; }
    dot=$(threads "$tmp/$e.json" dot); serial=$(threads "$tmp/$e.json" serial)
    [[ $dot == 2 && $serial == 1 ]] ||
      { echo "FAIL: $(basename "$p") $e: threads dot $dot, serial $serial (expected 2 and 1)"; fail=1; }
    if [[ $e == time ]] && ! grep -q "regions around OpenMP parallel regions ran on their teams' threads.*'dot' 2" <<<"$out"; then
      echo "FAIL: $(basename "$p"): the team's threads are not said"; sed 's/^/  | /' <<<"$out"; fail=1
    fi
  done
done
# On a model of one thread's roofs (tests/data/advice-machine-zen4.json) the team's points are judged
# against those, as report says; measure said nothing. Now it warns, naming them, and not the
# serial region, which ran with the one thread the model measured.
if [[ " ${engines[*]} " == *" instrument "* ]]; then
  out=$("$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 \
    --machine "$src/tests/data/advice-machine-zen4.json" -- "${progs[0]}" 2>&1) ||
    { echo "FAIL: measure --machine (one thread's roofs): exit $?"; fail=1; }
  warned=$(grep "ran with 2 threads, a count this model did not measure: they are judged against its roofs for 1 thread" <<<"$out")
  if [[ $warned != *"'dot'"* || $warned == *"'serial'"* ]]; then
    echo "FAIL: the points of 2 threads judged on one thread's roofs are not said (or the serial one is)"
    sed 's/^/  | /' <<<"$out"; fail=1
  fi
fi
exit $fail
