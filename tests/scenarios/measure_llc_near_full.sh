#!/usr/bin/env bash
# A Jacobi sweep whose two grids fill most of the simulated last-level cache: LRU keeps them
# there, so its DRAM bytes are only the first touch, where a real L3 (shared, not LRU) spills
# part of them every sweep. The point must say its DRAM bytes are a lower bound (measure's
# notes, the provenance's options.dram_lower_bound, report's text and JSON), and change no
# figure; a grid well under the L3, or well over it, gets no such note. The L3 is made small
# with --cache-model (the Opteron X4 spec sheet: L3 2 MiB, one per socket of 4 cores, 2 of them:
# a one-thread point has one), so it runs in seconds. With --loops the sweep's loop says it too,
# from the data its marker region touched (the tool counts no loop's lines), and a copy of 1.5
# MiB repeated (no FLOPs: report's "Data movement only") says it there (text, Markdown, JSON).
# SKIPPED (exit 77) without a C compiler, jq, valgrind, the Valgrind tool or the marker library.
set -u
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$(dirname "$0")/lib/marker_scenario.sh"
marker_scenario "$1"
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
cat >jacobi.c <<'C'
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
/* Two n x n grids, `sweeps` Jacobi sweeps over them in region `name`, after an untimed fill
 * (region "fill"): the sweeps find the grids in cache already, so their own DRAM reads say
 * nothing of how much data they touch. */
static double jacobi(const char *name, long n, int sweeps) {
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
  roofline_begin("fill");
  for (long i = 0; i < (long)n * n; i++) { a[i] = (double)(i % 7); b[i] = 0.5; }
  roofline_end("fill");
  roofline_begin(name);
  for (int s = 0; s < sweeps; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[(long)i * n + j] = 0.25 * (a[(long)(i - 1) * n + j] + a[(long)(i + 1) * n + j] + a[(long)i * n + j - 1] +
                                     a[(long)i * n + j + 1]);
    double *t = a; a = b; b = t;
  }
  roofline_end(name);
  double r = a[(long)(n / 2) * n + n / 2];
  free(a); free(b);
  return r;
}
/* A copy of n doubles into n more, `reps` times, in region `name`: no FLOPs, its data (written
 * first, so the first copy reads it from the cache hierarchy) re-read from L3 at every rep. */
static double copy(const char *name, long n, int reps) {
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  roofline_begin(name);
  for (long i = 0; i < n; i++) a[i] = (double)(i & 7);
  for (int r = 0; r < reps; r++) {
    for (long i = 0; i < n; i++) b[i] = a[i];
    double *t = a; a = b; b = t;
  }
  roofline_end(name);
  double r = a[n / 2];
  free(a); free(b);
  return r;
}
int main(int argc, char **argv) {
  double r = 0;
  for (int k = 1; k + 2 < argc + 1; k += 3)
    r += (argv[k][0] == 'c' ? copy : jacobi)(argv[k], atoi(argv[k + 1]), atoi(argv[k + 2]));
  printf("%f\n", r);
  return 0;
}
C
cc -O2 -g -o jacobi jacobi.c -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" || fail "cannot build the sweep"
spec=$src/examples/machines/opteron_x4.yaml  # L1 64 KiB, L2 512 KiB, L3 2 MiB
# near: 2 x 340^2 x 8 B = 1.76 MiB (88% of the L3); under: 2 x 100^2 x 8 B = 0.15 MiB (8%);
# over: 2 x 800^2 x 8 B = 9.8 MiB (4.9x). copy: 2 x 98304 x 8 B = 1.5 MiB (75%), 10 times;
# copysmall: 2 x 8192 x 8 B = 128 KiB (6%).
out=$("$bin" measure --no-store --repeat 1 --loops --machine "$spec" --cache-model "$spec" -o p.json -- \
  ./jacobi near 340 10 under 100 10 over 800 2 copy 98304 10 copysmall 8192 10 2>&1) || fail "measure"
