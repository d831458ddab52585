#!/usr/bin/env bash
# A Jacobi sweep whose two grids fill most of the simulated last-level cache: LRU keeps them
# there, so its DRAM bytes are only the first touch, where a real L3 (shared, not LRU) spills
# part of them every sweep. The point must say its DRAM bytes are a lower bound (measure's
# notes, the provenance's options.dram_lower_bound, report's text and JSON), and change no
# figure; a grid well under the L3, or well over it, gets no such note. The L3 is made small
# with --cache-model (the Opteron X4 spec sheet: L3 2 MiB), so it runs in seconds.
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
static double jacobi(const char *name, int n, int sweeps) {
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
int main(int argc, char **argv) {
  double r = 0;
  for (int k = 1; k + 2 < argc + 1; k += 3) r += jacobi(argv[k], atoi(argv[k + 1]), atoi(argv[k + 2]));
  printf("%f\n", r);
  return 0;
}
C
cc -O2 -o jacobi jacobi.c -I "$src/include" -L "$lib" -lroofline_marker -Wl,-rpath,"$lib" || fail "cannot build the sweep"
spec=$src/examples/machines/opteron_x4.yaml  # L1 64 KiB, L2 512 KiB, L3 2 MiB
# near: 2 x 340^2 x 8 B = 1.76 MiB (88% of the L3); under: 2 x 100^2 x 8 B = 0.15 MiB (8%);
# over: 2 x 800^2 x 8 B = 9.8 MiB (4.9x).
out=$("$bin" measure --no-store --repeat 1 --machine "$spec" --cache-model "$spec" -o p.json -- \
  ./jacobi near 340 10 under 100 10 over 800 2 2>&1) || fail "measure"
point() { jq -c --arg n "$1" '.points[] | select(.name == $n)' p.json; }
touched=$(point near | jq '.details.cache_touched_bytes')
python3 - "$touched" <<'PY' || fail "the distinct bytes the near sweep touched are off 2 x 340^2 x 8"
import sys
got, want = float(sys.argv[1]), 2 * 340 * 340 * 8
print("near: touched %d B, want %d (%.1f%%)" % (got, want, 100 * (got - want) / want))
sys.exit(abs(got - want) > 0.05 * want)
PY
grep -qE "^roofline: near: the data it touched \(about 1\.[0-9]+ MiB\) fills (8[0-9]|9[0-9])% of the simulated 2 MiB L3; a real L3 \(shared, not LRU\) spills some of it: DRAM bytes here are a lower bound$" <<<"$out" ||
  fail "measure does not say the near sweep's DRAM bytes are a lower bound"
for name in under over fill; do
  grep -q "^roofline: $name: the data it touched" <<<"$out" && fail "a note for '$name', which is well under or over the L3, or read once"
done
jq -e '.provenance.options.dram_lower_bound | test("^near: the data it touched .*lower bound$") and (test("(under|over|fill|program\\)): ") | not)' p.json >/dev/null ||
  fail "the provenance does not keep the note: $(jq -c .provenance.options p.json)"
# The figures are the simulation's, unchanged: the near sweep's DRAM reads are its few misses.
jq -e '[.points[] | select(.name == "near")][0] | .details.cache_DRAM_read_bytes < .details.cache_L3_read_bytes / 2' p.json >/dev/null ||
  fail "the near sweep should re-read its data from the simulated L3: $(point near)"
echo "ok: measure says it for the grid near the L3 only, in its notes and the provenance"

rep=$("$bin" report --machine "$spec" --points p.json 2>&1) || { out=$rep; fail "report"; }
grep -qE "^  note +the data it touched \(about 1\.[0-9]+ MiB\) fills [0-9]+% of the simulated 2 MiB L3" <<<"$rep" ||
  { out=$rep; fail "report's text does not say it"; }
[[ $(grep -c "the data it touched" <<<"$rep") == 1 ]] || { out=$rep; fail "report says it for another point than near"; }
"$bin" report --machine "$spec" --points p.json --format json >r.json 2>/dev/null || fail "report --format json"
jq -e '[.points[] | select(.dram_lower_bound != null) | .point] == ["near"]' r.json >/dev/null ||
  fail "report's JSON: $(jq -c '[.points[] | {point, dram_lower_bound}]' r.json)"
jq -e '.points[] | select(.point == "near") | .dram_lower_bound | .llc_level == "L3" and .llc_bytes == 2097152 and .share > 0.8 and .share < 0.95' r.json >/dev/null ||
  fail "report's JSON figures: $(jq -c '.points[] | select(.point == "near")' r.json)"
echo "ok: report says it (text and JSON) for the grid near the L3 only"
echo PASS
