#!/usr/bin/env bash
# begin(outer) begin(inner) ... end(outer) end(inner): the marker library ignores end(outer), as
# roofline.h says (not the innermost open region: reported, ignored), so 'outer' stays open to the
# exit in the timed run; the Valgrind tool closed 'outer' (and 'inner' with it) there. 'outer' then
# had both loops' time but one loop's FLOPs: 0.006 s and 1.0M FLOPs, 0.166 GFLOP/s, half its rate.
# The tool now ignores that end too: 'outer' counts both loops, 2.0M FLOPs, 'inner' the first.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v cc >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v valgrind >/dev/null && [[ -e $(dirname "$bin")/vgtool/roofline-amd64-linux ]] ||
  { echo "SKIP: valgrind or the Valgrind tool (target roofline_vgtool) is missing"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lib=$(dirname "$bin")/lib
[[ -e $lib/libroofline_marker.so ]] || { echo "SKIP: no marker library in $lib"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >order.c <<'C'
#include <stdio.h>
#include <roofline/roofline.h>
int main(void) {
    volatile double s = 0;
    roofline_begin("outer");
    roofline_begin("inner");
    for (int i = 0; i < 1000000; ++i) s += 1.0;   /* 1M FLOPs */
    roofline_end("outer");                        /* not the innermost: ignored */
    roofline_end("inner");
    for (int i = 0; i < 1000000; ++i) s += 1.0;   /* 1M more, 'outer' still open */
    printf("%f\n", s);
    return 0;
}
C
cc -O1 -I"$src/include" order.c -L"$lib" -lroofline_marker -Wl,-rpath,"$lib" -o order ||
  { echo "SKIP: cannot build the program"; exit 77; }
"$bin" measure --engine instrument --no-store -o pts.json -- ./order >out 2>&1 || { echo "FAIL: measure exit $?"; cat out; exit 1; }
fail=0
grep -q "end of region 'outer' while 'inner' is the innermost open region (end ignored)" out ||
  { echo "FAIL: the marker library's error is not said"; fail=1; }
jq -e '[.points[] | select(.name == "outer")][0].flops | (. > 1.99e6 and . < 2.01e6)' pts.json >/dev/null ||
  { echo "FAIL: 'outer' does not count both loops (2.0M FLOPs)"; fail=1; }
jq -e '[.points[] | select(.name == "inner")][0].flops | (. > 0.99e6 and . < 1.01e6)' pts.json >/dev/null ||
  { echo "FAIL: 'inner' does not count the first loop (1.0M FLOPs)"; fail=1; }
((fail)) && { jq -c '[.points[] | {name, flops, seconds}]' pts.json; cat out; exit 1; }
echo "ok: $(jq -c '[.points[] | {name, flops}]' pts.json)"