point() { jq -c --arg n "$1" '.points[] | select(.name == $n)' p.json; }
touched=$(point near | jq '.details.cache_touched_bytes')
python3 - "$touched" <<'PY' || fail "the distinct bytes the near sweep touched are off 2 x 340^2 x 8"
import sys
got, want = float(sys.argv[1]), 2 * 340 * 340 * 8
print("near: touched %d B, want %d (%.1f%%)" % (got, want, 100 * (got - want) / want))
sys.exit(abs(got - want) > 0.05 * want)
PY
# One thread: one of the model's two L3s (8 cores, 4 sharing one), said.
grep -qE "^roofline: near: the data it touched \(about 1\.[0-9]+ MiB\) fills (8[0-9]|9[0-9])% of the simulated 2 MiB L3 \(one of 2: its one thread runs under one\); a real L3 \(shared, not LRU\) spills some of it: DRAM bytes here are a lower bound$" <<<"$out" ||
  fail "measure does not say the near sweep's DRAM bytes are a lower bound"
for name in under over fill copysmall; do
  grep -q "^roofline: $name: the data it touched" <<<"$out" && fail "a note for '$name', which is well under or over the L3, or read once"
done
# The provenance joins every DRAM note with " | " (the LLC's, and dirty_at_end's write-backs):
# the LLC notes among them are the near sweep's (and the copy's), none of under, over or fill.
jq -e '.provenance.options.dram_lower_bound | split(" | ") | map(select(test("the data it touched"))) |
       (.[0] | test("^near: the data it touched .*lower bound$")) and all(.[]; test("^(under|over|fill|\\(program\\)): ") | not)' \
  p.json >/dev/null ||
  fail "the provenance does not keep the note: $(jq -c .provenance.options p.json)"
# The figures are the simulation's, unchanged: the near sweep's DRAM reads are its few misses.
jq -e '[.points[] | select(.name == "near")][0] | .details.cache_DRAM_read_bytes < .details.cache_L3_read_bytes / 2' p.json >/dev/null ||
  fail "the near sweep should re-read its data from the simulated L3: $(point near)"
echo "ok: measure says it for the grid near the L3 only, in its notes and the provenance"
# The other DRAM note, write-backs counted nowhere (lines still dirty when the run ended), is each
# point's own (the tool's dirty_at_exit: the lines its stores made dirty left dirty at the end):
# copy's 1.5 MiB, written near the end, are still in the L3; near, under, fill and copysmall get
# none: later regions evicted their lines (written back, charged to them) or wrote over them. A
# bound shared by every region (what the caches held dirty at its close and at the end) said "up
# to 2.09 MB" for fill, under and copysmall and 1.97 MB for near, whose grids were read-only by then.
grep -E "^roofline: (near|under|over|fill|copysmall): [^:]*write-backs are counted nowhere" <<<"$out" &&
  fail "a note of missing write-backs for a region whose lines later regions evicted"
grep -qE "^roofline: copy: 1\.[0-9]+ MB of its write-backs are counted nowhere: lines its stores made dirty were still dirty" <<<"$out" ||
  fail "no note of copy's write-backs, its lines still dirty at the end"
echo "ok: measure says which write-backs are counted nowhere for copy only, its lines left dirty at the end"

# The copy: no FLOPs, its 1.5 MiB re-read from L3 ten times.
grep -qE "^roofline: copy: the data it touched \(about 1\.[0-9]+ MiB\) fills (6[5-9]|7[0-9]|8[0-5])% of the simulated 2 MiB L3 \(one of 2: its one thread runs under one\); .*lower bound$" <<<"$out" ||
  fail "measure does not say the copy's DRAM bytes are a lower bound"
# The sweep's innermost loop in region near: the tool counts no loop's lines, so the region's
# count stands in, said as the region's, as the loop's own L3 reads show it re-reads; the same
# loop in under (8%) and over (4.9x) gets none.
loop_note=$(grep -E "^roofline: near: jacobi: jacobi\.c:[0-9]+-[0-9]+: " <<<"$out")
grep -qE "the marker region touched about 1\.[0-9]+ MiB, which fills (8[0-9]|9[0-9])% of the simulated 2 MiB L3 \(one of 2: its one thread runs under one\), and it re-reads from the L3 \([0-9.]+ MiB of L3 reads, (with no DRAM reads|[0-9.e+]+x its DRAM reads); its own data is not counted, only the region's\); a real L3 \(shared, not LRU\) spills some of it: DRAM bytes here are a lower bound$" <<<"$loop_note" ||
  fail "measure does not say the near sweep's loop's DRAM bytes are a lower bound: '$loop_note'"
