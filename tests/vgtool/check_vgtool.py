#!/usr/bin/env python3
"""Checks for roofline's Valgrind tool (tools/vgtool). Run by run.sh.

usage: check_vgtool.py TOOL_DIR CASE BINARY [ARGS...]
Runs BINARY under `valgrind --tool=roofline` and compares the JSON with the
analytic counts of CASE (folded: BINARY N, folded.c, run with Z = 0 and 1).  FLOPs must match exactly.  Bytes of the kernel's
<function NAME> region must equal the analytic bytes, plus at most SURPLUS
bytes from calls/stack (ret pops, callee-saved pushes)."""
import json, os, subprocess, sys, tempfile

SURPLUS = 64

def run(tool_dir, binary, args, funcs, tag):
    return run_with(tool_dir, binary, args, ["--roofline-function=" + f for f in funcs], tag)

def run_with(tool_dir, binary, args, options, tag):
    fd, out = tempfile.mkstemp(prefix="rl-vg-%s-" % tag, suffix=".json")
    os.close(fd)
    cmd = ["valgrind", "-q", "--tool=roofline", "--roofline-out=" + out] + options
    cmd += [binary] + args
    env = dict(os.environ, VALGRIND_LIB=tool_dir)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(out) as f:
        text = f.read()
    os.unlink(out)
    return text, json.loads(text)

def region(doc, name):
    for r in doc["regions"]:
        if r["name"] == name:
            return r
    sys.exit("FAIL: no region %r in output" % name)

def total(r):
    return sum(sum(v.values()) for v in r["flops"].values())

failures = []

def expect(what, got, want):
    ok = got == want
    print("%-48s got %-12s want %-12s %s" % (what, got, want, "ok" if ok else "MISMATCH"))
    if not ok:
        failures.append(what)

def expect_bytes(what, got, lo, hi=None):
    hi = lo + SURPLUS if hi is None else hi
    ok = lo <= got <= hi
    print("%-48s got %-12s want [%d, %d] %s" % (what, got, lo, hi, "ok" if ok else "MISMATCH"))
    if not ok:
        failures.append(what)

