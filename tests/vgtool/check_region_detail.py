#!/usr/bin/env python3
"""A marker region's counts by function and by instruction (measure --loops inside a
region, issue 36): run by run.sh.

usage: check_region_detail.py TOOL_DIR BINARY
Runs tests/loops/loop_regions (BINARY) under the tool with the cache simulation,
counting the program's own code instruction by instruction, and checks that each
client-request region ("solve", "check") carries "functions" and "per_instruction"
holding only what ran while it was open: its functions add up to the region's counts,
each function's instructions to the function's, and the FLOPs are the program's (daxpy
twice and norm once in "solve", norm once in "check", scale in neither); that
"(program)" carries none; and that with --roofline-region-scope=thread no region does
(another thread's work moves the same counters)."""
import os, sys

from vg_counts import flat, flops, run_tool, summed

tool_dir, binary = sys.argv[1], sys.argv[2]
N = 10007
failures = []


def expect(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))


def run(*options):
    doc = run_tool(tool_dir, ["--roofline-per-instruction-object=" + os.path.realpath(binary), *options],
                   [binary, str(N)])
    return {r["name"]: r for r in doc["regions"]}, doc


regions, doc = run()
expect("\"(program)\" split by function", "functions" in regions["(program)"], False)
want = {"solve": {"daxpy": 4 * N, "norm": 2 * N}, "check": {"norm": 2 * N}}
for name, want_flops in want.items():
    r = regions.get(name)
    if r is None or "per_instruction" not in r or "functions" not in r:
        failures.append("region %s: no \"functions\" and \"per_instruction\" of its own" % name)
        continue
    whole, added = flat(r), summed(r["functions"])
    for k in sorted(set(whole) | set(added)):
        expect("%s: %s summed over its functions" % (name, k), added.get(k, 0), whole.get(k, 0))
    own = {f["name"]: f for f in r["functions"] if f.get("object") == os.path.realpath(binary)}
    for fname, f in own.items():
        mine = [i for i in r["per_instruction"] if i["name"] == fname]
        by_insn, by_fn = summed(mine), flat(f)
        for k in sorted(set(by_fn) | set(by_insn)):
            expect("%s: %s: %s summed over its instructions" % (name, fname, k), by_insn.get(k, 0), by_fn.get(k, 0))
    got = {fname: flops(f) for fname, f in own.items() if fname != "main" and flops(f)}
    expect("%s: FLOPs by function" % name, got, want_flops)
whole_daxpy = [f for f in doc["functions"] if f["name"] == "daxpy"]
expect("the whole run's daxpy FLOPs", [flops(f) for f in whole_daxpy], [6 * N])

regions, _ = run("--roofline-region-scope=thread")
expect("regions split by function in thread scope", [n for n, r in regions.items() if "functions" in r], [])

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("regions solve and check: counts by function and instruction add up, FLOPs as the program does")
