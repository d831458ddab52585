#!/usr/bin/env python3
"""Checks roofline-gpubench's tensor kernels in the machine code the GPU runs (cuobjdump -sass),
the counterpart of ptx_check.py one step later: ptxas may still split, fuse or drop what the PTX
holds. For each arch section (sm_80, sm_90a) and each tensor kernel, the innermost loop that
holds tensor instructions must hold the expected number of the expected kind, and none may lie
outside it (each timed iteration issues what the FLOP count says):

  wgmma_kernel<fp16/bf16/tf32> (sm_90a)  8 HGMMA.64x256xK of its type a loop iteration
  wgmma_kernel<fp8> / <int8>   (sm_90a)  8 QGMMA.64x256x32.F32.E4M3 / IGMMA.64x256x32.S8
  dmma_fp64_m16n8k16           (sm_90a)  4 DMMA.16x8x16
  mma_fp64                               4 DMMA.8x8x4
  mma_fp16 / mma_bf16                    8 HMMA.16816.F32 (.BF16): a 16x16x16 wmma is two
  mma_tf32                               16 HMMA.1684.F32.TF32: a 16x16x8 wmma is four
  (sm_80: the wgmma kernels and dmma_fp64_m16n8k16 hold no tensor instruction at all)

usage: sass_check.py FILE.sass[.xz] [--expect-fail]; exit 0 all right, 1 a check failed.
"""
import lzma
import re
import sys

from checker_verdict import split_expect_fail, verdict

TENSOR = re.compile(r"\b([HDIQB]G?MMA)\.([0-9A-Za-z.]+)")
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?);")
BRANCH = re.compile(r"\bBRA(?:\.[A-Z]+)*\s+(?:`\()?0x([0-9a-f]+)")

# kernel key (in the mangled name) -> (label, {arch: (instruction regex, count)}); count 0: none.
WGMMA = {0: ("fp16", r"HGMMA\.64x256x16\.F32$"), 1: ("bf16", r"HGMMA\.64x256x16\.F32\.BF16$"),
         2: ("tf32", r"HGMMA\.64x256x8\.F32\.TF32$"), 3: ("fp8", r"QGMMA\.64x256x32\.F32\.E4M3\.E4M3$"),
         4: ("int8", r"IGMMA\.64x256x32\.S8\.S8$")}
EXPECTED = {f"wgmma_kernelILNS_9WgmmaKindE{k}EE": (f"wgmma_kernel<{name}>", {"sm_90a": (rx, 8), "sm_80": (None, 0)})
            for k, (name, rx) in WGMMA.items()}
EXPECTED.update({
    "18dmma_fp64_m16n8k16": ("dmma_fp64_m16n8k16", {"sm_90a": (r"DMMA\.16x8x16$", 4), "sm_80": (None, 0)}),
    "8mma_fp64": ("mma_fp64", {"sm_90a": (r"DMMA\.8x8x4$", 4), "sm_80": (r"DMMA\.884$", 4)}),
    "8mma_fp16": ("mma_fp16", {a: (r"HMMA\.16816\.F32$", 8) for a in ("sm_90a", "sm_80")}),
    "8mma_bf16": ("mma_bf16", {a: (r"HMMA\.16816\.F32\.BF16$", 8) for a in ("sm_90a", "sm_80")}),
    "8mma_tf32": ("mma_tf32", {a: (r"HMMA\.1684\.F32\.TF32$", 16) for a in ("sm_90a", "sm_80")}),
})


def sections(text):
    """{(arch, mangled function): [(address, instruction text)]}"""
    out, arch, name = {}, None, None
    for line in text.splitlines():
        m = re.match(r"^\s*arch = (sm_\w+)", line)
        if m:
            arch, name = m.group(1), None
            continue
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[(arch, name)] = []
            continue
        m = INSTRUCTION.match(line)
        if m and name:
            out[(arch, name)].append((int(m.group(1), 16), m.group(2)))
    return out


def check(arch, label, body, rx, want):
    tensor = [(a, f"{m.group(1)}.{m.group(2)}") for a, t in body for m in [TENSOR.search(t)] if m]
    if want == 0:
        print(f"{arch} {label}: {len(tensor)} tensor instructions (none expected)")
        return [f"{arch} {label}: {len(tensor)} tensor instructions where none belong"] if tensor else []
    loops = [(int(m.group(1), 16), a) for a, t in body for m in [BRANCH.search(t)] if m and int(m.group(1), 16) <= a]
    holding = [(lo, hi) for lo, hi in loops if any(lo <= a <= hi for a, _ in tensor)]
    inner = [s for s in holding if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in holding)]
    if len(inner) != 1:
        return [f"{arch} {label}: {len(inner)} innermost loops hold tensor instructions, expected 1 ({len(tensor)} in all)"]
    lo, hi = inner[0]
    in_loop = [op for a, op in tensor if lo <= a <= hi]
    right = [op for op in in_loop if re.match(rx, op)]
    print(f"{arch} {label}: {len(in_loop)} tensor instructions an iteration ({len(right)} {rx.rstrip('$').replace(chr(92), '')}), "
          f"{len(tensor)} in the kernel")
    problems = []
    if len(in_loop) != want or len(right) != want:
        problems.append(f"{arch} {label}: {len(right)} of {len(in_loop)} an iteration are "
                        f"{rx.rstrip('$').replace(chr(92), '')}, expected {want}")
    if len(tensor) != len(in_loop):
        problems.append(f"{arch} {label}: {len(tensor) - len(in_loop)} tensor instructions outside its loop")
    return problems


def main():
    args, expect_fail = split_expect_fail(sys.argv[1:])
    opener = lzma.open if args[0].endswith(".xz") else open
    with opener(args[0], "rt") as f:
        found = sections(f.read())
    problems = []
    arches = sorted({arch for arch, _ in found})
    for key, (label, per_arch) in EXPECTED.items():
        for arch, (rx, want) in per_arch.items():
            if arch not in arches:
                continue
            names = [n for a, n in found if a == arch and key in n]
            if len(names) != 1:
                problems.append(f"{arch} {label}: not (exactly once) in the SASS")
                continue
            problems += check(arch, label, found[(arch, names[0])], rx, want)
    if not any(a in arches for a in ("sm_80", "sm_90a")):
        problems.append(f"no sm_80 or sm_90a section in the SASS (found {arches})")
    return verdict(problems, expect_fail, "SASS")


if __name__ == "__main__":
    sys.exit(main())
