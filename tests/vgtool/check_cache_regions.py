#!/usr/bin/env python3
"""Marker regions under the cache simulation of roofline's Valgrind tool: run by run.sh.

usage: check_cache_regions.py TOOL_DIR CASE BINARY   (BINARY: tests/vgtool/cache_regions.c)

triad_l3: an L3-resident triad a[i] = b[i] + s*c[i] whose arrays were all written before
  the region (every line dirty toward DRAM), in a hierarchy like a Zen core's scaled down
  (L1 32 KiB, L2 256 KiB, L3 2 MiB) with L3 a victim cache of L2, then NINE. Inside the
  region the bytes at L3 per iteration must be the bench's L3 roof pattern for a triad,
  nominal + write-allocate: 24 read, 8 written (32 in all), within 3%. In the victim L3,
  b's and c's lines go back down every pass unchanged since they came up: counted apart
  (clean_victim, 16 per iteration), not as written (they were, before the fix: 48 in all).
  The program then reads 2 x L2 outside any region: the lines the region's last pass left
  dirty in L2 go down to L3 then, and are the region's write-backs (written by its stores).
nested: regions "outer" and "inner" opened N times each, and <function work> 2N times
  (--roofline-function=work), under the victim hierarchy. The tool keeps its totals running
  (a region event adds what the superblocks run since the last one gained) instead of
  summing every counter at each event; these are checked against what it sums at the end:
  <function work> (a leaf, called only there) must equal the whole run's counts of the
  function work, every figure, cache traffic included; its inner_instructions, work's
  instructions. With instructions counted one by one (region detail), outer's share of
  work must equal the whole run's too, and each region's functions add up to the region.
  FLOPs are exact (work(k): k multiplies and k adds; main adds its result, one add in
  each region). The run's time is printed, with
  the time per region event over a run with N = 0, not asserted.
two_regions: region A writes an array of 1 MiB that no load reads (it fits L3: its dirty
  lines stay in the caches), then region B reads 8 MiB that nobody wrote, evicting them.
  The write-backs are A's (its stores made them; they happen during B, when the lines are
  evicted): A must be charged 1 MiB written at L2, L3 and DRAM, all of it unread
  write-allocate fills, and B nothing written, within 3% of 1 MiB (before, B was charged
  A's DRAM write-backs, 1 MiB, and A none). The whole run is charged the same either way.
  Victim and NINE L3, process and thread scope.
contexts: a line names the set of regions open when it was written in 14 bits; a program
  with 100 x 100 nested pairs of regions (10,101 sets) is not short of them, one with
  130 x 130 (17,031) is: cache_model says so (writer_contexts_exhausted) and the run
  completes, every region counted."""
import os, sys, time

from vg_counts import flat, run_tool, summed

L2_BYTES = 262144
L1_L2 = "32768:8:64:1,%d:8:64:1" % L2_BYTES
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


def same(what, got, want):
    """every figure of two flat counts"""
    bad = [k for k in sorted(set(got) | set(want)) if got.get(k, 0) != want.get(k, 0)]
    print("%-58s %s" % (what, "ok" if not bad else "MISMATCH: " + ", ".join(
        "%s %s != %s" % (k, got.get(k, 0), want.get(k, 0)) for k in bad[:6])))
    if bad:
        failures.append(what)


def exact(what, got, want):
    print("%-58s got %10s want %10s %s" % (what, got, want, "ok" if got == want else "MISMATCH"))
    if got != want:
        failures.append(what)