grep -qE "^roofline: (under|over): jacobi: jacobi\.c" <<<"$out" && fail "a note for a loop of the grid well under or over the L3"
jq -e '[.points[] | select(.name | test("^near: jacobi: jacobi\\.c:[0-9]+-[0-9]+$"))] | length == 1 and (.[0].details | .cache_enclosing_region == 1 and .cache_enclosing_touched_bytes > 1.5e6 and (has("cache_touched_bytes") | not))' p.json >/dev/null ||
  fail "the near loop's point: $(jq -c '[.points[] | select(.name | test("jacobi.c"))]' p.json)"
jq -e '.provenance.options.dram_lower_bound | test("near: jacobi: jacobi\\.c:[0-9]+-[0-9]+: the marker region touched about")' p.json >/dev/null ||
  fail "the provenance does not keep the loop's note: $(jq -c .provenance.options.dram_lower_bound p.json)"
echo "ok: measure says it for the copy and for the near sweep's loop (its region's data), not for the others"

rep=$("$bin" report --machine "$spec" --points p.json 2>&1) || { out=$rep; fail "report"; }
grep -qE "^  note +the data it touched \(about 1\.[0-9]+ MiB\) fills [0-9]+% of the simulated 2 MiB L3" <<<"$rep" ||
  { out=$rep; fail "report's text does not say it"; }
[[ $(grep -cE "^  note +the data it touched" <<<"$rep") == 1 ]] || { out=$rep; fail "report says it for another point than near"; }
"$bin" report --machine "$spec" --points p.json --format json >r.json 2>/dev/null || fail "report --format json"
jq -e '[.points[] | select(.dram_lower_bound != null) | .point] == ["near"]' r.json >/dev/null ||
  fail "report's JSON: $(jq -c '[.points[] | {point, dram_lower_bound}]' r.json)"
jq -e '.points[] | select(.point == "near") | .dram_lower_bound | .llc_level == "L3" and .llc_bytes == 2097152 and .share > 0.8 and .share < 0.95' r.json >/dev/null ||
  fail "report's JSON figures: $(jq -c '.points[] | select(.point == "near")' r.json)"
echo "ok: report says it (text and JSON) for the grid near the L3 only"

# report's data-movement section: the copy says it, in text, Markdown and JSON; copysmall does not.
copy_line=$(grep -E "^  copy: " <<<"$rep")
grep -qE "Note: the data it touched \(about 1\.[0-9]+ MiB\) fills [0-9]+% of the simulated 2 MiB L3 \(one of 2: its one thread runs under one\); a real L3 \(shared, not LRU\) spills some of it: DRAM bytes here are a lower bound" <<<"$copy_line" ||
  { out=$rep; fail "report's data-movement section does not say it for the copy"; }
grep -E "^  copysmall: " <<<"$rep" | grep -q "lower bound" && { out=$rep; fail "report says it for copysmall (6%)"; }
md=$("$bin" report --machine "$spec" --points p.json --format markdown 2>&1) || { out=$md; fail "report --format markdown"; }
grep -qE "^- \*\*copy\*\*: .*Note: the data it touched \(about 1\.[0-9]+ MiB\) fills [0-9]+% of the simulated 2 MiB L3" <<<"$md" ||
  { out=$md; fail "report's Markdown data-movement section does not say it for the copy"; }
jq -e '[.data_movement[] | select(.dram_lower_bound != null) | .point] == ["copy"]' r.json >/dev/null ||
  fail "report's JSON data_movement: $(jq -c '[.data_movement[] | {point, dram_lower_bound}]' r.json)"
jq -e '.data_movement[] | select(.point == "copy") | .dram_lower_bound | .touched_from == "point" and .llc_instances == 2 and .llc_cores_per_instance == 4 and .llc_instances_used == 1 and .share > 0.65 and .share < 0.85' r.json >/dev/null ||
  fail "report's JSON copy: $(jq -c '.data_movement[] | select(.point == "copy")' r.json)"
echo "ok: report's data-movement section says it for the copy (text, Markdown, JSON)"
echo PASS