def main():
    tool_dir, case, binary, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if case in ("daxpy", "dot", "dgemm", "stencil"):
        n = int(args[1])
        _, d = run(tool_dir, binary, args, ["kernel_" + case], case)
        r = region(d, "<function kernel_%s>" % case)
        expect("calls", r["calls"], 1)
        fns = {f["name"]: f for f in d["functions"]}
        fx = fns.get("kernel_" + case)
        if fx is None:
            sys.exit("FAIL: kernel_%s missing from functions" % case)
        # the kernel calls nothing: inclusive region == exclusive function counts
        for key in ("flops", "flops_by_width", "bytes_loaded", "bytes_stored"):
            expect("region == function-exclusive " + key, r[key], fx[key])
        f64 = r["flops"]["f64"]
        if case == "daxpy":
            expect("f64 flops", total(r), 2 * n)
            expect("f64 add+fma+mul", f64["add"] + f64["mul"] + f64["fma"], 2 * n)
            expect_bytes("bytes_loaded (16n)", r["bytes_loaded"], 16 * n)
            expect_bytes("bytes_stored (8n)", r["bytes_stored"], 8 * n)
        elif case == "dot":
            expect("f64 flops", total(r), 2 * n)
            expect_bytes("bytes_loaded (16n)", r["bytes_loaded"], 16 * n)
            expect_bytes("bytes_stored (0)", r["bytes_stored"], 0)
        elif case == "dgemm":
            expect("f64 flops", total(r), 2 * n ** 3)
            # B is read n^3 times; C read n^3 times at most, A at least n^2 times.
            # Registers may keep C/A values: check the binary-independent bounds.
            expect_bytes("bytes_loaded", r["bytes_loaded"], 8 * n ** 3 + 8 * n ** 2,
                         16 * n ** 3 + 8 * n ** 2 + SURPLUS)
            expect_bytes("bytes_stored", r["bytes_stored"], 8 * n ** 2, 8 * n ** 3 + SURPLUS)
            if "O2" in os.path.basename(binary):
                # -O2 (no vectorization, no unroll-and-jam): the i-k-j loop
                # loads B and C and stores C once per inner iteration, A once per (i,k).
                expect_bytes("-O2 bytes_loaded (16n^3+8n^2)", r["bytes_loaded"],
                             16 * n ** 3 + 8 * n ** 2)
                expect_bytes("-O2 bytes_stored (8n^3)", r["bytes_stored"], 8 * n ** 3)
        elif case == "stencil":
            expect("f64 flops", total(r), 5 * (n - 2))
            expect("f64 mul+fma", f64["mul"] + f64["fma"], 3 * (n - 2) + f64["fma"] // 2)
            expect_bytes("bytes_stored (8(n-2))", r["bytes_stored"], 8 * (n - 2))
            expect_bytes("bytes_loaded (between 8n and 24(n-2))", r["bytes_loaded"], 8 * n,
                         24 * (n - 2) + SURPLUS)
        expect("no f32 flops", sum(r["flops"]["f32"].values()), 0)
        expect("flops_by_width sums to flops", sum(r["flops_by_width"].values()), total(r))
    elif case == "avx512":
        fd, out = tempfile.mkstemp(prefix="rl-vg-avx512-", suffix=".json")
        os.close(fd)
        env = dict(os.environ, VALGRIND_LIB=tool_dir)
        p = subprocess.run(["valgrind", "-q", "--tool=roofline", "--roofline-out=" + out, binary],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.unlink(out)
        print(p.stderr)
        expect("exit status is not 0", p.returncode != 0, True)
        expect("message names AVX-512 and the perf engine",
               "roofline: error: unsupported AVX-512" in p.stderr and "--engine perf" in p.stderr,
               True)
    elif case == "deterministic":
        a, _ = run(tool_dir, binary, args, ["kernel_" + args[0]], "det1")
        b, _ = run(tool_dir, binary, args, ["kernel_" + args[0]], "det2")
        expect("two runs give identical JSON", a == b, True)
    elif case in ("addsub", "fma", "mask", "f32", "hadd", "dpp", "regions"):
        n = int(args[1])
        _, d = run(tool_dir, binary, args, ["kernel_" + case], case)
        r = region(d, "<function kernel_%s>" % case)
        f64, f32, w = r["flops"]["f64"], r["flops"]["f32"], r["flops_by_width"]
        if case == "addsub":
            expect("addsubpd: f64 add", f64["add"], n)
            expect("addsubpd: f64 sub", f64["sub"], n)
            expect("addsubpd: 128-bit flops", w["128"], 2 * n)
            expect("total flops", total(r), 2 * n)
        elif case == "fma":
            expect("vfmadd231pd ymm: f64 fma flops", f64["fma"], 8 * n)
            expect("256-bit flops", w["256"], 8 * n)
            expect("total flops", total(r), 8 * n)
        elif case == "hadd":
            expect("vhaddpd ymm + xmm: f64 add", f64["add"], 6 * n)
            expect("vhsubpd ymm: f64 sub", f64["sub"], 4 * n)
            expect("vhaddps ymm: f32 add", f32["add"], 8 * n)
            expect("vhsubps ymm: f32 sub", f32["sub"], 8 * n)
            expect("256-bit flops (the ymm forms, though VEX computes them by halves)", w["256"], 24 * n)
            expect("128-bit flops (vhaddpd xmm)", w["128"], 2 * n)
            expect("total flops", total(r), 26 * n)
        elif case == "dpp":
            expect("vdpps ymm + xmm: f32 mul (an element each, whatever the mask)", f32["mul"], 12 * n)
            expect("vdpps ymm + xmm: f32 add", f32["add"], 12 * n)
            expect("vdppd xmm: f64 mul", f64["mul"], 2 * n)
            expect("vdppd xmm: f64 add", f64["add"], 2 * n)
            expect("256-bit flops (vdpps ymm)", w["256"], 16 * n)
            expect("128-bit flops (vdpps, vdppd xmm)", w["128"], 12 * n)
            expect("total flops", total(r), 28 * n)
        elif case == "mask":
            k = int(args[2])
            expect_bytes("vmaskmovpd store bytes (8*k*n)", r["bytes_stored"], 8 * k * n)
            expect_bytes("vmaskmovpd load bytes (8*k*n)", r["bytes_loaded"], 8 * k * n)
            expect("total flops", total(r), 0)
        elif case == "f32":
            expect("f32 sqrt", f32["sqrt"], 8 * n)
            expect("f32 minmax", f32["minmax"], 8 * n)
            expect("f32 div", f32["div"], 8 * n)
            expect("256-bit flops", w["256"], 24 * n)
            expect("total flops", total(r), 24 * n)
        elif case == "regions":
            o, i = region(d, "outer"), region(d, "inner")
            expect("outer calls", o["calls"], 1)
            expect("inner calls", i["calls"], 1)
            expect("outer f64 mul", o["flops"]["f64"]["mul"], n)
            expect("outer f64 add (inclusive of inner)", o["flops"]["f64"]["add"], n)
            expect("outer total", total(o), 2 * n)
            expect("inner f64 add", i["flops"]["f64"]["add"], n)
            expect("inner total", total(i), n)
            expect("program >= outer", total(region(d, "(program)")) >= total(o), True)
    elif case == "folded":
        # Every executed FP instruction with its lanes, also those VEX's optimiser would
        # fold (folded.c): one run with Z = 0 and one with Z = 1.
        n = int(args[0])
        _, d0 = run(tool_dir, binary, [str(n), "0"], [], "folded0")
        _, d1 = run(tool_dir, binary, [str(n), "1"], [], "folded1")
        want = {  # case: (precision, kind, FLOPs per iteration, width)
            "divsd": ("f64", "div", 1, "scalar"), "sqrtsd": ("f64", "sqrt", 1, "scalar"),
            "maxss": ("f32", "minmax", 1, "scalar"), "maxps_ymm": ("f32", "minmax", 8, "256"),
            "sqrtps_xmm": ("f32", "sqrt", 4, "128"), "sqrtpd_ymm": ("f64", "sqrt", 4, "256"),
            "sqrtpd_store": ("f64", "sqrt", 4, "256"), "mul_dead": ("f64", "mul", 4, "256"),
            "fma_dead": ("f64", "fma", 8, "256"), "add_twice": ("f64", "add", 2, "scalar"),
            "x87_sqrt": ("f64", "sqrt", 1, "scalar"),
        }
        for name, (p, k, per, w) in want.items():
            r = region(d0, name)
            expect("%s: %s %s" % (name, p, k), r["flops"][p][k], per * n)
            expect("%s: %s-bit flops" % (name, w) if w != "scalar" else name + ": scalar flops",
                   r["flops_by_width"][w], per * n)
            expect(name + ": total flops", total(r), per * n)
        r = region(d0, "mul_then_div")
        expect("mul_then_div: f64 mul (its result overwritten)", r["flops"]["f64"]["mul"], 4 * n)
        expect("mul_then_div: f64 div", r["flops"]["f64"]["div"], 4 * n)
        expect("mul_then_div: total flops", total(r), 8 * n)
        expect_bytes("sqrtpd_store: bytes stored (32n)", region(d0, "sqrtpd_store")["bytes_stored"], 32 * n)
        r = region(d0, "load_dead")
        expect_bytes("load_dead: bytes loaded (64n, the first load's value unused)", r["bytes_loaded"], 64 * n)
        expect("load_dead: total flops", total(r), 0)
        x2, x3 = region(d0, "xsave_sse"), region(d0, "xsave_x87_sse")
        expect("xsave: bytes stored with the x87 part less without it (152n)",
               x3["bytes_stored"] - x2["bytes_stored"], 152 * n)
        s0, s1 = region(d0, "and_skipped"), region(d1, "and_skipped")
        expect("and_skipped, Z = 0: f64 mul (never run)", s0["flops"]["f64"]["mul"], 0)
        expect("and_skipped, Z = 1: f64 mul", s1["flops"]["f64"]["mul"], n)
        expect("and_skipped: instructions with Z = 1 less with Z = 0 (4n)",
               s1["instructions"] - s0["instructions"], 4 * n)
    elif case == "insn_kinds":
        # insn_kinds.c: what VEX's translation of each instruction kind would hide.
        n = int(args[0])
        _, d = run(tool_dir, binary, [str(n)], [], "insn_kinds")
        r = lambda name: region(d, name)
        for name, lanes, size in (("gather_dpd_4of4", 4, 8), ("gather_dpd_3of4", 3, 8), ("gather_dpd_0of4", 0, 8),
                                  ("gather_dps_5of8", 5, 4), ("gather_qq_1of2", 1, 8)):
            # plus the mask and the indices, loaded once before the loop (at most 64 bytes)
            expect_bytes("%s: bytes loaded (the selected lanes', %dn)" % (name, lanes * size),
                         r(name)["bytes_loaded"], lanes * size * n, lanes * size * n + 64 + SURPLUS)
        stored = {m: r("xsave_%d" % m)["bytes_stored"] for m in (1, 2, 3, 7)}
        expect("xsave: x87 state (RFBM 3 less 2) 152n, MXCSR not twice", stored[3] - stored[2], 152 * n)
        expect("xsave: SSE state with MXCSR (RFBM 3 less 1) 264n", stored[3] - stored[1], 264 * n)
        expect("xsave: AVX upper halves (RFBM 7 less 3) 256n", stored[7] - stored[3], 256 * n)
        expect("xrstor: x87 state (RFBM 3 less 2) 152n",
               r("xrstor_3")["bytes_loaded"] - r("xrstor_2")["bytes_loaded"], 152 * n)
        expect_bytes("fxsave: bytes stored (416n)", r("fxsave")["bytes_stored"], 416 * n)
        expect_bytes("fxrstor: bytes loaded (416n)", r("fxrstor")["bytes_loaded"], 416 * n)
        expect_bytes("ldmxcsr: bytes loaded (4n)", r("ldmxcsr")["bytes_loaded"], 4 * n)
        expect_bytes("stmxcsr: bytes stored (4n)", r("stmxcsr")["bytes_stored"], 4 * n)
        want = {"fmaddsub_pd_ymm": ("f64", "fma", 8, "256"), "fnmadd_pd_ymm": ("f64", "fma", 8, "256"),
                "fmsubadd_ps_ymm": ("f32", "fma", 16, "256"), "x87_fadd80": ("f64", "add", 1, "scalar"),
                "x87_fmul80": ("f64", "mul", 1, "scalar"), "x87_fdiv80": ("f64", "div", 1, "scalar")}
        for name, (p, k, per, w) in want.items():
            expect("%s: %s %s" % (name, p, k), r(name)["flops"][p][k], per * n)
            expect("%s: %s flops" % (name, w), r(name)["flops_by_width"][w], per * n)
            expect(name + ": total flops", total(r(name)), per * n)
        for name in ("x87_fadd80", "x87_fmul80", "x87_fdiv80"):
            expect_bytes(name + ": bytes loaded (two 10-byte fldt, 20n)", r(name)["bytes_loaded"], 20 * n)
            expect_bytes(name + ": bytes stored (one fstpt, 10n)", r(name)["bytes_stored"], 10 * n)
        for name in ("x87_fsin", "cmppd_ymm", "ucomisd", "rcpps_ymm", "rsqrtps_xmm"):
            expect(name + ": no flops (not counted)", total(r(name)), 0)
        mib = 1 << 20
        expect_bytes("rep movsb: bytes loaded (4 MiB)", r("rep_movsb_1m")["bytes_loaded"], 4 * mib)
        expect_bytes("rep movsb: bytes stored (4 MiB)", r("rep_movsb_1m")["bytes_stored"], 4 * mib)
        expect_bytes("rep stosb: bytes stored (4 MiB)", r("rep_stosb_1m")["bytes_stored"], 4 * mib)
        expect_bytes("rep stosb: bytes loaded (0)", r("rep_stosb_1m")["bytes_loaded"], 0)
        expect_bytes("repe cmpsb, equal: bytes loaded (4 x 8192)", r("repe_cmpsb_equal")["bytes_loaded"], 4 * 8192)
        expect_bytes("repe cmpsb, differing: bytes loaded (4 x 2000)", r("repe_cmpsb_differ")["bytes_loaded"],
                     4 * 2000)
        expect_bytes("repne scasb: bytes loaded (4 x 1000)", r("repne_scasb")["bytes_loaded"], 4 * 1000)
        # A REP string op is one instruction however many elements it goes through: each region
        # runs 4 of them in a loop of a few instructions (not 4 per element: 4 Mi for rep movsb).
        for name in ("rep_movsb_1m", "rep_stosb_1m", "repe_cmpsb_equal", "repe_cmpsb_differ", "repne_scasb"):
            expect_bytes(name + ": instructions (4 string ops and their loop)", r(name)["instructions"], 4, 4 * 16 + 64)
        # ... exactly: instruction by instruction, the string ops (those moving 1000 bytes or more)
        # of case_rep ran 8 times (4 rep movsb, 4 rep stosb), of case_cmps 8, of case_scas 4
        fns = ("case_rep", "case_cmps", "case_scas")
        _, p = run_with(tool_dir, binary, [str(n)], ["--roofline-per-instruction=" + f for f in fns], "insn_kinds_pi")
        for fn, want_runs in zip(fns, (8, 8, 4)):
            ops = [e for e in p["per_instruction"] if e["name"].split(".")[0] == fn and
                   e["bytes_loaded"] + e["bytes_stored"] >= 1000]
            expect(fn + ": runs of its string ops", sum(e["instructions"] for e in ops), want_runs)
            expect(fn + ": string ops say no jump", any("taken" in e for e in ops), False)
    else:
        sys.exit("unknown case " + case)
    if failures:
        sys.exit("FAIL: " + ", ".join(failures))
    print("PASS")

main()
