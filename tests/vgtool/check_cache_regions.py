#!/usr/bin/env python3
"""Marker regions under the cache simulation of roofline's Valgrind tool: run by run.sh.

usage: check_cache_regions.py TOOL_DIR CASE BINARY   (BINARY: tests/vgtool/cache_regions.c)

triad_l3: an L3-resident triad a[i] = b[i] + s*c[i] whose arrays were all written before
  the region (every line dirty toward DRAM), in a hierarchy like a Zen core's scaled down
  (L1 32 KiB, L2 256 KiB, L3 2 MiB) with L3 a victim cache of L2, then NINE. Inside the
  region the bytes at L3 per iteration must be the bench's L3 roof pattern for a triad,
  nominal + write-allocate: 24 read, 8 written (32 in all), within 3%. In the victim L3,
  b's and c's lines go back down every pass unchanged since they came up: counted apart
  (clean_victim, 16 per iteration), not as written (they were, before the fix: 48 in all)."""
import sys

from vg_counts import run_tool

L1_L2 = "32768:8:64:1,262144:8:64:1"
HIERARCHIES = {"victim": L1_L2 + ",2097152:16:64:1:victim", "NINE": L1_L2 + ",2097152:16:64:1"}
TOLERANCE = 0.03
failures = []


def expect(what, got, want, scale=None):
    """within TOLERANCE of want; a want of 0: at most TOLERANCE of scale"""
    limit = TOLERANCE * (want if want else scale)
    ok = abs(got - want) <= limit
    print("%-58s got %10.3f want %8.3f (+-%.3g) %s" % (what, got, want, limit, "ok" if ok else "MISMATCH"))
    if not ok:
        failures.append(what)


def region(doc, name):
    for r in doc["regions"]:
        if r["name"] == name:
            return r
    sys.exit("FAIL: no region %r in the output" % name)


def main():
    tool_dir, case, binary = sys.argv[1:4]
    if case == "triad_l3":
        n, reps = 49152, 4  # 3 x 384 KiB: 4.5x L2, 0.56x L3
        for name, hierarchy in HIERARCHIES.items():
            doc = run_tool(tool_dir, [], [binary, "triad_l3", str(n), str(reps)], cache=hierarchy)
            l3 = region(doc, "triad")["cache"]["L3"]
            it = n * reps
            expect("%s L3: bytes per iteration (read + written)" % name, (l3["read"] + l3["write"]) / it, 32)
            expect("%s L3: read per iteration" % name, l3["read"] / it, 24)
            expect("%s L3: written per iteration" % name, l3["write"] / it, 8)
            if name == "victim":
                expect("victim L3: clean victims per iteration (b, c)", l3["clean_victim"] / it, 16)
            dram = region(doc, "triad")["cache"]["DRAM"]
            expect("%s DRAM: bytes per iteration (resident in L3)" % name, (dram["read"] + dram["write"]) / it, 0,
                   scale=32)
    else:
        sys.exit("unknown case %s" % case)
    if failures:
        sys.exit("FAIL: " + ", ".join(failures))
    print("PASS")


main()
