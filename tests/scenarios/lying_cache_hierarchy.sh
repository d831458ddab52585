#!/usr/bin/env bash
# Issue 31: a host that lies about its caches. hwloc is given a synthetic topology
# (HWLOC_SYNTHETIC) whose L3 is 508 MiB per core, as a bhyve Zen 5 guest reports;
# CPUID stays this CPU's. The tool must not believe it:
# - topology: the L3 used is not 508 MiB (the table's size, or the measured one with
#   --probe), the finding names the reported size;
# - measure with the cache simulation and no --cache-model: a 256 MiB stride-8 sweep
#   reads 8x its L1 bytes from DRAM, a streamed triad 24 B per iteration (plus the
#   first touch), and a 256 KiB array read 64 times reads it from DRAM once: each
#   within 5% of the analytic figure (before, the sweep read 0 bytes from DRAM);
# - bench: DRAM working sets a few times the checked L3, not gigabytes.
# SKIPPED (exit 77) without a C compiler, jq, valgrind or the Valgrind tool.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: jq is not installed"; exit 77; }
source "$src/tests/scenarios/lib/instrument_engine.sh"
instrument_scenario "$1"
export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config HOME=$tmp
# As many cores as this machine has, each with a private 508 MiB L3.
cpus=$(nproc)
export HWLOC_SYNTHETIC="Package:1 L3Cache:$cpus(size=532676608) L2Cache:1(size=1048576) L1dCache:1(size=32768) Core:1 PU:1"
export HWLOC_THISSYSTEM=1

out=$("$bin" topology --format json 2>&1) || fail "topology"
jq -e '.caches[] | select(.level == 3) | .size_bytes == 532676608' <<<"$out" >/dev/null ||
  fail "the synthetic topology did not take: $(jq -c .caches <<<"$out")"
l3=$(jq '.checked_caches[] | select(.level == 3)' <<<"$out")
jq -e '.size_bytes <= 100663296 and .reported_size_bytes == 532676608 and (.finding | test("508 MiB"))' \
  <<<"$l3" >/dev/null || fail "the 508 MiB L3 was believed: $l3"
echo "ok: topology uses $(jq .size_bytes <<<"$l3") B for the reported 508 MiB L3 ($(jq -r .size_source <<<"$l3"))"

out=$("$bin" topology --probe --format json 2>&1) || fail "topology --probe"
l3=$(jq '.checked_caches[] | select(.level == 3)' <<<"$out")
jq -e '(.checked_caches[] | select(.level == 3) | .size_bytes <= 100663296) and (.cache_probe.points | length) > 20' \
  <<<"$out" >/dev/null || fail "topology --probe: $l3"
echo "ok: topology --probe: L3 $(jq .size_bytes <<<"$l3") B used (measured $(jq .measured_size_bytes <<<"$l3") B)"

cat >kernels.c <<'C'
#include <stdlib.h>
#include <stdio.h>
/* One load per 64-byte line over n doubles. */
__attribute__((noinline)) double sweep(const double *a, long n) {
  double s = 0;
  for (long i = 0; i < n; i += 8) s += a[i];
  return s;
}
__attribute__((noinline)) void triad(double *a, const double *b, const double *c, long n) {
  for (long i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
}
/* The same small array read again and again. */
__attribute__((noinline)) double resident(const double *a, long n, int reps) {
  double s = 0;
  for (int r = 0; r < reps; r++)
    for (long i = 0; i < n; i++) s += a[i];
  return s;
}
int main(int argc, char **argv) {
  long n = atol(argv[2]);
  int three = argv[1][0] == 't';
  double *a = malloc(n * 8), *b = three ? malloc(n * 8) : a, *c = three ? malloc(n * 8) : a;
  for (long i = 0; i < n; i++) { a[i] = 0.5; b[i] = 1; c[i] = 2; }  /* not 0: no calloc */
  double s = 0;
  if (argv[1][0] == 's') s = sweep(a, n);
  if (argv[1][0] == 't') triad(a, b, c, n);
  if (argv[1][0] == 'r') s = resident(a, n, 64);
  printf("%f %f\n", s, a[n / 2]);
  return 0;
}
C
cc -O2 -o kernels kernels.c || fail "cannot build the kernels"
# bytes.DRAM counts the lines the function brought in (reads) and what it wrote back;
# the details split them.
check() {  # name function args... -- python expression of n for the expected DRAM reads
  local fn=$1 mode=$2 n=$3 want=$4
  out=$("$bin" measure --no-store --region-function "$fn" -o "$fn.json" -- ./kernels "$mode" "$n" 2>&1) ||
    fail "measure $fn"
  python3 - "$fn.json" "$n" "$want" "$fn" <<'PY' || fail "$fn: DRAM reads off the analytic figure"
import json, sys
doc = json.load(open(sys.argv[1])); n = int(sys.argv[2]); name = sys.argv[4]
pts = [p for p in doc["points"] if p["name"] == "<function %s>" % name]
if not pts: sys.exit("no point named %s in %s" % (name, [p["name"] for p in doc["points"]]))
p = pts[0]
got = float(p["details"]["cache_DRAM_read_bytes"])
want = eval(sys.argv[3], {"n": n, "l1": float(p["bytes"]["L1"])})
print("%s: DRAM reads %d, analytic %d (%+.2f%%), L1 bytes %d" % (name, got, want, 100 * (got - want) / want, p["bytes"]["L1"]))
sys.exit(0 if abs(got - want) <= 0.05 * want else 1)
PY
  echo "$out" | grep -i "cache hierarchy" | head -2
}
# 256 MiB, stride 8 doubles: every load a new line from DRAM (8x the L1 bytes).
check sweep s $((32 * 1024 * 1024)) "8 * l1"
# Three arrays of 96 MiB each: 16 B read per iteration, plus the store's write-allocate read.
check triad t $((12 * 1024 * 1024)) "24 * n"
# 256 KiB read 64 times: from DRAM once (it was written by main just before: what is left in the caches
# counts; at most the array once).
out=$("$bin" measure --no-store --region-function resident -o resident.json -- ./kernels r 32768 2>&1) ||
  fail "measure resident"
python3 - resident.json <<'PY' || fail "resident: DRAM reads above one pass"
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["points"] if p["name"] == "<function resident>"][0]
got = float(p["details"]["cache_DRAM_read_bytes"]); l1 = float(p["bytes"]["L1"])
print("resident: DRAM reads %d for L1 bytes %d (one pass: %d)" % (got, l1, l1 / 64))
sys.exit(0 if got <= 1.05 * l1 / 64 else 1)
PY
echo "ok: the cache simulation uses the checked hierarchy: DRAM reads within 5% of the analytic figures"

# bench: DRAM working sets from the checked L3 (8 x the caches, at least 256 MiB), not 8 x 508 MiB.
out=$("$bin" bench --only memory --pattern load --threads 1 --time-budget 2 --no-store -o m.json 2>&1) ||
  fail "bench"
dram_ws=$(jq '[.memory[] | select(.level == "DRAM") | .working_set_bytes] | max' m.json)
[[ $dram_ws -gt 0 && $dram_ws -lt $((1024 * 1024 * 1024)) ]] || fail "DRAM working set $dram_ws B"
jq -e '.caches[] | select(.level == 3) | .reported_size_bytes == 532676608 and .size_bytes <= 100663296' m.json \
  >/dev/null || fail "the model does not record the check: $(jq -c .caches m.json)"
"$bin" show m.json >/dev/null || fail "show cannot read the model"
echo "ok: bench's DRAM working set $dram_ws B, the model records reported and used L3 sizes"
echo PASS
