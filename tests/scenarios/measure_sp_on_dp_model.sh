#!/usr/bin/env bash
# A float program measured and compared against a machine model without SP compute roofs: measure's
# table and compare judge its point on the DP roofline, and each says so once (report and plot
# already did), naming the point; with SP roofs in the model, measure judges it on them, unsaid.
# Before, both were silent and the point's % of attainable read against the DP peak.
# SKIPPED (exit 77) without a C compiler, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
export ROOFLINE_DB=$tmp/results.db
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

cat >"$tmp/saxpy.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 1 << 18;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; ++i) { x[i] = i * 0.5f; y[i] = 1.0f; }
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < n; ++i) y[i] = 2.5f * x[i] + y[i];
    printf("%f\n", y[n - 1]);
    return 0;
}
C
cc -O2 "$tmp/saxpy.c" -o "$tmp/saxpy" || fail "cannot build the float program"
dp_model=$src/tests/data/report-machine.json  # DP compute roofs only
# The same model with SP roofs too (twice the DP ones, as on x86 SIMD).
python3 - "$dp_model" "$tmp/sp-model.json" <<'PY' || fail "cannot write the SP model"
import json, sys
m = json.load(open(sys.argv[1]))
sp = []
for c in m["compute"]:
    s = dict(c); s["precision"] = "sp"; s["name"] = "sp" + c["name"][2:] if c["name"].startswith("dp") else "sp " + c["name"]
    s["gflops"] = c["gflops"] * 2; sp.append(s)
m["compute"] += sp
json.dump(m, open(sys.argv[2], "w"))
PY

out=$("$bin" measure --no-store --machine "$dp_model" --engine instrument --repeat 1 -o "$tmp/x.json" -- "$tmp/saxpy" 2>&1) ||
  fail "measure failed"
grep -q "% attain" <<<"$out" || fail "measure did not judge the point"
warning="warning: the FLOPs of '\(program\)' are SP but this model has no SP compute roof, so it is judged on the DP roofline"
[[ $(grep -cE "$warning" <<<"$out") == 1 ]] || fail "measure's table: no warning, or not once, that the SP point is judged on DP roofs"

out=$("$bin" measure --no-store --machine "$tmp/sp-model.json" --engine instrument --repeat 1 -o "$tmp/y.json" -- "$tmp/saxpy" 2>&1) ||
  fail "measure (SP model) failed"
grep -q "% attain" <<<"$out" || fail "measure (SP model) did not judge the point"
grep -qE "no SP compute roof" <<<"$out" && fail "measure warned although the model has SP roofs"

# compare: both sets judged on the one DP-only model: one warning, not one per side.
out=$("$bin" compare "$tmp/x.json" "$tmp/y.json" --machine "$dp_model" 2>&1) || fail "compare failed"
[[ $(grep -cE "warning: the points' FLOPs are SP but this model has no SP compute roof" <<<"$out") == 1 ]] ||
  fail "compare: no warning, or not once, that the SP points are judged on DP roofs"
# A on the DP-only model, B on the SP one: only A's side is said, with its letter.
out=$("$bin" compare --points "$tmp/x.json" --points "$tmp/y.json" --machine "$dp_model" --machine "$tmp/sp-model.json" 2>&1) ||
  fail "compare (two machines) failed"
grep -qE "warning: A: the points' FLOPs are SP but this model has no SP compute roof" <<<"$out" ||
  fail "compare (two machines): A's points on DP roofs not said"
grep -qE "B: the points' FLOPs" <<<"$out" && fail "compare (two machines): B's points are on SP roofs, yet warned"
echo "ok"
