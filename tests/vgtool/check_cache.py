#!/usr/bin/env python3
"""Cache simulation of roofline's Valgrind tool against traffic known on paper (issue 11).

usage: check_cache.py TOOL_DIR CASE BINARY
Runs BINARY (tests/vgtool/cache_kernels.c) under `valgrind --tool=roofline` with a
small hierarchy (L1 32 KiB, L2 256 KiB, L3 2 MiB; 64-byte lines), once with the
kernel and once with `none` (the program's own start and end, subtracted), and
compares the bytes across each boundary of the whole program with the analytic
figure: within 5%, as issue 11 asks. Dirty lines still held at the end count as
written (they are written back at eviction, after the run). CASE ends in
".victim" to make L3 a victim cache of L2, as AMD's is."""
import json, os, subprocess, sys, tempfile

NINE = "32768:8:64:1,262144:8:64:1,2097152:16:64:1"
VICTIM = NINE + ":victim"
TOLERANCE = 0.05

def run(tool_dir, hierarchy, binary, args):
    victim = hierarchy.endswith(":victim")
    fd, out = tempfile.mkstemp(prefix="rl-cache-", suffix=".json")
    os.close(fd)
    cmd = ["valgrind", "-q", "--tool=roofline", "--roofline-out=" + out, "--roofline-cache=" + hierarchy,
           binary] + args
    p = subprocess.run(cmd, env=dict(os.environ, VALGRIND_LIB=tool_dir), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(out) as f:
        doc = json.load(f)
    os.unlink(out)
    program = doc["regions"][0]
    c = program["cache"]
    return {
        "L2 read": c["L2"]["read"], "L3 read": c["L3"]["read"],
        # lines filled into L2 from below: through L3, or (L3 a victim cache) from L3 or DRAM
        "L2 filled": c["L3"]["read"] + (c["DRAM"]["read"] if victim else 0),
        "DRAM read": c["DRAM"]["read"],
        "DRAM written": c["DRAM"]["write"] + program["dirty_at_end"],
        "DRAM nontemporal": c["DRAM"]["nontemporal"],
        "DRAM write-allocate unread": c["DRAM"]["write_allocate_unread"],
        "dirty at end": program["dirty_at_end"],
        "L1 loaded": program["bytes_loaded"],
    }

failures = []

def expect(what, got, want, scale=None):
    """within TOLERANCE of want; a want of 0 means at most TOLERANCE of scale"""
    limit = TOLERANCE * (want if want else scale)
    ok = abs(got - want) <= limit
    print("%-40s got %12s want %12s (+-%.3g) %s" % (what, got, want, limit, "ok" if ok else "MISMATCH"))
    if not ok:
        failures.append(what)

def main():
    tool_dir, case, binary = sys.argv[1:4]
    kernel, _, variant = case.partition(".")
    hierarchy = VICTIM if variant == "victim" else NINE
    base = run(tool_dir, hierarchy, binary, ["none", "0"])
    def measured(args):
        m = run(tool_dir, hierarchy, binary, args)
        return {k: m[k] - base[k] for k in m}
    if kernel == "triad":
        n, reps = 1 << 20, 3
        m = measured(["triad", str(n), str(reps)])
        # the first writes of a, b and c read their lines for ownership; each pass reads b, c and a
        expect("triad DRAM read", m["DRAM read"], 24 * n * (1 + reps))
        expect("triad DRAM written", m["DRAM written"], 24 * n + 8 * n * reps)
    elif kernel == "reuse":
        size, passes = 128 * 1024, 20
        m = measured(["reuse", str(size), str(passes)])
        expect("reuse L2 read (every pass misses L1)", m["L2 read"], size * (1 + passes))
        expect("reuse DRAM read (the first write only)", m["DRAM read"], size)
    elif kernel == "stride":
        n = 1 << 16
        m = measured(["stride", str(n)])
        expect("stride DRAM read (a line per load)", m["DRAM read"], 64 * n)
        expect("stride DRAM read / L1 bytes", round(m["DRAM read"] / m["L1 loaded"], 3), 8.0)
    elif kernel == "ntstore":
        n = 1 << 20
        m = measured(["ntstore", str(n)])
        expect("ntstore DRAM nontemporal", m["DRAM nontemporal"], 8 * n)
        expect("ntstore DRAM read (no read for ownership)", m["DRAM read"], 0, scale=8 * n)
    elif kernel in ("writeonly", "rmw"):
        # 8 MiB (4x L3) streamed REPS times. Only written: every line a store brings from DRAM
        # goes back unread (those still dirty at the end would, at eviction). Loaded first and
        # then stored: the same lines move, none of them an unread write-allocate fill.
        n, reps = 1 << 20, 3
        m = measured([kernel, str(n), str(reps)])
        expect(kernel + " DRAM read", m["DRAM read"], 8 * n * reps)
        expect(kernel + " DRAM written", m["DRAM written"], 8 * n * reps)
        unread = m["DRAM write-allocate unread"]
        if kernel == "writeonly":
            expect("writeonly unread write-allocate (+ dirty at end)", unread + m["dirty at end"], 8 * n * reps)
        else:
            expect("rmw unread write-allocate", unread, 0, scale=8 * n * reps)
    elif kernel in ("jacobi_l2", "jacobi_l3"):
        # 2-D 5-point Jacobi, two sweeps; 8 B doubles, G grid points. Source rows of 16 KiB
        # (3 rows fit in L2, not in L1) or 256 KiB (3 rows fit only in L3); both grids of 10 MiB,
        # far beyond L3. Setup writes both grids (16 G read for ownership, 16 G written back).
        # A sweep reads the source once from DRAM (8 G) and writes R-2 rows of the target
        # (read for ownership and written back: 8 C each). Where the layer condition
        # fails, each source row comes in 3 times (as rows i+1, i, i-1) plus the target row.
        rows, cols, sweeps = (640, 2048, 2) if kernel == "jacobi_l2" else (40, 32768, 2)
        g, inner = rows * cols, (rows - 2) * cols
        m = measured(["jacobi", str(rows), str(cols), str(sweeps)])
        expect(kernel + " DRAM read", m["DRAM read"], 16 * g + sweeps * (8 * g + 8 * inner))
        expect(kernel + " DRAM written", m["DRAM written"], 16 * g + sweeps * 8 * inner)
        broken_in_l2 = 16 * g + sweeps * 32 * inner
        expect(kernel + " L2 filled from below", m["L2 filled"],
               16 * g + sweeps * (8 * g + 8 * inner) if kernel == "jacobi_l2" else broken_in_l2)
        expect(kernel + " L2 read (no layer condition in L1)", m["L2 read"], broken_in_l2)
    elif kernel == "transpose":
        # b = a^T, a 64 x 40000 (20 MB; b is not written before). Naive: the 40000 lines of b
        # a row of a writes to do not stay in any level (2.5 MB > L3), so every 8-byte store
        # costs a line read for ownership and a line written back; blocked 32 x 32 (16 KiB
        # in L1): each line of a and b moves once. Setup writes a (8 G read, 8 G written).
        rows, cols = 64, 40000
        g = rows * cols
        naive = measured(["transpose", str(rows), str(cols), "0"])
        blocked = measured(["transpose", str(rows), str(cols), "32"])
        expect("transpose naive DRAM read", naive["DRAM read"], 8 * g + 8 * g + 64 * g)
        expect("transpose naive DRAM written", naive["DRAM written"], 8 * g + 64 * g)
        expect("transpose blocked DRAM read", blocked["DRAM read"], 8 * g + 8 * g + 8 * g)
        expect("transpose blocked DRAM written", blocked["DRAM written"], 8 * g + 8 * g)
        kernel_ratio = (naive["DRAM read"] + naive["DRAM written"] - 16 * g) / \
                       (blocked["DRAM read"] + blocked["DRAM written"] - 16 * g)
        expect("transpose DRAM bytes naive / blocked", round(kernel_ratio, 3), (8 + 64 + 64) / (8 + 8 + 8))
    else:
        sys.exit("unknown case %s" % case)
    if failures:
        sys.exit("FAIL: " + ", ".join(failures))
    print("PASS")

main()
