#!/usr/bin/env bash
# Issue 35: a program that crashes after a marker region has finished. The library wrote its
# results only at exit, which a fatal signal skips, so measure said the region was "counted,
# but no native timing" and placed nothing. Now the library writes them from the crash (in a
# forked child, so a lock the crash left held cannot hang the program), the region keeps its
# native time, and the program still dies from its own signal (measure says so).
# Needs a C compiler and the marker library, else 77.
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
fail=0
cc -O1 "$src/tests/marker/crash_after_region.c" -I "$src/include" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -o "$tmp/crash" || { echo "FAIL: cannot compile the test program"; exit 1; }
for engine in time instrument; do
  out=$("$bin" measure --engine $engine --no-store --repeat 1 -o "$tmp/p.json" -- "$tmp/crash" crash 2>&1); code=$?
  if ! grep -q "killed by signal 11 (SIGSEGV)" <<<"$out"; then
    echo "FAIL: $engine: the crash is not said (exit $code)"; sed 's/^/  | /' <<<"$out"; fail=1
  fi
  grep -q "no native timing" <<<"$out" && { echo "FAIL: $engine: the finished region lost its time"; fail=1; }
  secs=$(jq -r '.points[] | select(.name == "sum") | .seconds' "$tmp/p.json" 2>/dev/null)
  awk -v s="${secs:-0}" 'BEGIN { exit !(s > 0) }' || { echo "FAIL: $engine: region sum has no time ($secs)"; fail=1; }
  if [[ $engine == instrument ]]; then
    flops=$(jq -r '.points[] | select(.name == "sum") | .flops' "$tmp/p.json")
    [[ $flops == 40000000 ]] || { echo "FAIL: region sum counted $flops FLOPs, expected 4e7"; fail=1; }
  fi
done
# The program's own exit status is unchanged: it still dies by SIGSEGV.
ROOFLINE_MARKER_OUT=$tmp/direct.json "$tmp/crash" crash >/dev/null 2>&1; code=$?
[[ $code == 139 ]] || { echo "FAIL: the program exited $code under the library, expected 139 (SIGSEGV)"; fail=1; }
grep -q '"sum"' "$tmp/direct.json" 2>/dev/null || { echo "FAIL: the library wrote no results at the crash"; fail=1; }
exit $fail
