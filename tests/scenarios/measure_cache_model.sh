#!/usr/bin/env bash
# Issue 11: the instrument engine simulates this machine's caches by default and
# another machine's with --cache-model: a STREAM triad far larger than the model's
# last level gets bytes.DRAM of 32 B per iteration (write-allocate, within 5%, its
# write-backs counted at eviction plus what is dirty at the end), the hierarchy is in
# the provenance, and the point is bound by DRAM, not L1. --cache-sim off keeps L1
# bytes only, and its provenance says so (options.cache_sim); --cache-model with an engine that cannot simulate is a usage error.
# SKIPPED (exit 77) without a C compiler, jq, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
cat >triad.c <<'C'
#include <stdlib.h>
#include <stdio.h>
int main(int argc, char **argv) {
  long n = atol(argv[1]); int reps = atoi(argv[2]);
  double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8);
  for (long i = 0; i < n; i++) { a[i] = 0.5; b[i] = 1; c[i] = 2; }  /* not 0: GCC makes malloc + zeroing a calloc, which writes nothing */
  for (int r = 0; r < reps; r++)
    for (long i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
  printf("%f\n", a[n / 2]);
  return 0;
}
C
cc -O2 -o triad triad.c || fail "cannot build the triad"
spec=$src/examples/machines/opteron_x4.yaml  # L3 2 MiB: 8 MiB arrays are 4x larger
n=1048576 reps=2
out=$("$bin" measure --no-store --machine "$spec" --cache-model "$spec" -o p.json -- ./triad $n $reps 2>&1) ||
  fail "measure with --cache-model"
jq -e '.provenance.options.cache_model | test("L3 2 MiB.*from .*opteron_x4.yaml")' p.json >/dev/null ||
  fail "the provenance does not name the model: $(jq .provenance p.json)"
read_bytes=$(jq '.points[0].details.cache_DRAM_read_bytes' p.json)
written=$(jq '.points[0].details.cache_DRAM_write_bytes + .points[0].details.cache_dirty_at_end_bytes' p.json)
python3 - "$read_bytes" "$written" $n $reps <<'PY' || fail "DRAM bytes off the analytic figure"
import sys
got_r, got_w, n, reps = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
want_r, want_w = 24 * n * (1 + reps), 24 * n + 8 * n * reps  # first writes read for ownership, then 24 + 8 B per iteration
for what, got, want in (("read", got_r, want_r), ("written", got_w, want_w)):
    print("DRAM %s: got %d want %d (%.2f%%)" % (what, got, want, 100 * (got - want) / want))
    if abs(got - want) > 0.05 * want: sys.exit(1)
PY
grep -qE '^\(program\) .* DRAM [a-z]+ +[0-9.]+%' <<<"$out" || fail "the triad is not bound by a DRAM roof"
echo "ok: --cache-model: DRAM bytes within 5% of 32 B per triad iteration, bound by DRAM"

out=$("$bin" measure --no-store --cache-sim off -o off.json -- ./triad 1000 1 2>&1) || fail "--cache-sim off"
jq -e '.points[0].bytes | keys == ["L1"]' off.json >/dev/null || fail "--cache-sim off should keep L1 bytes only"
jq -e '.provenance.options | (.cache_sim | test("^off")) and .cache_model == null' off.json >/dev/null ||
  fail "--cache-sim off is not in the provenance: $(jq -c .provenance.options off.json)"
out=$("$bin" measure --no-store --engine time --cache-model "$spec" -- ./triad 1000 1 2>&1)
[[ $? == 2 ]] || fail "--cache-model with the time engine: expected exit 2"
echo "ok: --cache-sim off keeps L1 bytes only, recorded in the provenance; --cache-model needs the instrument engine"
echo PASS
