#!/usr/bin/env python3
"""Checks roofline-gpubench's kernels in the PTX nvcc makes of them (issue 32), no GPU needed.

usage: ptx_check.py FILE.ptx [--expect-fail]

- each WMMA kernel (mma_fp16, mma_bf16, mma_tf32, mma_fp64): exactly one loop holds MMA
  instructions, and it holds kTiles = 4 of the kernel's own shape and types, and the kernel
  has no MMA outside it (so each of the timed iterations issues 4, as the FLOP count says);
  fp64 is m8n8k4 .f64 (the DMMA path of sm_80 and later);
- each FMA chain kernel: its innermost FMA loop holds a positive multiple of kChains = 8
  FMAs of its type (no chain merged away);
- dmma_fp64_m16n8k16 (PTX for sm_90 and later): kTiles m16n8k16 .f64 MMAs an iteration of
  its one loop; before sm_90 it holds none (it stores -1 and the host does not launch it);
- each wgmma kernel (PTX for sm_90a): its one loop holds kWgmmaChain = 8 wgmma.mma_async of
  its shape and types, a commit_group and a wait_group, and no wgmma lies outside the loop; for
  any other target it holds no wgmma (it stores -1);
- read_kernel (DRAM and L2 reads): every global load is ld.global.cg (L2 only, no L1);
- every timed kernel stores its result (st.global).
Prints what it found per kernel; exit 0 all right, 1 a check failed. --expect-fail inverts
the exit status (the checker's own test on a kernel built to fail it).
"""
import re
import sys

from checker_verdict import split_expect_fail, verdict

K_TILES = 4
K_CHAINS = 8

MMA = {  # kernel -> the PTX instruction its loop must hold (wmma.mma.sync.aligned.row.col.SHAPE.TYPES)
    "8mma_fp16": r"m16n16k16\.f32\.f32",               # f16 inputs, f32 accumulator (d, c types)
    "8mma_bf16": r"m16n16k16\.f32\.bf16\.bf16\.f32",
    "8mma_tf32": r"m16n16k8\.f32\.tf32\.tf32\.f32",
    "8mma_fp64": r"m8n8k4\.f64\.f64\.f64\.f64",         # DMMA
}
# Kernels are found by their mangled names' length-prefixed parts ("8mma_fp16").
FMA = {  # fma_chains<T> instantiation (mangled) -> its FMA
    "10fma_chainsId": r"fma\.rn\.f64",
    "10fma_chainsIf": r"fma\.rn\.f32",
    "10fma_chainsI7__half2": r"fma\.rn\.f16x2",
    "10fma_chainsI14__nv_bfloat162": r"fma\.rn\.bf16x2",
}
K_WGMMA_CHAIN = 8
WGMMA = {  # wgmma_kernel<WgmmaKind::k> (mangled) -> its wgmma.mma_async shape and types
    "wgmma_kernelILNS_9WgmmaKindE0EE": r"m64n256k16\.f32\.f16\.f16",
    "wgmma_kernelILNS_9WgmmaKindE1EE": r"m64n256k16\.f32\.bf16\.bf16",
    "wgmma_kernelILNS_9WgmmaKindE2EE": r"m64n256k8\.f32\.tf32\.tf32",
    "wgmma_kernelILNS_9WgmmaKindE3EE": r"m64n256k32\.f32\.e4m3\.e4m3",
    "wgmma_kernelILNS_9WgmmaKindE4EE": r"m64n256k32\.s32\.s8\.s8",
}
DMMA_M16N8K16 = "18dmma_fp64_m16n8k16"
STORES = ["10fma_chainsId", "10fma_chainsIf", "10fma_chainsI7__half2", "10fma_chainsI14__nv_bfloat162",
          "11lop3_chains", "11popc_chains", "8mma_fp16", "8mma_bf16", "8mma_tf32", "8mma_fp64", "11read_kernel", DMMA_M16N8K16,
          *WGMMA.keys(),
          "18shared_read_kernel"]
