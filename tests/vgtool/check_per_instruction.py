#!/usr/bin/env python3
"""--roofline-per-instruction (measure --loops, issue 36): run by run.sh.

usage: check_per_instruction.py TOOL_DIR BINARY
Runs tests/loops/loop_shapes (BINARY, built at -O2) under the tool with the cache
simulation, counting daxpy, sweep_reduce_copy and matmul instruction by instruction,
and checks that every function's per-instruction counts add up to its own
(instructions, FLOPs, bytes, cache traffic: the same records, split), that no other
function is listed, that addresses are the object's link-time addresses (inside the
function's ELF symbol), that daxpy's loop jumps back n - 1 times, and that
calls_through_pointer's indirect call says where it went."""
import os, subprocess, sys

from vg_counts import run_tool, summed

tool_dir, binary = sys.argv[1], sys.argv[2]
N = 10007
asked = ["daxpy", "sweep_reduce_copy", "matmul", "calls_through_pointer"]
doc = run_tool(tool_dir, ["--roofline-per-instruction=" + f for f in asked], [binary, str(N)])

failures = []
def expect(what, got, want):
    if got != want:
        failures.append("%s: got %r, want %r" % (what, got, want))

# ELF symbols of the binary, for the address check (nm: address, size, name).
nm = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout
symbols = {}
for line in nm.splitlines():
    parts = line.split()
    if len(parts) == 4 and parts[2] in "tT":
        symbols[parts[3]] = (int(parts[0], 16), int(parts[1], 16))

insns = doc.get("per_instruction")
if insns is None:
    sys.exit("FAIL: no \"per_instruction\" in the output")
expect("functions listed per instruction", sorted({i["name"] for i in insns}), sorted(asked))
for name in asked:
    mine = [i for i in insns if i["name"] == name]
    fn = [f for f in doc["functions"] if f["name"] == name]
    if len(fn) != 1:
        failures.append("%s: %d entries in \"functions\"" % (name, len(fn)))
        continue
    added = summed(mine)
    whole = summed(fn)
    for k in sorted(set(whole) | set(added)):
        expect("%s: %s summed over its instructions" % (name, k), added.get(k, 0), whole.get(k, 0))
    start, size = symbols.get(name, (0, 0))
    outside = [hex(i["address"]) for i in mine if not start <= i["address"] < start + size]
    expect("%s: addresses outside its symbol [%#x, %#x)" % (name, start, start + size), outside, [])
    expect("%s: object" % name, {i.get("object") for i in mine}, {os.path.realpath(binary)})

# daxpy's loop: its body runs N times, its jump back is taken N - 1 times.
daxpy = sorted((i for i in insns if i["name"] == "daxpy"), key=lambda i: i["address"])
jumps = [i for i in daxpy if "taken" in i and i["instructions"] == N]
expect("daxpy: the loop's jump (runs, taken)", [(j["instructions"], j["taken"]) for j in jumps], [(N, N - 1)])
flops = sum(sum(i["flops"]["f64"].values()) for i in daxpy)
expect("daxpy: FLOPs", flops, 2 * N)

# calls_through_pointer's indirect call: where it went (halve_add, N times; its link-time address).
targets = [t for i in insns if i["name"] == "calls_through_pointer" for t in i.get("call_targets", [])]
expect("calls_through_pointer: its indirect call's targets",
       [(t["function"], t["calls"], t["address"], t.get("object")) for t in targets],
       [("halve_add", N, symbols.get("halve_add", (0, 0))[0], os.path.realpath(binary))])
expect("call targets of other instructions", [i["name"] for i in insns if "call_targets" in i and i["name"] != "calls_through_pointer"], [])

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("per-instruction counts of %d instructions add up to their functions'" % len(insns))
