#!/usr/bin/env bash
# A marker program whose only OpenMP calls are `#pragma omp parallel` (GOMP_parallel, which the
# marker library wraps) linked as the README says, with GCC's default --as-needed (Debian, Ubuntu):
# every libgomp symbol it names was found in libroofline_marker first, so the linker dropped libgomp,
# and its first parallel region aborted ("roofline marker: GOMP_parallel is called but no OpenMP
# runtime defines it"), natively and under measure alike. The marker library now loads GCC's
# runtime itself: the program runs, and measure counts the region on both threads.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 77; }
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lib=$(dirname "$bin")/lib
[[ -e $lib/libroofline_marker.so ]] || { echo "SKIP: no marker library in $lib"; exit 77; }
export HOME=$tmp
cd "$tmp"
cat >team.c <<'C'
#include <stdio.h>
#include <roofline/roofline.h>
int main(void) {
    double total = 0;
    roofline_begin("team");
#pragma omp parallel reduction(+ : total)
    {
        double s = 0;
        for (long i = 0; i < 1000000; ++i) s = s * 0.5 + 1.0;   /* 2 FLOPs an iteration */
        total += s;
    }
    roofline_end("team");
    printf("%.1f\n", total);
    return 0;
}
C
gcc -O1 -fopenmp -Wl,--as-needed -I"$src/include" team.c -L"$lib" -lroofline_marker -Wl,-rpath,"$lib" -o team ||
  { echo "SKIP: cannot build the program with -fopenmp"; exit 77; }
fail=0
out=$(OMP_NUM_THREADS=2 ./team 2>&1) || { echo "FAIL: the program itself failed: $out"; fail=1; }
[[ $out == "4.0" ]] || { echo "FAIL: it printed '$out', not 4.0 (two threads, 2.0 each)"; fail=1; }
OMP_NUM_THREADS=2 "$bin" measure --engine time --no-store -o pts.json -- ./team >mout 2>&1 ||
  { echo "FAIL: measure exit $?"; cat mout; fail=1; }
grep -qE "^team +[0-9.]+ +2 " mout || { echo "FAIL: no region 'team' on 2 threads"; cat mout; fail=1; }
((fail)) && exit 1
echo "ok: $(readelf -d team 2>/dev/null | grep -c libgomp) libgomp NEEDED entries; $(grep -m1 '^team' mout | tr -s ' ')"
