#!/usr/bin/env python3
"""Ours beside the limits and the peers, from the files bench/gpu/device-check.sh writes into
RESULTS: machine.json (roofline bench --gpu: each roof with roofline's theoretical figure at the
clock read while it ran; refused figures are not there but named in environment.refused),
gpubench-quick.json / gpubench-full.json (the benchmark's own figures), peers.txt (cuBLAS through
PyTorch, same minutes), points-*.json (ncu kernel points and the whole offload of the programs
in bench/gpu/programs, whose counts are known in closed form: EXPECTED below).
usage: ratios.py RESULTS"""
import glob
import json
import os
import sys

res = sys.argv[1] if len(sys.argv) > 1 else "."


def load(name):
    try:
        with open(os.path.join(res, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def ratio(a, b):
    return f"{a / b:.3f}" if a and b else "-"


peers = {}
if os.path.exists(os.path.join(res, "peers.txt")):
    for line in open(os.path.join(res, "peers.txt")):
        f = line.split()
        if len(f) >= 3 and f[0] == "peer":
            peers[f[1]] = float(f[2])

machine = load("machine.json") or {}
gpu = (machine.get("gpus") or [{}])[0]
limit = {r["name"]: r.get("theoretical_gflops") for r in gpu.get("compute", [])}
runs = {mode: (load(f"gpubench-{mode}.json") or {}).get("gpu", {}) for mode in ("quick", "full")}
print(f"# {gpu.get('name', runs['quick'].get('name', '?'))}, SM clock {gpu.get('sm_clock_mhz', '?')} MHz "
      f"(max {gpu.get('max_sm_clock_mhz', '?')})")

# Compute: every row either run wrote; the peer is the best cuBLAS product of that precision.
peer_of = {("fp16", True): "fp16_tensor", ("bf16", True): "bf16_tensor", ("tf32", True): "tf32_tensor",
           ("fp64", True): "fp64_tensor", ("fp8", True): "fp8_tensor", ("int8", True): "int8_tensor",
           ("fp32", False): "fp32_simt"}
rows = {}
for mode, run in runs.items():
    for r in run.get("compute", []):
        rows.setdefault(r["name"], {"precision": r["precision"], "tensor": r["tensor"]})[mode] = r["gflops"] / 1e3
print("\n## compute (T FLOP/s or T OP/s): ours, roofline's limit at the clock, the cuBLAS peer")
print(f"{'kernel':44} {'quick':>9} {'full':>9} {'limit':>9} {'best/limit':>10} {'peer':>8} {'best/peer':>9}")
for name, r in rows.items():
    best = max(r.get("quick", 0), r.get("full", 0))
    lim = (limit.get(name) or 0) / 1e3
    peer = peers.get(peer_of.get((r["precision"], r["tensor"]), ""), 0)
    stored = "" if name in limit else "  (not in the model)"
    print(f"{name[:44]:44} {r.get('quick', 0):9.1f} {r.get('full', 0):9.1f} {lim:9.1f} {ratio(best, lim):>10} "
          f"{peer:8.1f} {ratio(best, peer):>9}{stored}")
for w in machine.get("environment", {}).get("refused", []):
    print(f"refused: {w}")
for mode, run in runs.items():
    for w in run.get("self_check_failed", []):
        print(f"self-check failed ({mode}): {w}")

# Memory: DRAM against the peer's copy; L2 against gpu-benches' published H200 curve
# (te42kyfo/gpu-benches, gpu-l2-cache/h200.txt: 13.5 TB/s at 1.5 MB, ~10.2 at 4-8 MB,
# 9.7-9.9 at 10-40 MB, HBM ~3.9 past ~48 MB), used only on an H200.
def gpu_benches_h200(mib):
    if mib <= 2: return 13500
    if mib <= 9: return 10200
    if mib <= 40: return 9800
    return None


print("\n## memory (GB/s)")
for mode, run in runs.items():
    for r in run.get("memory", []):
        peer = peers.get("dram_copy") if r["level"] == "DRAM" else None
        if r["level"] == "L2" and "H200" in run.get("name", ""):
            mib = r["working_set_bytes"] / 2**20
            ref = gpu_benches_h200(mib)
            print(f"{mode:5} L2 roof at {mib:.1f} MiB: gpu-benches published {ref} (ours/it {ratio(r['gbs'], ref)})")
        print(f"{mode:5} {r['level']:6} {r['pattern']:6} {r['gbs']:9.0f}  ws {r['working_set_bytes'] / 2**20:8.1f} MiB "
              f"{r['blocks_per_sm']:3} blocks/SM" + (f"  peer copy {peer:.0f}, ours/peer {ratio(r['gbs'], peer)}" if peer else ""))
    for b in run.get("bus", []):
        peer = peers.get("bus_" + b["direction"]) if b.get("pinned") else None
        print(f"{mode:5} bus {b['direction']:5} {'pinned' if b.get('pinned') else 'pageable':8} {b['gbs']:7.1f}"
              + (f"  peer {peer:.1f}, ours/peer {ratio(b['gbs'], peer)}" if peer else ""))



# gpu-benches' gpu-l2-cache run in the same minutes (bench/gpu/l2-check.sh): per line, the
# data set in kB (1024 bytes) and the bandwidth in GB/s.
def gpu_benches_measured():
    path = os.path.join(res, "gpu-benches-l2.txt")
    points = []
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) >= 8 and f[1] == "kB" and f[3] == "kB" and "GB/s" in f:
                points.append((float(f[2]) * 1024, float(f[f.index("GB/s") - 1])))
    return points


def nearest(points, ws):
    """The peer's point nearest to ws, if within 10% of it."""
    best = min(points, key=lambda p: abs(p[0] / ws - 1), default=None)
    return best if best and abs(best[0] / ws - 1) <= 0.10 else None


measured_peer = gpu_benches_measured()
l2_run = (load("gpubench-l2.json") or {}).get("gpu", {})
if l2_run.get("l2_chunks_tried"):
    print("\n## L2 by chunk size (roofline-gpubench --only l2 --l2-sweep-chunks), gpu-benches in the same minutes")
    for t in l2_run["l2_chunks_tried"]:
        print(f"chunk {t['chunk_bytes'] >> 10:4} KiB, {t['blocks_per_sm']:2} blocks/SM: L2 roof {t['l2_gbs']:8.0f}; "
              f"{t['past_l2_bytes'] / 2**20:.0f} MiB {t['past_l2_gbs']:7.0f} = {ratio(t['past_l2_gbs'], t['dram_read_gbs'])}"
              f" x DRAM read {t['dram_read_gbs']:.0f}" + ("   <- taken" if t.get("taken") else ""))
    sizes = sorted({ws for t in l2_run["l2_chunks_tried"] for ws, _ in t.get("points", [])})
    if sizes:
        chunks = l2_run["l2_chunks_tried"]
        print(f"{'MiB':>8} {'gpu-benches':>11} " + " ".join(f"{str(t['chunk_bytes'] >> 10) + ' KiB':>16}" for t in chunks))
        worst = {}
        for ws in sizes:
            ref = nearest(measured_peer, ws)
            cells = []
            for t in chunks:
                gbs = dict(map(tuple, t.get("points", []))).get(ws)
                r = gbs / ref[1] if gbs and ref else None
                if r and ws < 2 * l2_run.get("l2_bytes", 0):
                    worst[t["chunk_bytes"]] = max(worst.get(t["chunk_bytes"], 0), abs(r - 1))
                cells.append(f"{gbs:8.0f} ({r:.2f})" if r else f"{gbs or 0:8.0f}  (-)  ")
            print(f"{ws / 2**20:8.1f} {ref[1] if ref else 0:11.0f} " + " ".join(f"{c:>16}" for c in cells))
        for chunk, w in sorted(worst.items()):
            print(f"chunk {chunk >> 10} KiB: worst |ours/gpu-benches - 1| under twice the L2: {w:.3f}"
                  + ("  (within 10%)" if w <= 0.10 else ""))

for mode, run in runs.items():
    for c in run.get("curves", []):
        print(f"{mode} curve {c['level']} {c['pattern']} ({c['blocks_per_sm']} blocks/SM, "
              f"chunks of {c.get('chunk_bytes', 0) >> 10} KiB):")
        for ws, gbs in c["points"]:
            same = nearest(measured_peer, ws)
            ref = same[1] if same else gpu_benches_h200(ws / 2**20) if "H200" in run.get("name", "") else None
            what = "same minutes" if same else "published"
            print(f"   {ws / 2**20:8.1f} MiB {gbs:9.0f}" + (f"   gpu-benches {what} {ref:.0f}, ours/it {ratio(gbs, ref)}" if ref else ""))

# Programs with known counts (bench/gpu/programs): FLOPs of each kernel, bus bytes of the offload.
N_TRIAD, N_MANAGED, N_GEMM = 2**26, 16 * 2**20, 4096
EXPECTED = {  # program: [(kernel name part, FLOPs)], {detail: bytes}
    "triad_copies": ([("triad", 2 * N_TRIAD)], {"host_to_device_bytes": 8 * N_TRIAD, "device_to_host_bytes": 4 * N_TRIAD}),
    "fma_chains": ([("chains<float>", 2 * 8 * 4096 * 1024 * 256), ("chains<double>", 2 * 8 * 4096 * 1024 * 256)], {}),
    "cublas_gemm": ([("", 2 * N_GEMM**3)], {}),
    "managed": ([("update", 2 * N_MANAGED)], {"migrated_to_device_bytes": 4 * N_MANAGED, "migrated_to_host_bytes": 4 * N_MANAGED}),
}
print("\n## programs: ncu kernel points and the whole offload against their known counts")
for path in sorted(glob.glob(os.path.join(res, "points-*.json"))):
    prog = os.path.basename(path)[7:-5]
    try:
        points = json.load(open(path)).get("points", [])
    except ValueError:
        print(f"{prog}: unreadable points")
        continue
    kernels, buses = EXPECTED.get(prog, ([], {}))
    for p in points:
        d = p.get("details", {})
        want = next((f for part, f in kernels if part in p["name"]), None) if "offload" not in p["name"] else None
        gflops = p["flops"] / p["seconds"] / 1e9 if p.get("seconds") else 0
        dram = d.get("dram_read_bytes", 0) + d.get("dram_written_bytes", 0)
        print(f"{prog:13} {p['name'][:60]:60} FLOP {p['flops']:.4g} (want {want if want else '-'}: {ratio(p['flops'], want)}) "
              f"{gflops:10.1f} GFLOP/s DRAM {dram:.4g} B")
        if "offload" in p["name"] or any(k.startswith("bus") or "migrat" in k for k in d):
            for k, v in sorted(d.items()):
                if k.endswith("_bytes") or k.endswith("_seconds"):
                    exp = next((b for part, b in buses.items() if part in k), None)
                    print(f"{'':13}   {k:40} {v:.6g}" + (f"  (known {exp}: {ratio(v, exp)})" if exp else ""))

# The hardware's tensor-op counters over gpubench's own tensor kernels (ncu over gpubench
# --quick): ncu's ops / ncu's duration for each launch, the best launch of each kernel,
# against the rate gpubench credits that kernel with (its FLOP count / its own timing).
path = os.path.join(res, "ncu-gpubench.csv")
if os.path.exists(path):
    import csv
    launches = {}
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        key = (row.get("ID"), row.get("Kernel Name"))
        value = float(row["Metric Value"].replace(",", "")) if row.get("Metric Value") not in (None, "", "n/a") else 0.0
        launches.setdefault(key, {})[row["Metric Name"]] = value
    best = {}
    for (launch, kernel), metrics in launches.items():
        ops = sum(v for k, v in metrics.items() if k.startswith("sm__ops_path_tensor_src_"))
        seconds = metrics.get("gpu__time_duration.sum", 0) * 1e-9
        if seconds > 0:
            best[kernel] = max(best.get(kernel, 0), ops / seconds / 1e12)
    print("\n## gpubench's tensor kernels: ncu's tensor-op counters (ops / ncu's duration, best launch)")
    for kernel, rate in sorted(best.items()):
        print(f"{kernel[:60]:60} {rate:9.1f} T ops/s (ncu)")
    print("(beside each kernel's quick figure above: ours / ncu near 1 means gpubench counts the work the tensor pipes did)")