ANY_MMA = re.compile(r"^\s*(@\S+\s+)?(wmma\.mma|mma)\.sync\S*")


def entries(text):
    """{mangled name: [lines]} of every .entry."""
    out, name, body = {}, None, []
    for line in text.splitlines():
        m = re.match(r"^\s*(?:\.visible\s+)?\.entry\s+(\S+?)\s*\(", line)
        if m:
            if name:
                out[name] = body
            name, body = m.group(1), []
        elif name:
            body.append(line)
    if name:
        out[name] = body
    return out


def loops(body):
    """(first, last) line spans of the loops: a label and a later branch back to it."""
    labels = {}
    spans = []
    for i, line in enumerate(body):
        m = re.match(r"^(\$L__\w+):", line)
        if m:
            labels[m.group(1)] = i
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", line)
        if m and m.group(1) in labels:
            spans.append((labels[m.group(1)], i))
    return spans


def innermost(spans):
    return [s for s in spans if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]


def label(key):
    """The kernel's name in messages: "8mma_fp16" -> "mma_fp16", a wgmma_kernel<WgmmaKind::K>
    instantiation -> "wgmma_kernel<K>"."""
    m = re.match(r"wgmma_kernelILNS_9WgmmaKindE(\d)EE", key)
    if m:
        return f"wgmma_kernel<{['fp16', 'bf16', 'tf32', 'fp8', 'int8'][int(m.group(1))]}>"
    return re.sub(r"^\d+", "", key)


def find(ents, key):
    names = [n for n in ents if key in n]
    return names[0] if len(names) == 1 else None


def loop_instructions(ents, key, instruction, want, what, also=()):
    """Problems of kernel `key`: its one loop must hold `want` of `instruction` (and each of
    `also`), none outside it; want 0: the kernel holds none at all (built for another target)."""
    name, kernel = find(ents, key), label(key)
    if not name:
        return [f"{kernel}: not (exactly once) in the PTX"]
    body = ents[name]
    own = re.compile(r"^\s*(@\S+\s+)?" + instruction + r"\s")
    lines = [i for i, l in enumerate(body) if own.match(l)]
    if want == 0:
        print(f"{kernel}: {len(lines)} {what} (none expected for this target)")
        return [f"{kernel}: {len(lines)} {what} where none belong"] if lines else []
    inner = innermost([s for s in loops(body) if any(s[0] <= i <= s[1] for i in lines)])
    if len(inner) != 1:
        return [f"{kernel}: {len(inner)} loops hold {what}, expected 1 ({len(lines)} in all)"]
    first, last = inner[0]
    in_loop = [i for i in lines if first <= i <= last]
    print(f"{kernel}: {len(in_loop)} {what} an iteration of its loop, {len(lines)} in the kernel")
    problems = []
    if len(in_loop) != want:
        problems.append(f"{kernel}: {len(in_loop)} {what} an iteration, expected {want}")
    if len(lines) != len(in_loop):
        problems.append(f"{kernel}: {len(lines) - len(in_loop)} {what} outside its loop")
    for a in also:
        if not any(re.match(r"^\s*" + a, l) for l in body[first:last + 1]):
            problems.append(f"{kernel}: its loop lacks {a.replace(chr(92), '')}")
    return problems


