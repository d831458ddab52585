#!/usr/bin/env bash
# Past the Valgrind tool's 16,382 writer contexts (distinct sets of open regions that stored), a
# line written under a later set carries no writer, and the end's flush (dirty_at_exit) charged it
# to no region: region "late", opened after 130 x 130 nested pairs of regions had used them up,
# wrote 1.5 MiB that were still dirty at the end, and got dirty_at_exit 0, which measure took as an
# exact count: no note that its DRAM bytes lack those write-backs. The tool now adds, for a region
# open in such a set, dirty_at_exit_up_to (its count with every writerless line added), and measure
# says that bound ("up to"); regions whose sets all came before keep their exact count.
# The caches are the Opteron X4 sheet's (2 MiB L3). Needs a C compiler, jq, valgrind, the tool and
# the marker library, else 77.
set -u
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
src=$(cd "$(dirname "$0")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
marker_library_or_skip
cat >ctx.c <<'C'
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
#define MiB (1L << 20)
int main(void) {
  static char names[260][8];
  static long line[8 * 130 * 130];
  for (int i = 0; i < 260; i++) snprintf(names[i], 8, "%c%d", i < 130 ? 'a' : 'b', i % 130);
  /* 130 x 130 = 16900 sets {a_i, b_j}, each storing one line of its own */
  for (int i = 0; i < 130; i++)
    for (int j = 0; j < 130; j++) {
      roofline_begin(names[i]); roofline_begin(names[130 + j]);
      line[8 * (i * 130 + j)] = i + j;
      roofline_end(names[130 + j]); roofline_end(names[i]);
    }
  char *a = malloc(3 * MiB / 2);
  roofline_begin("late"); /* 1572864 B stored, still dirty at the end */
  for (long i = 0; i < 3 * MiB / 2; i += 8) *(volatile long *)(a + i) = i;
  roofline_end("late");
  printf("%ld %d\n", line[8], a[80]);
  return 0;
}
C
cc -O2 -o ctx ctx.c -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" || fail "cannot build the program"
spec=$src/examples/machines/opteron_x4.yaml
out=$("$bin" measure --no-store --repeat 1 --engine instrument --machine "$spec" --cache-model "$spec" -o p.json -- ./ctx 2>&1) ||
  fail "measure"
grep -q "more than 16,382 distinct sets of open marker regions" <<<"$out" || fail "the contexts did not run out"
# late: its count is no exact one (0 here, for 1572864 B): the tool bounds it with every writerless
# line's, and the note says "up to" at least its 1572864 B
jq -e '[.points[] | select(.name == "late")][0].details | .cache_dirty_at_exit_up_to_bytes >= 1572864' p.json >/dev/null ||
  fail "late has no bound of its lines left dirty: $(jq -c '.points[] | select(.name == "late") | .details' p.json)"
note=$(grep "^roofline: late: up to .* of its write-backs are counted nowhere" <<<"$out") ||
  fail "late, 1.5 MiB still dirty at the end, gets no note"
awk -v mb="$(sed -E 's/^roofline: late: up to ([0-9.]+) MB.*/\1/' <<<"$note")" 'BEGIN { exit !(mb * 1e6 >= 1572864) }' ||
  fail "late's bound is under its 1572864 B: $note"
# a0..a99 (their sets all before the contexts ran out) keep their exact counts, and no note; the
# b regions (each last opened with a129, past them) get the bound too (a region with calls too
# short to time has no point: those left out)
jq -e '[.points[] | select(.name | test("^a[0-9]?[0-9]$")) | .details] | length > 0 and all(has("cache_dirty_at_exit_bytes") and (has("cache_dirty_at_exit_up_to_bytes") | not))' p.json >/dev/null ||
  fail "an early region lost its exact count: $(jq -c '[.points[] | select(.name | test("^a[0-9]?[0-9]$")) | {name, details}]' p.json)"
grep -qE "^roofline: a[0-9]?[0-9]: .*counted nowhere" <<<"$out" && fail "an early region gets a note"
jq -e '[.points[] | select(.name | test("^b")) | .details] | length > 0 and all(has("cache_dirty_at_exit_up_to_bytes"))' p.json >/dev/null ||
  fail "a b region has no bound: $(jq -c '[.points[] | select(.name | test("^b")) | {name, details}]' p.json)"
echo "ok"