def nested(tool_dir, binary):
    n = 100000
    hierarchy = HIERARCHIES["victim"]
    started = time.monotonic()
    run_tool(tool_dir, ["--roofline-function=work"], [binary, "nested", "0"], cache=hierarchy)
    base = time.monotonic() - started
    started = time.monotonic()
    doc = run_tool(tool_dir, ["--roofline-function=work"], [binary, "nested", str(n)], cache=hierarchy)
    took = time.monotonic() - started
    print("nested: %d iterations (%d region events) ran %.2f s under the tool, %.2f s with none: "
          "%.2f us per event (wall clock, informative)" % (n, 8 * n, took, base, (took - base) / (8 * n) * 1e6))
    regions = {r["name"]: r for r in doc["regions"]}
    fn = {f["name"]: f for f in doc["functions"]}
    exact("outer calls", regions["outer"]["calls"], n)
    exact("inner calls", regions["inner"]["calls"], n)
    exact("<function work> calls", regions["<function work>"]["calls"], 2 * n)
    exact("outer f64 mul + add", regions["outer"]["flops"]["f64"]["mul"] + regions["outer"]["flops"]["f64"]["add"], 50 * n)
    exact("inner f64 mul + add", regions["inner"]["flops"]["f64"]["mul"] + regions["inner"]["flops"]["f64"]["add"], 17 * n)
    same("<function work> = the whole run's work (running totals)", flat(regions["<function work>"]), flat(fn["work"]))
    exact("<function work> inner_instructions", regions["<function work>"].get("inner_instructions"),
          {"work": fn["work"]["instructions"]})
    for scope in ("process", "thread"):
        d = run_tool(tool_dir, ["--roofline-region-scope=" + scope, "--roofline-function=work"],
                     [binary, "nested", str(n)], cache=hierarchy)
        r = {x["name"]: x for x in d["regions"]}
        f = {x["name"]: x for x in d["functions"]}
        exact(scope + " scope: outer FLOPs", r["outer"]["flops"]["f64"]["mul"] + r["outer"]["flops"]["f64"]["add"], 50 * n)
        same(scope + " scope: <function work> = the whole run's work", flat(r["<function work>"]), flat(f["work"]))
    # Region detail (measure --loops): each region's counts by function, from the gains the
    # running totals add while it is open.
    obj = os.path.realpath(binary)
    d = run_tool(tool_dir, ["--roofline-per-instruction-object=" + obj], [binary, "nested", str(n)], cache=hierarchy)
    r = {x["name"]: x for x in d["regions"]}
    f = {x["name"]: x for x in d["functions"]}
    for name in ("outer", "inner"):
        same(name + ": its functions add up to it", summed(r[name]["functions"]), flat(r[name]))
    outer_work = [x for x in r["outer"]["functions"] if x["name"] == "work"]
    same("outer's share of work = the whole run's work", flat(outer_work[0]) if outer_work else {}, flat(f["work"]))
    inner_work = [x for x in r["inner"]["functions"] if x["name"] == "work"]
    exact("inner's work: f64 mul + add", inner_work[0]["flops"]["f64"]["mul"] + inner_work[0]["flops"]["f64"]["add"]
          if inner_work else None, 16 * n)


def main():
    tool_dir, case, binary = sys.argv[1:4]
    if case == "triad_l3":
        n, reps = 49152, 4  # 3 x 384 KiB: 4.5x L2, 0.56x L3
        for name, hierarchy in HIERARCHIES.items():
            doc = run_tool(tool_dir, [], [binary, "triad_l3", str(n), str(reps), str(L2_BYTES)], cache=hierarchy)
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
    elif case == "two_regions":
        na, nb = 1 << 17, 1 << 20
        size = 8 * na
        for name, hierarchy in HIERARCHIES.items():
            for scope in ("process", "thread"):
                doc = run_tool(tool_dir, ["--roofline-region-scope=" + scope], [binary, "two_regions", str(na), str(nb)],
                               cache=hierarchy)
                a, b, whole = region(doc, "A")["cache"], region(doc, "B")["cache"], region(doc, "(program)")["cache"]
                what = "%s, %s scope: " % (name, scope)
                for level in ("L2", "L3", "DRAM"):
                    expect(what + "A written at " + level + " / its bytes", a[level]["write"] / size, 1)
                    expect(what + "B written at " + level + " / A's bytes", b[level]["write"] / size, 0, scale=1)
                expect(what + "A unread write-allocate / its bytes", a["DRAM"]["write_allocate_unread"] / size, 1)
                expect(what + "B unread write-allocate / A's bytes", b["DRAM"]["write_allocate_unread"] / size, 0, scale=1)
                expect(what + "B read from DRAM / its bytes", b["DRAM"]["read"] / (8 * nb), 1)
                expect(what + "the run's DRAM writes cover A's", min(whole["DRAM"]["write"] / size, 1), 1)
    elif case == "contexts":
        for n, exhausted in ((100, False), (130, True)):
            doc = run_tool(tool_dir, [], [binary, "contexts", str(n)], cache=HIERARCHIES["victim"])
            exact("%d x %d region pairs: writer contexts exhausted" % (n, n),
                  doc["cache_model"].get("writer_contexts_exhausted", False), exhausted)
            exact("%d x %d region pairs: regions" % (n, n), len(doc["regions"]), 1 + 2 * n)
            exact("%d x %d region pairs: calls of s0" % (n, n), region(doc, "s0")["calls"], n)
    elif case == "nested":
        nested(tool_dir, binary)
    else:
        sys.exit("unknown case %s" % case)
    if failures:
        sys.exit("FAIL: " + ", ".join(failures))
    print("PASS")


main()