def main():
    args, expect_fail = split_expect_fail(sys.argv[1:])
    text = open(args[0]).read()
    ents = entries(text)
    problems = []

    for key, shape in MMA.items():
        name, kernel = find(ents, key), label(key)
        if not name:
            problems.append(f"{kernel}: not (exactly once) in the PTX")
            continue
        body = ents[name]
        mma_lines = [i for i, l in enumerate(body) if ANY_MMA.match(l)]
        with_mma = [s for s in loops(body) if any(s[0] <= i <= s[1] for i in mma_lines)]
        inner = innermost(with_mma)
        own = re.compile(r"^\s*wmma\.mma\.sync\.aligned\.row\.col\." + shape + r"(\.rn)?\s")
        if len(inner) != 1:
            problems.append(f"{kernel}: {len(inner)} loops hold MMAs, expected 1 ({len(mma_lines)} MMAs in all)")
            print(f"{kernel}: {len(mma_lines)} MMAs, in {len(inner)} innermost loops")
            continue
        first, last = inner[0]
        in_loop = [i for i in mma_lines if first <= i <= last]
        right = [i for i in in_loop if own.match(body[i])]
        print(f"{kernel}: {len(in_loop)} MMAs an iteration of its loop ({len(right)} of them "
              f"wmma.mma.sync {shape.replace(chr(92), '')}), {len(mma_lines)} in the kernel")
        if len(in_loop) != K_TILES or len(right) != K_TILES:
            problems.append(f"{kernel}: {len(in_loop)} MMAs an iteration ({len(right)} of the expected "
                            f"{shape.replace(chr(92), '')}), expected {K_TILES}")
        if len(mma_lines) != len(in_loop):
            problems.append(f"{kernel}: {len(mma_lines) - len(in_loop)} MMAs outside its loop "
                            "(peeled or unrolled: the FLOP count per iteration no longer holds)")

    for key, fma in FMA.items():
        name, kernel = find(ents, key), label(key)
        if not name:
            problems.append(f"{kernel}: not (exactly once) in the PTX")
            continue
        body = ents[name]
        pattern = re.compile(r"^\s*\{?\s*" + fma + r"\s")  # half2 FMAs come in inline-asm braces
        counts = [sum(1 for l in body[a:b + 1] if pattern.match(l)) for a, b in innermost(loops(body))]
        counts = [c for c in counts if c]
        print(f"{kernel}: FMAs an iteration of its innermost loops: {counts}")
        if not counts or any(c % K_CHAINS for c in counts):
            problems.append(f"{kernel}: FMA loops hold {counts}, expected multiples of {K_CHAINS} (one per chain)")

    target = re.search(r"^\.target\s+sm_(\d+)(a?)", text, re.M)
    sm, arch_specific = (int(target.group(1)), target.group(2) == "a") if target else (0, False)
    problems += loop_instructions(ents, DMMA_M16N8K16, r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f64\.f64\.f64\.f64",
                                  K_TILES if sm >= 90 else 0, "MMAs")
    for key, shape in WGMMA.items():
        problems += loop_instructions(ents, key, r"wgmma\.mma_async\.sync\.aligned\." + shape,
                                      K_WGMMA_CHAIN if sm == 90 and arch_specific else 0, "wgmma",
                                      also=[r"wgmma\.commit_group", r"wgmma\.wait_group"])

    name = find(ents, "11read_kernel")
    if not name:
        problems.append("read_kernel: not (exactly once) in the PTX")
    else:
        loads = [l.split()[0] for l in ents[name] if re.match(r"^\s*(@\S+\s+)?ld\.global", l.strip())]
        loads = [l for l in loads if l.startswith("ld.")]
        cg = [l for l in loads if l.startswith("ld.global.cg")]
        print(f"read_kernel: {len(loads)} global loads, {len(cg)} of them ld.global.cg")
        if not loads or len(cg) != len(loads):
            problems.append(f"read_kernel: {len(loads) - len(cg)} of {len(loads)} global loads may use L1 "
                            f"({sorted(set(loads) - set(cg))}), expected ld.global.cg only")

    for key in STORES:
        name = find(ents, key)
        if name and not any(re.match(r"^\s*(@\S+\s+)?st\.global", l) for l in ents[name]):
            problems.append(f"{label(key)}: stores nothing (its result is not observed)")

    return verdict(problems, expect_fail, "a kernel")


if __name__ == "__main__":
    sys.exit(main())
