#!/usr/bin/env python3
"""Threads placed on simulated cores as their CPU affinity says (issue 11).

usage: check_cache_threads.py TOOL_DIR BINARY   (BINARY: tests/vgtool/cache_threads.c)
Two threads each fill a 160 KiB array, then re-read it 8 times, strictly in turn.
The hierarchy: L1 32 KiB and L2 256 KiB private, L3 2 MiB shared by 2 cores. The
passes' traffic (a run with them less one without) on two cores: every pass hits
in its L2 (L3 read ~ 0); on one core the two arrays (320 KiB) overflow the shared
L2 every pass (LRU, cyclic: every line misses, L3 read ~ 8 x 320 KiB). Cases: pinned to CPUs 0 and 1 of two cores; the same CPUs as two
hardware threads of one core; both pinned to CPU 0; and no CPU map (thread n on
core (n-1) mod cores). Exits 77 when this machine has fewer than 2 CPUs to pin to."""
import json, os, subprocess, sys, tempfile

HIERARCHY = "32768:8:64:1,262144:8:64:1,2097152:16:64:2"
KIB = 1024
ARRAY, PASSES = 160 * KIB, 8
TOLERANCE = 0.05

def run(tool_dir, binary, cpus, cpu_cores, passes):
    fd, out = tempfile.mkstemp(prefix="rl-cache-threads-", suffix=".json")
    os.close(fd)
    cmd = ["valgrind", "-q", "--tool=roofline", "--roofline-out=" + out, "--roofline-cache=" + HIERARCHY,
           "--roofline-cache-cores=2"]
    if cpu_cores is not None:
        cmd.append("--roofline-cpu-cores=" + cpu_cores)
    cmd += [binary, str(cpus[0]), str(cpus[1]), str(ARRAY), str(passes)]
    p = subprocess.run(cmd, env=dict(os.environ, VALGRIND_LIB=tool_dir), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode == 3:
        print("SKIP: " + p.stderr.strip())
        sys.exit(77)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(out) as f:
        doc = json.load(f)
    os.unlink(out)
    return doc

def main():
    tool_dir, binary = sys.argv[1:3]
    if len(os.sched_getaffinity(0)) < 2 or not {0, 1} <= os.sched_getaffinity(0):
        print("SKIP: CPUs 0 and 1 are needed to pin the two threads")
        sys.exit(77)
    one_pass = 2 * ARRAY
    cases = [
        ("two cores, pinned", (0, 1), "0,1", {0, 1}, True, 0),
        ("one core (CPUs 0 and 1 its hardware threads)", (0, 1), "0,0", {0}, True, PASSES * one_pass),
        ("two cores, both pinned to CPU 0", (0, 0), "0,1", {0}, True, PASSES * one_pass),
        ("no CPU map: thread n on core (n-1) mod 2", (0, 1), None, {0, 1}, False, 0),
    ]
    failures = []
    for what, cpus, cpu_cores, want_cores, want_pinned, want_l3 in cases:
        doc = run(tool_dir, binary, cpus, cpu_cores, PASSES)
        base = run(tool_dir, binary, cpus, cpu_cores, 0)
        model = doc["cache_model"]
        workers = [t for t in model["threads"] if t["thread"] > 1]
        cores = {t["core"] for t in workers}
        pinned = all(t["pinned"] for t in workers)
        l3 = doc["regions"][0]["cache"]["L3"]["read"] - base["regions"][0]["cache"]["L3"]["read"]
        ok_l3 = abs(l3 - want_l3) <= TOLERANCE * PASSES * one_pass
        ok = len(workers) == 2 and cores == want_cores and pinned == want_pinned and ok_l3 and \
            model["placement"] == ("affinity" if cpu_cores else "round-robin")
        print("%-50s cores %-8s pinned %-5s L3 read %9d want %9d  %s" %
              (what, sorted(cores), pinned, l3, want_l3, "ok" if ok else "MISMATCH"))
        if not ok:
            failures.append(what)
            print("  threads: %s" % model["threads"])
    if failures:
        sys.exit("FAIL: %s" % ", ".join(failures))

main()
