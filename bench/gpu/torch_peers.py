#!/usr/bin/env python3
"""The peer figures for bench/gpu/device-check.sh: cuBLAS through PyTorch on the same GPU in the
same minutes. Matrix products at n = 8192 (best of 5 after 2 warm-ups, CUDA events, 2 n^3 FLOP,
inputs random), a device copy (read + write counted), pinned copies over the bus. Prints one
'peer KEY VALUE UNIT' line each, for the script to put beside ours; a product PyTorch cannot
run here (fp8 on an older GPU, say) is skipped with its reason."""
import sys

try:
    import torch
except ImportError as e:  # no PyTorch: no peers, said
    print(f"peer-error torch {e}")
    sys.exit(0)


def best_ms(fn, reps=5, warm=2):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return min(times)


def matmul(name, dtype, n=8192, tf32=False):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device="cuda").to(dtype)
    b = torch.randn(n, n, device="cuda").to(dtype)
    ms = best_ms(lambda: a @ b)
    print(f"peer {name} {2 * n**3 / ms / 1e9:.1f} TFLOP/s")


def fp8(n=8192):
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()
    one = torch.tensor(1.0, device="cuda")
    ms = best_ms(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
    print(f"peer fp8_tensor {2 * n**3 / ms / 1e9:.1f} TFLOP/s")


def int8(n=8192):
    a = torch.randint(-8, 8, (n, n), device="cuda", dtype=torch.int8)
    b = torch.randint(-8, 8, (n, n), device="cuda", dtype=torch.int8)
    ms = best_ms(lambda: torch._int_mm(a, b))
    print(f"peer int8_tensor {2 * n**3 / ms / 1e9:.1f} TOP/s")


def copies():
    n = 1 << 30  # 1 GiB each way
    x = torch.empty(n, dtype=torch.uint8, device="cuda"); y = torch.empty_like(x)
    ms = best_ms(lambda: y.copy_(x))
    print(f"peer dram_copy {2 * n / ms / 1e6:.1f} GB/s")
    h = torch.empty(256 << 20, dtype=torch.uint8, pin_memory=True); d = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    print(f"peer bus_h2d {h.numel() / best_ms(lambda: d.copy_(h, non_blocking=True)) / 1e6:.1f} GB/s")
    print(f"peer bus_d2h {h.numel() / best_ms(lambda: h.copy_(d, non_blocking=True)) / 1e6:.1f} GB/s")


if not torch.cuda.is_available():
    print("peer-error torch no CUDA device")
    sys.exit(0)
print(f"peer-device {torch.cuda.get_device_name(0)} torch {torch.__version__}")
for step in (lambda: matmul("fp16_tensor", torch.float16), lambda: matmul("bf16_tensor", torch.bfloat16),
             lambda: matmul("tf32_tensor", torch.float32, tf32=True), lambda: matmul("fp32_simt", torch.float32),
             lambda: matmul("fp64_tensor", torch.float64, n=4096), fp8, int8, copies):
    try:
        step()
    except Exception as e:  # one peer that cannot run does not stop the others
        print(f"peer-error {getattr(step, '__name__', 'matmul')} {type(e).__name__}: {e}".splitlines()[0])
    sys.stdout.flush()
