#!/usr/bin/env bash
# The marker calls' own cost is measured in the same run and taken off each region. Before, a
# region of 512 loads read about 84 bytes more loads and 128 bytes of stores a call under the
# instrument engine (the calls' own), a region around 2000 others held their calls' whole cost,
# and an empty region got a point of about 27 ns a call. Now the counts are the region's own
# (exact under Valgrind), the enclosing region's too, and an empty region gets no point (or is
# named in a warning), the calibration said in a note. Needs a C compiler and the marker library
# (77 without); the instrument part needs valgrind and the tool (said and skipped otherwise).
set -u
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
fail=0
cc -O2 "$src/tests/marker/call_cost.c" -I "$src/include" -L "$lib" -lroofline_marker \
  -Wl,-rpath,"$lib" -o "$tmp/call_cost" || { echo "FAIL: cannot compile the test program"; exit 1; }

# Time: the calibration is said, and the empty region is no plain point.
out=$("$bin" measure --engine time --no-store --repeat 1 -o "$tmp/t.json" -- "$tmp/call_cost" 2>&1) ||
  { echo "FAIL: time engine: exit $?"; sed 's/^/  | /' <<<"$out"; exit 1; }
# A loaded host may make the calibration unsteady: then nothing is subtracted, and that is said.
steady=1
grep -q "NOT subtracted (unsteady calibration)" <<<"$out" && { steady=0; echo "note: the calibration was unsteady here"; }
if ((steady)) && ! grep -q "subtracted from each region's time: the marker calls' own time" <<<"$out"; then
  echo "FAIL: the calibration of the calls' time is not said"; fail=1
fi
if ! grep -qE "region 'empty' gets no point: .*hides under the end call|region 'empty': the marker calls' own time is" <<<"$out"; then
  echo "FAIL: the empty region is neither refused nor warned of"; sed 's/^/  | /' <<<"$out"; fail=1
fi
cost=$(jq -r '.points[] | select(.name == "loads") | .details.marker_cost_seconds' "$tmp/t.json")
awk -v c="${cost:-0}" -v s=$steady 'BEGIN { exit !(c > 0 || !s) }' ||
  { echo "FAIL: region loads: no marker_cost_seconds ($cost)"; fail=1; }
jq -e '[.points[] | select(.name | startswith("(roofline marker calls"))] | length == 0' "$tmp/t.json" >/dev/null ||
  { echo "FAIL: the calibration's regions became points"; fail=1; }

if ! command -v valgrind >/dev/null || [[ ! -d $build/vgtool ]]; then
  echo "note: no valgrind or Valgrind tool here: the instrument engine's counts are not checked"
  exit $fail
fi
out=$("$bin" measure --engine instrument --cache-sim off --no-store --repeat 1 -o "$tmp/i.json" -- "$tmp/call_cost" 2>&1) ||
  { echo "FAIL: instrument engine: exit $?"; sed 's/^/  | /' <<<"$out"; exit 1; }
grep -q "subtracted from each region's counts, the marker calls' own under the Valgrind tool" <<<"$out" ||
  { echo "FAIL: the calibration of the calls' counts is not said"; fail=1; }
per_call() { jq -r --arg n "$1" --arg k "$2" '.points[] | select(.name == $n) | .details[$k] / .details.calls' "$tmp/i.json"; }
loaded=$(per_call loads bytes_loaded); stored=$(per_call loads bytes_stored)
# 512 loads of 8 bytes, and what the compiler keeps on the stack around the calls (a few words).
awk -v l="${loaded:-0}" -v s="${stored:-0}" 'BEGIN { exit !(l >= 4096 && l <= 4096 + 32 && s <= 16) }' ||
  { echo "FAIL: region loads: $loaded bytes loaded and $stored stored a call, expected 4096..4128 and <= 16"; fail=1; }
taken=$(per_call loads marker_cost_bytes_stored)
awk -v t="${taken:-0}" 'BEGIN { exit !(t >= 32) }' || { echo "FAIL: region loads: the calls' stores not subtracted ($taken)"; fail=1; }
# The region around 2000 others: their loads and a few words a call of its own, not their calls'.
outer=$(jq -r '.points[] | select(.name == "outer") | .details.bytes_loaded' "$tmp/i.json")
inside=$(jq -r '.points[] | select(.name == "inside") | .details.bytes_loaded' "$tmp/i.json")
awk -v o="${outer:-0}" -v i="${inside:-0}" 'BEGIN { exit !(i > 0 && o >= i && o <= i + 2000 * 32 + 4096) }' ||
  { echo "FAIL: region outer loaded $outer bytes around inside's $inside (2000 calls)"; fail=1; }
jq -e '[.points[] | select(.name | startswith("(roofline marker calls"))] | length == 0' "$tmp/i.json" >/dev/null ||
  { echo "FAIL: the calibration's regions became points"; fail=1; }
exit $fail
