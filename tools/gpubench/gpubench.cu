// roofline-gpubench: the measured roofs of one NVIDIA GPU (issue 13), written as JSON
// (schema roofline.gpubench/1: one object in the machine model's `gpus` format) for
// `roofline bench --gpu` to read. It needs only the CUDA toolkit, so it builds on a machine
// that has none of roofline's other dependencies; the driver's NVML (clocks while kernels
// run, the memory clock and bus width) is loaded at run time where it exists.
//
// What it measures, each figure the best of several timed repetitions (CUDA events):
//   compute: FMA chains of fp64, fp32, half2, bfloat162 on every SM; the tensor cores
//     through WMMA (fp16, bf16, tf32 with fp32 accumulation; fp64), on sm_90 also fp64
//     m16n8k16 DMMA, and on compute capability 9.0 (sm_90a code) wgmma (fp16, bf16, tf32,
//     fp8 e4m3, int8); LOP3 and POPC for work that is not FLOPs;
//   memory: DRAM read, copy and triad over arrays far larger than L2; L2 reads (loads that
//     bypass L1) of a working set half its size, and their curve from 2 MiB to past twice the
//     L2 (`curves`); shared-memory (L1) reads; each at several blocks per SM;
//   bus: host-to-device, device-to-host and both at once, pinned and pageable, sizes up to
//     --bus-bytes (256 MiB), copy engines through cudaMemcpyAsync.
// Theoretical figures are not computed here: roofline's table of per-clock rates does that
// (core/gpu_specs), so the spec lives in one place.
//
// Every kernel's result is checked on the host after timing against its closed form; a
// kernel whose check fails gets no figure (stderr: "kernel self-check failed: KERNEL: ...").
//
// Exit: 0 written; 77 no CUDA device (or no driver); 2 bad arguments; 1 a CUDA error, or a
// kernel self-check failed (the JSON is still written, without those figures, listing them
// in `self_check_failed`).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

[[noreturn]] void die(int code, const std::string& what) {
    std::fprintf(stderr, "roofline-gpubench: %s\n", what.c_str());
    std::exit(code);
}

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        const cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) die(1, std::string(#call) + ": " + cudaGetErrorString(e_));               \
    } while (0)

// ------------------------------------------------------------------ NVML, loaded at run time
// The few entry points used, declared as NVML's documentation gives them (nvml.h is not part
// of every toolkit installation; libnvidia-ml.so.1 comes with the driver).
struct Nvml {
    void* lib = nullptr;
    void* device = nullptr;
    int (*get_clock)(void*, int, unsigned*) = nullptr;      // nvmlDeviceGetClockInfo
    int (*get_max_clock)(void*, int, unsigned*) = nullptr;  // nvmlDeviceGetMaxClockInfo
    int (*get_bus_width)(void*, unsigned*) = nullptr;       // nvmlDeviceGetMemoryBusWidth
    static constexpr int kClockSm = 1, kClockMem = 2;       // NVML_CLOCK_SM, NVML_CLOCK_MEM

    explicit Nvml(const char* pci_bus_id) {
        lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
        if (!lib) return;
        auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
        auto by_pci = reinterpret_cast<int (*)(const char*, void**)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
        get_clock = reinterpret_cast<decltype(get_clock)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
        get_max_clock = reinterpret_cast<decltype(get_max_clock)>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
        get_bus_width = reinterpret_cast<decltype(get_bus_width)>(dlsym(lib, "nvmlDeviceGetMemoryBusWidth"));
        if (!init || !by_pci || init() != 0 || by_pci(pci_bus_id, &device) != 0) device = nullptr;
    }
    double clock_mhz(int which, bool max = false) const {
        unsigned mhz = 0;
        if (!device) return 0;
        const auto fn = max ? get_max_clock : get_clock;
        return fn && fn(device, which, &mhz) == 0 ? mhz : 0;
    }
    int bus_bits() const {
        unsigned bits = 0;
        return device && get_bus_width && get_bus_width(device, &bits) == 0 ? static_cast<int>(bits) : 0;
    }
};

// ------------------------------------------------------------------ timing
struct Figure {
    double best = 0, median = 0, min = 0;
    int runs = 0;
    double clock_mhz = 0;
    std::string failed;  // the kernel's self-check: empty when its result was right
};

// Runs `launch` (which enqueues the work on stream 0) `reps` times, each timed by events;
// `work` units per launch. The SM clock is read by NVML while the second run is in flight.
template <typename Launch>
Figure time_rate(Launch launch, double work, int reps, const Nvml& nvml) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    launch();  // warm-up: clocks up, code loaded
    CHECK(cudaDeviceSynchronize());
    std::vector<double> rates;
    Figure f;
    for (int r = 0; r < reps; ++r) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaEventRecord(stop));
        if (r == 1) {
            usleep(2000);
            f.clock_mhz = nvml.clock_mhz(Nvml::kClockSm);
        }
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (ms > 0) rates.push_back(work / (ms * 1e-3) * 1e-9);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    std::sort(rates.begin(), rates.end());
    if (!rates.empty()) {
        f.best = rates.back();
        f.min = rates.front();
        f.median = rates[rates.size() / 2];
        f.runs = static_cast<int>(rates.size());
    }
    return f;
}

// ------------------------------------------------------------------ compute kernels
// Every kernel stores its result unconditionally, one value per thread (or per warp), and the
// host checks each value after timing against its closed form (check_* below): a result the
// compiler may not drop keeps the work that produces it, and a kernel that was gutted or cut
// short fails its check by name instead of giving a figure. The inputs come from the host
// (nothing folds) and keep every value a small integer, exact in the kernel's precision.
constexpr int kChains = 8;  // independent FMA chains a thread keeps in flight

__device__ __forceinline__ std::size_t global_thread() {
    return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}

template <typename T>
__device__ __forceinline__ T fma_of(T a, T b, T c) { return a * b + c; }
template <>
__device__ __forceinline__ __half2 fma_of(__half2 a, __half2 b, __half2 c) { return __hfma2(a, b, c); }
template <>
__device__ __forceinline__ __nv_bfloat162 fma_of(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
    return __hfma2(a, b, c);
}

// The value a thread reports: both halves of a pair must agree (NaN where they do not).
template <typename T>
__device__ __forceinline__ double observed(T v) { return static_cast<double>(v); }
template <>
__device__ __forceinline__ double observed(__half2 v) {
    const float lo = __low2float(v), hi = __high2float(v);
    return lo == hi ? lo : __int_as_float(0x7fc00000);
}
template <>
__device__ __forceinline__ double observed(__nv_bfloat162 v) {
    const float lo = __low2float(v), hi = __high2float(v);
    return lo == hi ? lo : __int_as_float(0x7fc00000);
}

template <typename T>
__device__ __forceinline__ T from_int(int v) { return static_cast<T>(v); }
template <>
__device__ __forceinline__ __half2 from_int(int v) { return __float2half2_rn(static_cast<float>(v)); }
template <>
__device__ __forceinline__ __nv_bfloat162 from_int(int v) { return __float2bfloat162_rn(static_cast<float>(v)); }

// Every thread: kChains chains of `iters` dependent FMAs x = x m + a, chain c from x = a + c
// (different starts: no compiler may merge chains it could prove equal), then their
// FMA-combination; the host gives m and a (fma_chain_value is the closed form).
template <typename T>
__global__ void fma_chains(T m, T a, int iters, double* out) {
    T acc[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) acc[c] = a + from_int<T>(c);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) acc[c] = fma_of(acc[c], m, a);
    }
    T s = acc[0];
#pragma unroll
    for (int c = 1; c < kChains; ++c) s = fma_of(s, m, acc[c]);
    out[global_thread()] = observed(s);
}

// LOP3 chains: x = x ^ y ^ z (truth table 0x96), from x = threadIdx.x + chain.
__global__ void lop3_chains(unsigned y, unsigned z, int iters, unsigned* out) {
    unsigned x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = threadIdx.x + c;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x[c]) : "r"(y), "r"(z));
    }
    unsigned s = 0;
#pragma unroll
    for (int c = 0; c < kChains; ++c) s ^= x[c];
    out[global_thread()] = s;
}

// POPC chains: x = popc(x) ^ (y + x), one population count and one LOP a step; the POPC rate
// is a quarter of the LOP rate on every architecture in the table, so the POPC counts bind.
__host__ __device__ inline unsigned popc_step(unsigned x, unsigned y) {
#ifdef __CUDA_ARCH__
    return static_cast<unsigned>(__popc(x)) ^ (y + x);
#else
    return static_cast<unsigned>(__builtin_popcount(x)) ^ (y + x);
#endif
}
__host__ __device__ inline unsigned popc_start(unsigned thread, int chain) { return thread * 2654435761u + chain; }

__global__ void popc_chains(unsigned y, int iters, unsigned* out) {
    unsigned x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = popc_start(threadIdx.x, c);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = popc_step(x[c], y);
    }
    unsigned s = 0;
#pragma unroll
    for (int c = 0; c < kChains; ++c) s ^= x[c];
    out[global_thread()] = s;
}

// Tensor cores through WMMA: every warp keeps kTiles accumulator tiles and multiplies the same
// A and B fragments into them `iters` times (2 M N K FLOP an mma per warp). Every tile is
// observed: the H200 run of issue 32 stored only tile 0 (and only when iters < 0), so the
// compiler could drop three of four MMAs, and the tensor roofs came out 1.7-2.3x above the
// hardware. The loop is not unrolled, so its body holds exactly kTiles wmma.mma.sync (the
// no-GPU test counts them in the PTX). A and B are all `one` (1 from the host) and C starts at
// 0, so each accumulator element ends at iters * K, exact in fp32/fp64 for these counts.
using namespace nvcuda;
constexpr int kTiles = 4;

template <typename In, typename Acc, int M, int N, int K, typename Elem>
__device__ void mma_loop(int iters, Elem one, double* out) {
    wmma::fragment<wmma::matrix_a, M, N, K, In, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, M, N, K, In, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> c[kTiles];
    for (int t = 0; t < a.num_elements; ++t) a.x[t] = one;
    for (int t = 0; t < b.num_elements; ++t) b.x[t] = one;
#pragma unroll
    for (int j = 0; j < kTiles; ++j) wmma::fill_fragment(c[j], Acc(0));
#pragma unroll 1
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < kTiles; ++j) wmma::mma_sync(c[j], a, b, c[j]);
    }
    double s = 0;  // this thread's elements of every tile: kTiles * (M N / 32) * iters * K
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
        for (int t = 0; t < c[j].num_elements; ++t) s += static_cast<double>(c[j].x[t]);
    out[global_thread()] = s;
}

__global__ void mma_fp16(int iters, __half one, double* out) { mma_loop<__half, float, 16, 16, 16>(iters, one, out); }
__global__ void mma_bf16(int iters, __nv_bfloat16 one, double* out) {
    mma_loop<__nv_bfloat16, float, 16, 16, 16>(iters, one, out);
}
__global__ void mma_tf32(int iters, float one, double* out) {
    mma_loop<wmma::precision::tf32, float, 16, 16, 8>(iters, one, out);
}
// fp64 m8n8k4 is DMMA on sm_80 and later (PTX wmma.mma.sync ... .f64).
__global__ void mma_fp64(int iters, double one, double* out) { mma_loop<double, double, 8, 8, 4>(iters, one, out); }

// fp64 m16n8k16 DMMA, new with sm_90 (PTX ISA 7.8: mma.sync.aligned.m16n8k16.row.col.f64): the
// shape Hopper's fp64 tensor rate is reached with (cuBLAS DGEMM on the H200: 56.4 TFLOP/s
// against WMMA m8n8k4's lower rate). Each thread holds 8 A, 4 B and 4 C/D values; kTiles
// accumulators, each element ends at iters * 16. On older GPUs the kernel stores -1 (no figure).
__global__ void dmma_fp64_m16n8k16(int iters, double one, double* out) {
    double s = -1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    double a[8], b[4], d[kTiles][4];
#pragma unroll
    for (int t = 0; t < 8; ++t) a[t] = one;
#pragma unroll
    for (int t = 0; t < 4; ++t) b[t] = one;
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
#pragma unroll
        for (int t = 0; t < 4; ++t) d[j][t] = 0;
#pragma unroll 1
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < kTiles; ++j)
            asm volatile(
                "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, "
                "%11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
                : "+d"(d[j][0]), "+d"(d[j][1]), "+d"(d[j][2]), "+d"(d[j][3])
                : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
                  "d"(b[1]), "d"(b[2]), "d"(b[3]));
    }
    s = 0;
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
#pragma unroll
        for (int t = 0; t < 4; ++t) s += d[j][t];
#endif
    out[global_thread()] = s;
}

// Hopper's warpgroup MMA (wgmma, sm_90a only), the path cuBLAS and CUTLASS reach the tensor
// cores' dense peak with; WMMA (mma.sync) reaches about 60% of it on Hopper (issue 32). One
// warpgroup (128 threads) a block multiplies a 64 x K tile of A by a K x 256 tile of B, both
// read from shared memory through matrix descriptors, into 64 x 256 fp32 (int8: s32)
// accumulators, 128 a thread. A loop iteration issues kWgmmaChain wgmma into the same
// accumulators (as a GEMM's k loop does; the first overwrites them), commits them as one group
// and waits for it. Shared memory holds only ones (1.0 in the input type; int8 1), so every
// accumulator element ends an iteration at kWgmmaChain * K whatever the tile layout; a running
// total of one element over the iterations ends at iters * kWgmmaChain * K. Each thread reports
// that total if its 128 accumulators agree (NaN if not), and the host checks it, which proves
// each wgmma ran. The accumulators start over each iteration because Hopper accumulates fp8
// products in less than fp32's precision: on the H200 an fp8 accumulator summed across
// iterations stopped growing at 2^14 (16384 where 262144 was due). Built for another
// architecture, the kernels store -1 (no figure).
constexpr int kWgmmaThreads = 128;     // one warpgroup
constexpr int kWgmmaChain = 8;         // wgmma a commit group

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
constexpr int kWgmmaSmemBytes = 16384;  // A (64 x K) and B (256 x K) tiles of every type, K-major, 8 KiB each

// The wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address, leading
// and stride byte offsets, each >> 4, no swizzle. Core matrices of 8 rows x 16 bytes lie
// 128 bytes apart along K and 256 bytes apart along M/N, so a 256-row tile spans 8 KiB.
__device__ __forceinline__ std::uint64_t wgmma_descriptor(const void* shared) {
    const auto address = static_cast<std::uint64_t>(__cvta_generic_to_shared(shared));
    return ((address & 0x3FFFF) >> 4) | (std::uint64_t{128 >> 4} << 16) | (std::uint64_t{256 >> 4} << 32);
}
#endif

// The 128 accumulator operands of one m64n256 wgmma, "%0" to "%127" in the PTX text.
#define RL_WGMMA_D                                                                                                  \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, "   \
    "%23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "    \
    "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, "    \
    "%65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "    \
    "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "   \
    "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, "       \
    "%123, %124, %125, %126, %127}"
#define RL_ACC8(c, d, i)                                                                                           \
    c(d[i]), c(d[i + 1]), c(d[i + 2]), c(d[i + 3]), c(d[i + 4]), c(d[i + 5]), c(d[i + 6]), c(d[i + 7])
#define RL_ACC128(c, d)                                                                                            \
    RL_ACC8(c, d, 0), RL_ACC8(c, d, 8), RL_ACC8(c, d, 16), RL_ACC8(c, d, 24), RL_ACC8(c, d, 32),                 \
        RL_ACC8(c, d, 40), RL_ACC8(c, d, 48), RL_ACC8(c, d, 56), RL_ACC8(c, d, 64), RL_ACC8(c, d, 72),           \
        RL_ACC8(c, d, 80), RL_ACC8(c, d, 88), RL_ACC8(c, d, 96), RL_ACC8(c, d, 104), RL_ACC8(c, d, 112),         \
        RL_ACC8(c, d, 120)
// One wgmma of INSTRUCTION (shape and types) accumulating into d; TAIL the operands after
// scale-d (the immediates each type takes: PTX ISA, wgmma.mma_async).
// SCALE_D "0" writes d = A B, "1" accumulates d += A B.
#define RL_WGMMA(INSTRUCTION, SCALE_D, TAIL, CONSTRAINT, d, desc_a, desc_b)                                       \
    asm volatile("wgmma.mma_async.sync.aligned." INSTRUCTION " " RL_WGMMA_D ", %128, %129, " SCALE_D TAIL ";\n"  \
                 : RL_ACC128(CONSTRAINT, d)                                                                         \
                 : "l"(desc_a), "l"(desc_b))
// One wgmma of the kernel's kind.
#define RL_WGMMA_OF_KIND(SCALE_D)                                                                                  \
    do {                                                                                                           \
        if constexpr (kind == WgmmaKind::fp16)                                                                     \
            RL_WGMMA("m64n256k16.f32.f16.f16", SCALE_D, ", 1, 1, 0, 0", RL_F, d, desc_a, desc_b);                  \
        else if constexpr (kind == WgmmaKind::bf16)                                                                \
            RL_WGMMA("m64n256k16.f32.bf16.bf16", SCALE_D, ", 1, 1, 0, 0", RL_F, d, desc_a, desc_b);                \
        else if constexpr (kind == WgmmaKind::tf32)                                                                \
            RL_WGMMA("m64n256k8.f32.tf32.tf32", SCALE_D, ", 1, 1", RL_F, d, desc_a, desc_b);                       \
        else if constexpr (kind == WgmmaKind::fp8)                                                                 \
            RL_WGMMA("m64n256k32.f32.e4m3.e4m3", SCALE_D, ", 1, 1", RL_F, d, desc_a, desc_b);                      \
        else                                                                                                       \
            RL_WGMMA("m64n256k32.s32.s8.s8", SCALE_D, "", RL_R, d, desc_a, desc_b);                                \
    } while (0)
#define RL_F(x) "+f"(x)
#define RL_R(x) "+r"(x)

enum class WgmmaKind { fp16, bf16, tf32, fp8, int8 };

template <WgmmaKind kind>
__global__ void __launch_bounds__(kWgmmaThreads) wgmma_kernel(int iters, unsigned one_word, double* out) {
    double s = -1;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ alignas(128) unsigned tiles[kWgmmaSmemBytes / sizeof(unsigned)];
    for (int w = threadIdx.x; w < kWgmmaSmemBytes / 4; w += kWgmmaThreads) tiles[w] = one_word;
    // Generic-proxy stores become visible to wgmma's reads (the async proxy) only after this fence.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const std::uint64_t desc_a = wgmma_descriptor(tiles), desc_b = wgmma_descriptor(tiles + kWgmmaSmemBytes / 8);
    using Acc = std::conditional_t<kind == WgmmaKind::int8, int, float>;
    Acc d[128];
#pragma unroll
    for (int t = 0; t < 128; ++t) d[t] = 0;
    Acc total = 0;
#pragma unroll 1
    for (int i = 0; i < iters; ++i) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        RL_WGMMA_OF_KIND("0");
#pragma unroll
        for (int c = 1; c < kWgmmaChain; ++c) RL_WGMMA_OF_KIND("1");
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        total += d[0];
    }
    // Every accumulator must hold the same value (checked here, in registers: widening and
    // summing the 128 took the kernel to 254 registers with spills); the thread reports it, or NaN.
    bool same = true;
#pragma unroll
    for (int t = 1; t < 128; ++t) same &= d[t] == d[0];
    s = same ? static_cast<double>(total) : __longlong_as_double(0x7ff8000000000000LL);
#endif
    out[global_thread()] = s;
}
#undef RL_WGMMA_OF_KIND
#undef RL_WGMMA
#undef RL_ACC128
#undef RL_ACC8
#undef RL_WGMMA_D
#undef RL_F
#undef RL_R

// ------------------------------------------------------------------ memory kernels
constexpr int kMemThreads = 256;  // threads a block of every memory kernel
constexpr int kWarpsPerBlock = kMemThreads / 32;

// The arrays' contents, each 32-bit word a known function of its index, so that reads sum to
// a closed form and copies and triads can be checked word by word.
enum Pattern : int { kIota = 0, kOddWords = 1, kSmallFloats = 2, kOnes = 3, kTriadOfSmallAndOnes = 4 };
__host__ __device__ inline unsigned float_bits(float f) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}
__host__ __device__ inline unsigned pattern_word(int pattern, std::size_t i) {
    switch (pattern) {
    case kIota: return static_cast<unsigned>(i);
    case kOddWords: return static_cast<unsigned>(i * 3 + 1);
    case kSmallFloats: return float_bits(static_cast<float>(i & 0xffff));
    case kOnes: return float_bits(1.0f);
    default: return float_bits(static_cast<float>(i & 0xffff) + 3.0f);  // triad: b + 3 c
    }
}

__global__ void fill_words(unsigned* p, std::size_t words, int pattern) {
    for (std::size_t i = global_thread(); i < words; i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        p[i] = pattern_word(pattern, i);
}

__global__ void count_mismatches(const unsigned* p, std::size_t words, int pattern, unsigned long long* bad) {
    unsigned long long mine = 0;
    for (std::size_t i = global_thread(); i < words; i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        mine += p[i] != pattern_word(pattern, i);
    if (mine) atomicAdd(bad, mine);
}

__device__ __forceinline__ unsigned warp_sum(unsigned s) {
#pragma unroll
    for (int d = 16; d > 0; d /= 2) s += __shfl_xor_sync(0xffffffffu, s, d);
    return s;
}

// Reads of `rows` rows of blockDim.x uint4 (4 KiB at 256 threads), `reps` times, for DRAM and
// L2, in chunks of `chunk_rows` consecutive rows (rows a multiple of it): the launch reads
// chunks * reps "virtual blocks" k = 0, 1, 2, ..., block k mod gridDim.x reading chunk k mod
// chunks, row after row. So every row is read reps times, and a chunk is read by several
// blocks, on other SMs, at about the same time, as gpu-benches' gpu-l2-cache reads the L2
// (te42kyfo/gpu-benches: block b reads chunk b mod C), and as the tiles of a GEMM are read by
// many blocks at once. On the H200 of issue 32, in the same minutes: gpu-benches 9.6 TB/s at
// 30 MB; this kernel with 128-row chunks 10.2-10.4 TB/s at 30 MiB; the kernel before it, which
// read every row once before any again (1-row chunks), 7.6-8.3, under what real kernels reach.
// Blocks that share a chunk also share lines just fetched: in 128-row chunks the curve fell
// later past the L2 than its capacity (10 TB/s at 64 MiB, 6.7 at 128 MiB on that H200), so the
// chunk is chosen (see the L2 roof in main) by where the curve falls. The loads bypass L1
// (ld.global.cg: cached in L2 only, PTX ISA "Cache operators"): blocks on one SM that read one
// chunk must not find it in their L1 (the first kernel of issue 32 gave each thread the same
// addresses every repetition: 2.5x the L2 bandwidth, all L1 hits). Each warp stores the sum of
// its words (mod 2^32): reps times the sum of every word, a closed form for the host.
constexpr int kLoadsInFlight = 4;  // independent loads a thread issues before it adds
__global__ void read_kernel(const uint4* in, unsigned rows, unsigned chunk_rows, unsigned reps, unsigned* out) {
    const unsigned chunks = rows / chunk_rows;
    const std::size_t total = static_cast<std::size_t>(chunks) * reps;
    unsigned s = 0;
    for (std::size_t k = blockIdx.x; k < total; k += gridDim.x) {
        const uint4* chunk = in + static_cast<std::size_t>(k % chunks) * chunk_rows * blockDim.x + threadIdx.x;
        unsigned r = 0;
        for (; r + kLoadsInFlight <= chunk_rows; r += kLoadsInFlight) {
            uint4 v[kLoadsInFlight];
#pragma unroll
            for (int u = 0; u < kLoadsInFlight; ++u) v[u] = __ldcg(chunk + static_cast<std::size_t>(r + u) * blockDim.x);
#pragma unroll
            for (int u = 0; u < kLoadsInFlight; ++u) s += v[u].x + v[u].y + v[u].z + v[u].w;
        }
        for (; r < chunk_rows; ++r) {
            const uint4 v = __ldcg(chunk + static_cast<std::size_t>(r) * blockDim.x);
            s += v.x + v.y + v.z + v.w;
        }
    }
    s = warp_sum(s);
    if (threadIdx.x % 32 == 0) out[global_thread() / 32] = s;
}

// The largest chunk of the read kernel, in rows: 512 KiB, gpu-benches' chunk.
constexpr unsigned kMaxChunkRows = 128;

// How far above the DRAM read a read of 2.5x the L2 may run before its blocks are taken to
// share lines fetched from DRAM for another block: the L2 keeps part of a set larger than it
// (on the H200 of issue 32, 1.04x at 2.1x its L2 with no chunk read twice at once); the bound of
// roofline's (core/gpu_l2_check.hpp), which refuses what exceeds it.
constexpr double kPastL2Tolerance = 0.25;

// The rows of a read kernel's chunk: the largest power of two up to kMaxChunkRows that
// divides `rows`.
unsigned chunk_rows_of(unsigned rows) {
    unsigned c = kMaxChunkRows;
    while (c > 1 && rows % c != 0) c /= 2;
    return c;
}

__global__ void copy_kernel(const float4* in, float4* out, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = global_thread(); i < n; i += stride) out[i] = in[i];
}

__global__ void triad_kernel(float4* a, const float4* b, const float4* c, float s, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = global_thread(); i < n; i += stride) {
        const float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}

// Shared memory: every thread reads 16 bytes a step from a 32 KiB block-local array, at
// addresses that differ per step so nothing is hoisted, without bank conflicts. Word w of the
// array holds w; each warp stores the sum (mod 2^32) of what its threads read.
constexpr int kSharedUint4 = 2048;
__global__ void shared_read_kernel(int iters, unsigned* out) {
    __shared__ uint4 buf[kSharedUint4];
    for (unsigned i = threadIdx.x; i < kSharedUint4; i += blockDim.x) buf[i] = make_uint4(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3);
    __syncthreads();
    unsigned s = 0, idx = threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        const uint4 v = buf[idx & (kSharedUint4 - 1)];
        s += v.x + v.y + v.z + v.w;
        idx += blockDim.x;
    }
    s = warp_sum(s);
    if (threadIdx.x % 32 == 0) out[global_thread() / 32] = s;
}

// ------------------------------------------------------------------ self-checks (host)
// Closed forms of what the kernels above store, and the comparison that names the first value
// that differs. An empty string: every value is right.
double fma_chain_value(double m, double a, int iters) {
    double x[kChains];
    for (int c = 0; c < kChains; ++c) {
        x[c] = a + c;
        for (int i = 0; i < iters; ++i) x[c] = x[c] * m + a;
    }
    double s = x[0];
    for (int c = 1; c < kChains; ++c) s = s * m + x[c];
    return s;
}

template <typename T>
std::vector<T> fetch(const void* device, std::size_t count) {
    std::vector<T> host(count);
    CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

template <typename T>
std::string as_text(T v) {
    char text[64];
    if constexpr (std::is_floating_point_v<T>) std::snprintf(text, sizeof text, "%.17g", static_cast<double>(v));
    else std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(v));
    return text;
}

// `got[i]` against `want(i)` for every i; `what` names one value ("thread", "warp").
template <typename T, typename Want>
std::string compare(const std::vector<T>& got, Want want, const char* what) {
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want(i)) && wrong++ == 0) first = i;
    if (!wrong) return {};
    return std::string(what) + " " + std::to_string(first) + " stored " + as_text(got[first]) + ", expected " +
           as_text(static_cast<T>(want(first))) + " (" + std::to_string(wrong) + " of " + std::to_string(got.size()) +
           " wrong)";
}

// Sum of words [0, words) of kIota, times reps, mod 2^32 (word i holds i mod 2^32).
unsigned iota_sum(std::uint64_t words, unsigned reps) {
    const std::uint64_t a = words % 2 == 0 ? words / 2 : words, b = words % 2 == 0 ? words - 1 : (words - 1) / 2;
    return static_cast<unsigned>(a * b) * reps;  // a b = words (words - 1) / 2; wraps mod 2^64, kept mod 2^32
}

std::string check_read_sum(const void* out, std::size_t warps, std::uint64_t words, unsigned reps) {
    const auto got = fetch<unsigned>(out, warps);
    unsigned total = 0;
    for (const unsigned s : got) total += s;
    const unsigned want = iota_sum(words, reps);
    if (total == want) return {};
    return "the warps' sums add to " + std::to_string(total) + ", expected " + std::to_string(want) + " (every word of " +
           std::to_string(words) + " read " + std::to_string(reps) + " times)";
}

std::string check_words(const unsigned* p, std::size_t words, int pattern, void* scratch) {
    auto* bad = static_cast<unsigned long long*>(scratch);
    CHECK(cudaMemset(bad, 0, sizeof *bad));
    count_mismatches<<<1024, kMemThreads>>>(p, words, pattern, bad);
    CHECK(cudaGetLastError());
    const unsigned long long wrong = fetch<unsigned long long>(bad, 1)[0];
    if (!wrong) return {};
    return std::to_string(wrong) + " of " + std::to_string(words) + " words of the output are not what it should hold";
}

// ------------------------------------------------------------------ JSON
std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') out += '\\', out += ch;
        else if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out += esc;
        } else out += ch;
    }
    return out + "\"";
}

std::string stats_json(const Figure& f) {
    char text[160];
    std::snprintf(text, sizeof text, "{\"median\": %.6g, \"min\": %.6g, \"max\": %.6g, \"runs\": %d}", f.median, f.min,
                  f.best, f.runs);
    return text;
}

struct Options {
    int device = 0;
    bool quick = false;
    bool probe = false;
    bool compute = true, memory = true, bus = true;  // --only: the sections measured
    bool l2 = true;                                  // the DRAM read and the L2 (all of memory: memory)
    std::size_t l2_chunk_bytes = 0;                  // 0: chosen (see the L2 roof in main)
    bool l2_sweep_chunks = false;                    // every chunk size tried, each with its curve
    std::string output;
    std::size_t bus_bytes = std::size_t{256} << 20;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) die(2, a + " needs a value");
            return argv[++i];
        };
        if (a == "--device") o.device = std::atoi(value().c_str());
        else if (a == "--quick") o.quick = true;
        else if (a == "--probe") o.probe = true;
        else if (a == "-o") o.output = value();
        else if (a == "--bus-bytes") o.bus_bytes = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--only") {
            const std::string list = value();
            bool* const sections[] = {&o.compute, &o.memory, &o.l2, &o.bus};
            const char* const names[] = {"compute", "memory", "l2", "bus"};
            for (bool* s : sections) *s = false;
            std::size_t from = 0;
            for (;;) {  // each name once
                const std::size_t comma = std::min(list.find(',', from), list.size());
                const std::string name = list.substr(from, comma - from);
                int i = 0;
                while (i < 4 && name != names[i]) ++i;
                if (i == 4 || *sections[i])
                    die(2, "--only expects sections from compute, memory, l2, bus, each once, separated by commas "
                           "(got '" + list + "')");
                *sections[i] = true;
                if (comma == list.size()) break;
                from = comma + 1;
            }
            o.l2 = o.l2 || o.memory;
        } else if (a == "--l2-chunk-bytes") {
            const std::string text = value();
            char* end = nullptr;
            const unsigned long long bytes = std::strtoull(text.c_str(), &end, 10);
            constexpr std::size_t kRow = kMemThreads * sizeof(uint4);
            if (end == text.c_str() || *end || bytes < kRow || bytes > kMaxChunkRows * kRow || bytes % kRow ||
                ((bytes / kRow) & (bytes / kRow - 1)))
                die(2, "--l2-chunk-bytes expects 4096 times a power of two, up to " +
                           std::to_string(kMaxChunkRows * kRow) + " (got '" + text + "')");
            o.l2_chunk_bytes = bytes;
        } else if (a == "--l2-sweep-chunks") {
            o.l2_sweep_chunks = true;
        } else if (a == "--help" || a == "-h") {
            std::printf("usage: roofline-gpubench [--device N] [--quick] [--bus-bytes B] [--only SECTIONS]\n"
                        "                         [--l2-chunk-bytes B] [--l2-sweep-chunks] [-o FILE]\n"
                        "       roofline-gpubench --probe [--device N]\n"
                        "Measures one GPU's roofs and writes them as JSON (roofline.gpubench/1) for "
                        "'roofline bench --gpu'. --probe only says which device N is (exit 77: none).\n"
                        "  --only SECTIONS       compute, memory, l2 (the DRAM read and the L2 only), bus,\n"
                        "                        separated by commas (default: all)\n"
                        "  --l2-chunk-bytes B    read the L2 in chunks of B bytes (4 KiB to 512 KiB, a power of\n"
                        "                        two) instead of the largest chunk whose read past twice the L2\n"
                        "                        falls to the DRAM read (l2_chunks_tried in the JSON: each chunk\n"
                        "                        tried, its L2 roof and its read past the L2)\n"
                        "  --l2-sweep-chunks     try every chunk size, each with its curve (points), to check\n"
                        "                        the choice against another benchmark\n");
            std::exit(0);
        } else die(2, "unknown argument '" + a + "' (see --help)");
    }
    if (o.device < 0) die(2, "--device expects a device ordinal (0, 1, ...)");
    if (o.bus_bytes < (std::size_t{1} << 20)) die(2, "--bus-bytes expects at least 1 MiB");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse(argc, argv);
    int count = 0;
    const cudaError_t probe = cudaGetDeviceCount(&count);
    if (probe != cudaSuccess || count == 0)
        die(77, std::string("no CUDA device") + (probe != cudaSuccess ? std::string(": ") + cudaGetErrorString(probe) : ""));
    if (opt.device >= count) die(2, "--device " + std::to_string(opt.device) + ": there are " + std::to_string(count));
    CHECK(cudaSetDevice(opt.device));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, opt.device));
    if (opt.probe) {
        std::fprintf(stderr, "roofline-gpubench: device %d: %s (compute capability %d.%d, %d SMs)\n", opt.device,
                     prop.name, prop.major, prop.minor, prop.multiProcessorCount);
        return 0;
    }
    char pci[32];
    std::snprintf(pci, sizeof pci, "%08x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    const Nvml nvml(pci);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    const int sms = prop.multiProcessorCount;
    const int reps = opt.quick ? 5 : 10;
    std::vector<std::string> compute, memory, bus;
    const auto progress = [](const char* what) { std::fprintf(stderr, "roofline-gpubench: %s\n", what); };

    // Compute: enough blocks for every SM to stay busy, long enough to time (~50 ms a launch).
    // Each figure's kernel is checked after timing; a figure whose check fails is not written,
    // and the program exits 1 at the end, naming every failed kernel.
    progress("compute roofs");
    const int threads = 256, blocks = sms * 8;
    const std::size_t lanes_n = static_cast<std::size_t>(blocks) * threads;
    std::vector<std::string> failed;
    const auto checked = [&](Figure f, const std::string& kernel, const std::string& problem) {
        if (!problem.empty() && f.failed.empty()) {
            f.failed = kernel + ": " + problem;
            std::fprintf(stderr, "roofline-gpubench: kernel self-check failed: %s\n", f.failed.c_str());
        }
        return f;
    };
    // One value per thread of the compute kernels (8 bytes), one per warp of the memory ones.
    void* sink = nullptr;
    const std::size_t sink_bytes = std::max<std::size_t>(lanes_n * sizeof(double), std::size_t{1} << 20);
    CHECK(cudaMalloc(&sink, sink_bytes));
    auto* sink_f64 = static_cast<double*>(sink);
    auto* sink_u32 = static_cast<unsigned*>(sink);
    const double lanes = static_cast<double>(lanes_n);
    const auto add_compute = [&](const char* name, const char* precision, const char* unit, bool tensor, Figure f) {
        if (!f.failed.empty()) {
            failed.push_back(f.failed);
            return;
        }
        char text[512];
        std::snprintf(text, sizeof text,
                      "{\"name\": %s, \"precision\": \"%s\", \"work_unit\": \"%s\", \"tensor\": %s, \"gflops\": %.6g, "
                      "\"clock_mhz\": %.6g, \"stats\": %s}",
                      json_string(name).c_str(), precision, unit, tensor ? "true" : "false", f.best, f.clock_mhz,
                      stats_json(f).c_str());
        compute.push_back(text);
    };
    // Every thread of every block stores one value; `want(thread in block)` is its closed form.
    const auto check_threads = [&](auto sample, auto want) {
        const auto got = fetch<decltype(sample)>(sink, lanes_n);
        return compare(got, [&](std::size_t i) { return want(static_cast<unsigned>(i % threads)); }, "thread");
    };
    if (opt.compute) {
        const int iters = opt.quick ? 4096 : 16384;
        // FMA chains: x = x + 1 counts the iterations exactly in fp64 and fp32 (the sum of the
        // chains, 8 (iters + 1) + 28, is far below 2^24); the 16-bit types hold integers only to
        // 2048 (bf16: 256), so theirs is x = 1 - x, which alternates between 1 + c and -c.
        const auto fma_figure = [&](const char* kernel, double m, double a, double flop_per_fma, auto launch) {
            Figure f = time_rate(launch, flop_per_fma * kChains * iters * lanes, reps, nvml);
            const double want = fma_chain_value(m, a, iters);
            return checked(f, kernel, check_threads(0.0, [&](unsigned) { return want; }));
        };
        add_compute("fp64 fma", "fp64", "FLOP", false, fma_figure("fp64 fma", 1, 1, 2, [&] {
            fma_chains<double><<<blocks, threads>>>(1.0, 1.0, iters, sink_f64);
        }));
        add_compute("fp32 fma", "fp32", "FLOP", false, fma_figure("fp32 fma", 1, 1, 2, [&] {
            fma_chains<float><<<blocks, threads>>>(1.0f, 1.0f, iters, sink_f64);
        }));
        add_compute("fp16 fma (half2)", "fp16", "FLOP", false, fma_figure("fp16 fma (half2)", -1, 1, 4, [&] {
            fma_chains<__half2><<<blocks, threads>>>(__float2half2_rn(-1.0f), __float2half2_rn(1.0f), iters, sink_f64);
        }));
        add_compute("bf16 fma (bfloat162)", "bf16", "FLOP", false, fma_figure("bf16 fma (bfloat162)", -1, 1, 4, [&] {
            fma_chains<__nv_bfloat162><<<blocks, threads>>>(__float2bfloat162_rn(-1.0f), __float2bfloat162_rn(1.0f), iters,
                                                            sink_f64);
        }));
        {
            const unsigned y = 0x0f0f0f0fu, z = 0x33333333u;
            Figure f = time_rate([&] { lop3_chains<<<blocks, threads>>>(y, z, iters, sink_u32); },
                                 1.0 * kChains * iters * lanes, reps, nvml);
            f = checked(f, "lop3", check_threads(0u, [&](unsigned t) {
                unsigned s = 0;
                for (int c = 0; c < kChains; ++c) s ^= (t + c) ^ (iters % 2 ? y ^ z : 0u);
                return s;
            }));
            add_compute("lop3", "lop3", "OP", false, f);
        }
        {
            const unsigned y = 0x9e3779b9u;
            const int steps = iters / 4;
            Figure f = time_rate([&] { popc_chains<<<blocks, threads>>>(y, steps, sink_u32); },
                                 1.0 * kChains * steps * lanes, reps, nvml);
            std::vector<unsigned> want(threads);  // the same in every block: the chains start from threadIdx.x
            for (int t = 0; t < threads; ++t)
                for (int c = 0; c < kChains; ++c) {
                    unsigned x = popc_start(t, c);
                    for (int i = 0; i < steps; ++i) x = popc_step(x, y);
                    want[t] ^= x;
                }
            f = checked(f, "popc", check_threads(0u, [&](unsigned t) { return want[t]; }));
            add_compute("popc", "popc", "OP", false, f);
        }
        const double warps = lanes / 32;
        const int mma_iters = opt.quick ? 1024 : 4096;
        // Each thread holds M N / 32 elements of each of kTiles tiles, each iters * K.
        const auto mma_figure = [&](const char* kernel, int m, int n, int k, int mma_count, auto launch) {
            Figure f = time_rate(launch, 2.0 * m * n * k * kTiles * mma_count * warps, reps, nvml);
            const double want = static_cast<double>(kTiles) * (m * n / 32) * mma_count * k;
            return checked(f, kernel, check_threads(0.0, [&](unsigned) { return want; }));
        };
        add_compute("fp16 tensor (wmma, fp32 accumulate)", "fp16", "FLOP", true,
                    mma_figure("fp16 tensor (wmma, fp32 accumulate)", 16, 16, 16, mma_iters, [&] {
                        mma_fp16<<<blocks, threads>>>(mma_iters, __float2half(1.0f), sink_f64);
                    }));
        add_compute("bf16 tensor (wmma, fp32 accumulate)", "bf16", "FLOP", true,
                    mma_figure("bf16 tensor (wmma, fp32 accumulate)", 16, 16, 16, mma_iters, [&] {
                        mma_bf16<<<blocks, threads>>>(mma_iters, __float2bfloat16(1.0f), sink_f64);
                    }));
        add_compute("tf32 tensor (wmma)", "tf32", "FLOP", true, mma_figure("tf32 tensor (wmma)", 16, 16, 8, mma_iters, [&] {
                        mma_tf32<<<blocks, threads>>>(mma_iters, 1.0f, sink_f64);
                    }));
        add_compute("fp64 tensor (wmma)", "fp64", "FLOP", true, mma_figure("fp64 tensor (wmma)", 8, 8, 4, mma_iters / 4, [&] {
                        mma_fp64<<<blocks, threads>>>(mma_iters / 4, 1.0, sink_f64);
                    }));
        if (prop.major >= 9) {  // m16n8k16 DMMA: sm_90 and later
            const int dmma_iters = mma_iters / 4;
            add_compute("fp64 tensor (dmma m16n8k16)", "fp64", "FLOP", true,
                        mma_figure("fp64 tensor (dmma m16n8k16)", 16, 8, 16, dmma_iters, [&] {
                            dmma_fp64_m16n8k16<<<blocks, threads>>>(dmma_iters, 1.0, sink_f64);
                        }));
        }
        // wgmma: its cubin is built for sm_90a only, which runs on compute capability 9.0 alone.
        // One warpgroup a block, as many blocks as fit on every SM at once (no partial wave).
        if (prop.major == 9 && prop.minor == 0) {
            // 8 wgmma an iteration, 128 SM clocks each at the dense peak, 3 blocks an SM: about 6 ms a
            // launch at 2 GHz (1.6 ms quick), long enough for CUDA events; accumulators stay below 2^21.
            const int wgmma_iters = opt.quick ? 1024 : 4096;
            bool built = true;
            const auto wgmma_figure = [&](const char* name, const char* precision, const char* unit, auto kernel, int k,
                                          unsigned one_word) {
                if (!built) return;
                int per_sm = 0;
                CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kWgmmaThreads, 0));
                const int grid = sms * std::max(per_sm, 1);
                const auto launch = [&] { kernel<<<grid, kWgmmaThreads>>>(wgmma_iters, one_word, sink_f64); };
                Figure f = time_rate(launch, 2.0 * 64 * 256 * k * kWgmmaChain * static_cast<double>(wgmma_iters) * grid,
                                     reps, nvml);
                const auto got = fetch<double>(sink, static_cast<std::size_t>(grid) * kWgmmaThreads);
                if (got.front() == -1) {  // the binary holds no sm_90a code (ROOFLINE_GPU_ARCHS without 90a)
                    std::fprintf(stderr, "roofline-gpubench: wgmma kernels not built (no sm_90a code): tensor roofs "
                                         "from WMMA only\n");
                    built = false;
                    return;
                }
                const double want = 1.0 * wgmma_iters * kWgmmaChain * k;
                add_compute(name, precision, unit, true,
                            checked(f, name, compare(got, [&](std::size_t) { return want; }, "thread")));
            };
            wgmma_figure("fp16 tensor (wgmma, fp32 accumulate)", "fp16", "FLOP", wgmma_kernel<WgmmaKind::fp16>, 16,
                         0x3C003C00u);
            wgmma_figure("bf16 tensor (wgmma, fp32 accumulate)", "bf16", "FLOP", wgmma_kernel<WgmmaKind::bf16>, 16,
                         0x3F803F80u);
            wgmma_figure("tf32 tensor (wgmma)", "tf32", "FLOP", wgmma_kernel<WgmmaKind::tf32>, 8, 0x3F800000u);
            wgmma_figure("fp8 tensor (wgmma e4m3, fp32 accumulate)", "fp8", "FLOP", wgmma_kernel<WgmmaKind::fp8>, 32,
                         0x38383838u);
            wgmma_figure("int8 tensor (wgmma, s32 accumulate)", "int8", "OP", wgmma_kernel<WgmmaKind::int8>, 32,
                         0x01010101u);
        }
    }

    // Memory: DRAM over arrays of at least 8x L2 (and 256 MiB), L2 swept over working sets,
    // shared memory. Sizes are whole rows of the read kernel (4 KiB).
    std::string curve, l2_trials;  // the L2 curve's points; the chunk sizes tried for it
    int curve_blocks_per_sm = 0;
    std::size_t curve_chunk_bytes = 0;
    if (opt.l2) {  // opt.memory too
        progress(opt.memory ? "memory roofs" : "memory roofs: the DRAM read and the L2");
        constexpr std::size_t kRow = kMemThreads * sizeof(uint4);
        const std::size_t l2 = static_cast<std::size_t>(std::max(prop.l2CacheSize, 1 << 20));
        const std::size_t big = std::min<std::size_t>(std::max<std::size_t>(8 * l2, std::size_t{256} << 20),
                                                      prop.totalGlobalMem / 8) / kRow * kRow;
        float4 *a = nullptr, *b = nullptr, *c = nullptr;
        CHECK(cudaMalloc(&a, big));
        CHECK(cudaMalloc(&b, big));
        CHECK(cudaMalloc(&c, big));
        const std::size_t n = big / sizeof(float4), words = big / sizeof(unsigned);
        const auto fill = [&](void* p, int pattern) {
            fill_words<<<sms * 4, kMemThreads>>>(static_cast<unsigned*>(p), words, pattern);
            CHECK(cudaGetLastError());
        };
        const auto add_memory = [&](const char* level, const char* pattern, std::size_t ws, int per_sm, Figure f,
                                    std::size_t chunk_bytes = 0) {
            if (!f.failed.empty()) {
                failed.push_back(f.failed);
                return;
            }
            char text[384], chunk[48] = "";
            if (chunk_bytes) std::snprintf(chunk, sizeof chunk, ", \"chunk_bytes\": %zu", chunk_bytes);
            std::snprintf(text, sizeof text,
                          "{\"level\": \"%s\", \"pattern\": \"%s\", \"gbs\": %.6g, \"working_set_bytes\": %zu, "
                          "\"blocks_per_sm\": %d%s, \"stats\": %s}",
                          level, pattern, f.best, ws, per_sm, chunk, stats_json(f).c_str());
            memory.push_back(text);
        };
        // Occupancy swept: the best blocks per SM for each kernel; a failed check at any occupancy
        // fails the figure.
        const auto best_over_occupancy = [&](auto measure, int& chosen) {
            Figure best;
            std::string failure;
            for (const int per_sm : {1, 2, 4, 8, 16}) {
                const Figure f = measure(per_sm);
                if (!f.failed.empty() && failure.empty()) failure = f.failed;
                if (f.best > best.best) best = f, chosen = per_sm;
            }
            best.failed = failure;
            return best;
        };
        // A read of the first `ws` bytes of `a` (kIota), `times` times in chunks of `chunk_rows`
        // rows (which divides ws / kRow), checked.
        const auto read_figure = [&](const char* kernel, std::size_t ws, unsigned times, int per_sm,
                                     unsigned chunk_rows) {
            const unsigned rows = static_cast<unsigned>(ws / kRow);
            Figure f = time_rate([&] {
                read_kernel<<<sms * per_sm, kMemThreads>>>(reinterpret_cast<const uint4*>(a), rows, chunk_rows, times,
                                                           sink_u32);
            },
                                 static_cast<double>(ws) * times, reps, nvml);
            return checked(f, kernel, check_read_sum(sink, static_cast<std::size_t>(sms) * per_sm * kWarpsPerBlock,
                                                     ws / sizeof(unsigned), times));
        };
        int chosen = 0;
        fill(a, kIota);
        // Read once (times = 1), no chunk is read twice: the chunk size does not matter.
        Figure f = best_over_occupancy([&](int per_sm) {
            return read_figure("DRAM read", big, 1, per_sm, chunk_rows_of(static_cast<unsigned>(big / kRow)));
        }, chosen);
        add_memory("DRAM", "read", big, chosen, f);
        const double dram_read = f.failed.empty() ? f.best : 0;
        if (opt.memory) {
            fill(b, kOddWords);
            f = best_over_occupancy([&](int per_sm) {
                const Figure g =
                    time_rate([&] { copy_kernel<<<sms * per_sm, kMemThreads>>>(b, a, n); }, 2.0 * big, reps, nvml);
                return checked(g, "DRAM copy", check_words(reinterpret_cast<unsigned*>(a), words, kOddWords, sink));
            }, chosen);
            add_memory("DRAM", "copy", 2 * big, chosen, f);
            fill(b, kSmallFloats);
            fill(c, kOnes);
            f = best_over_occupancy([&](int per_sm) {
                const Figure g = time_rate([&] { triad_kernel<<<sms * per_sm, kMemThreads>>>(a, b, c, 3.0f, n); }, 3.0 * big,
                                           reps, nvml);
                return checked(g, "DRAM triad",
                               check_words(reinterpret_cast<unsigned*>(a), words, kTriadOfSmallAndOnes, sink));
            }, chosen);
            add_memory("DRAM", "triad", 3 * big, chosen, f);
        }

        // L2: the roof at half the L2 (occupancy swept there, 512 MiB a launch: 50 ms at 10 TB/s),
        // then the curve at that occupancy over working sets from 2 MiB to under twice the L2, and
        // one past it (2.5x), each launch about 50 ms at the roof's rate (64 MiB to 512 MiB).
        // The chunk size: blocks that read one chunk at about the same time share what the L2
        // fetched for the first of them, as a GEMM's blocks share its tiles (and gpu-benches' blocks
        // their 512 KiB chunks), which real kernels reach; but with too few chunks in flight they
        // share lines fetched from DRAM moments before, and the figure is reuse, not the L2. Past
        // twice the L2 every line must come from DRAM, so the largest chunk whose read there runs
        // at most kPastL2Tolerance above the DRAM read is taken (on the H200 of issue 32, 60 MiB
        // of L2, 512 KiB chunks read a 128 MiB set at 6.7 TB/s, about 1.5x its DRAM read; every
        // row once before any again, 4.5 TB/s, 1.04x). roofline refuses an L2 roof and curve that
        // fail this check (core/gpu_l2_check.hpp), as it would a run with --l2-chunk-bytes too large.
        fill(a, kIota);
        const auto times_for = [](std::size_t ws, std::size_t bytes) {
            return static_cast<unsigned>(std::max<std::size_t>(1, bytes / ws));
        };
        const auto launch_bytes = [](const Figure& roof) {  // about 50 ms a launch at the roof's rate
            return static_cast<std::size_t>(std::clamp(roof.best * 1e9 * 0.05, 64.0 * (1 << 20), 512.0 * (1 << 20)));
        };
        constexpr std::size_t kChunk = kMaxChunkRows * kRow;  // every size a whole number of the largest chunk
        const std::size_t l2_set = std::max(l2 / 2 / kChunk, std::size_t{1}) * kChunk;
        std::vector<std::size_t> sweep;
        for (std::size_t ws = std::size_t{2} << 20; ws < 2 * l2 && ws <= big; ws = ws * (opt.quick ? 4 : 3) / 2)
            sweep.push_back(std::max(ws / kChunk, std::size_t{1}) * kChunk);
        const std::size_t past_l2 = (5 * l2 / 2 + kChunk - 1) / kChunk * kChunk;
        if (past_l2 <= big) sweep.push_back(past_l2);
        const bool judged = dram_read > 0 && past_l2 <= big;
        std::vector<unsigned> chunk_sizes{kMaxChunkRows, 32, 8, 1};  // most shared first
        if (opt.l2_chunk_bytes) chunk_sizes = {static_cast<unsigned>(opt.l2_chunk_bytes / kRow)};
        else if (!judged) chunk_sizes = {1};  // nothing to judge sharing by: none
        // The curve at one occupancy and chunk size: its points as JSON, or empty with the
        // failed self-check in `failed`. `past_gbs`: the point past the L2 already measured
        // (0: measure it too).
        const auto curve_of = [&](int per_sm, unsigned rows_a_chunk, std::size_t launch, double past_gbs) {
            std::string points;
            for (const std::size_t ws : sweep) {
                Figure g;
                g.best = past_gbs;
                if (ws != past_l2 || !(past_gbs > 0))
                    g = read_figure("L2 read (curve)", ws, times_for(ws, launch), per_sm, rows_a_chunk);
                if (!g.failed.empty()) {
                    failed.push_back(g.failed);
                    return std::string();
                }
                char point[64];
                std::snprintf(point, sizeof point, "%s[%zu, %.6g]", points.empty() ? "" : ", ", ws, g.best);
                points += point;
            }
            return points;
        };
        Figure roof;
        unsigned chunk_rows = 0;  // the chunk taken: the first whose read past the L2 falls to DRAM
        double taken_past = 0;    // its read past the L2
        std::string taken_curve;  // its curve, when the sweep of every chunk measured it
        for (const unsigned rows_a_chunk : chunk_sizes) {
            int per_sm = 0;
            const Figure r = best_over_occupancy([&](int p) {
                return read_figure("L2 read", l2_set, times_for(l2_set, std::size_t{512} << 20), p, rows_a_chunk);
            }, per_sm);
            const bool last = rows_a_chunk == chunk_sizes.back();
            if (!r.failed.empty() || !judged) {
                if (!chunk_rows) roof = r, chunk_rows = rows_a_chunk, chosen = per_sm;  // add_memory says a failure
                else if (!r.failed.empty()) failed.push_back(r.failed);
                break;
            }
            const Figure past = read_figure("L2 read (past the L2)", past_l2, times_for(past_l2, launch_bytes(r)), per_sm,
                                            rows_a_chunk);
            if (!past.failed.empty()) {
                if (!chunk_rows) roof = r, roof.failed = past.failed, chunk_rows = rows_a_chunk, chosen = per_sm;
                else failed.push_back(past.failed);
                break;
            }
            const bool falls = past.best <= (1 + kPastL2Tolerance) * dram_read;
            const bool taken = !chunk_rows && (falls || last);
            if (taken) roof = r, chunk_rows = rows_a_chunk, chosen = per_sm, taken_past = past.best;
            char trial[320];
            std::snprintf(trial, sizeof trial,
                          "%s{\"chunk_bytes\": %zu, \"blocks_per_sm\": %d, \"l2_gbs\": %.6g, \"past_l2_bytes\": %zu, "
                          "\"past_l2_gbs\": %.6g, \"dram_read_gbs\": %.6g, \"taken\": %s",
                          l2_trials.empty() ? "" : ", ", rows_a_chunk * kRow, per_sm, r.best, past_l2, past.best,
                          dram_read, taken ? "true" : "false");
            l2_trials += trial;
            if (opt.l2_sweep_chunks) {
                const std::string points = curve_of(per_sm, rows_a_chunk, launch_bytes(r), past.best);
                if (taken) taken_curve = points;
                l2_trials += ", \"points\": [" + points + "]";
            }
            l2_trials += "}";
            if (!falls)
                std::fprintf(stderr, "roofline-gpubench: L2 read in %zu KiB chunks: %.0f GB/s at %zu MiB, %.2fx the DRAM "
                                     "read%s\n",
                             rows_a_chunk * kRow >> 10, past.best, past_l2 >> 20, past.best / dram_read,
                             last ? "" : ": lines shared, smaller chunks");
            if (chunk_rows && !opt.l2_sweep_chunks) break;
        }
        add_memory("L2", "read", l2_set, chosen, roof, chunk_rows * kRow);
        if (roof.failed.empty())
            curve = !taken_curve.empty() ? taken_curve : curve_of(chosen, chunk_rows, launch_bytes(roof), taken_past);
        curve_blocks_per_sm = chosen;
        curve_chunk_bytes = chunk_rows * kRow;
        if (opt.memory) {
            const int shared_iters = opt.quick ? 8192 : 32768;
            // Shared memory: thread t's word sum is the sum over steps i of 16 ((t + 256 i) mod 2048) + 6.
            std::vector<unsigned> shared_want(kWarpsPerBlock);
            for (unsigned t = 0; t < kMemThreads; ++t)
                for (int i = 0; i < shared_iters; ++i)
                    shared_want[t / 32] += 16 * ((t + static_cast<unsigned>(kMemThreads) * i) & (kSharedUint4 - 1)) + 6;
            f = best_over_occupancy([&](int per_sm) {
                const Figure g = time_rate([&] { shared_read_kernel<<<sms * per_sm, kMemThreads>>>(shared_iters, sink_u32); },
                                           16.0 * shared_iters * kMemThreads * sms * per_sm, reps, nvml);
                const auto got = fetch<unsigned>(sink, static_cast<std::size_t>(sms) * per_sm * kWarpsPerBlock);
                return checked(g, "L1 (shared memory) read",
                               compare(got, [&](std::size_t w) { return shared_want[w % kWarpsPerBlock]; }, "warp"));
            }, chosen);
            add_memory("L1", "read", kSharedUint4 * sizeof(uint4), chosen, f);
        }
        CHECK(cudaFree(a));
        CHECK(cudaFree(b));
        CHECK(cudaFree(c));
    }

    if (opt.bus) {
        // Bus: copies of growing size; the plateau is the best rate and the size it came at.
        progress("host-device bus");
        void *host_pinned = nullptr, *host_pinned2 = nullptr, *dev = nullptr, *dev2 = nullptr;
        CHECK(cudaMallocHost(&host_pinned, opt.bus_bytes));
        CHECK(cudaMallocHost(&host_pinned2, opt.bus_bytes));
        CHECK(cudaMalloc(&dev, opt.bus_bytes));
        CHECK(cudaMalloc(&dev2, opt.bus_bytes));
        std::memset(host_pinned, 1, opt.bus_bytes);
        std::memset(host_pinned2, 1, opt.bus_bytes);
        std::vector<char> pageable(opt.bus_bytes, 1);
        cudaStream_t s1, s2;
        CHECK(cudaStreamCreate(&s1));
        CHECK(cudaStreamCreate(&s2));
        const auto add_bus = [&](const char* direction, bool pinned, std::size_t bytes, Figure fig) {
            char text[256];
            std::snprintf(text, sizeof text,
                          "{\"direction\": \"%s\", \"pinned\": %s, \"gbs\": %.6g, \"bytes\": %zu, \"stats\": %s}", direction,
                          pinned ? "true" : "false", fig.best, bytes, stats_json(fig).c_str());
            bus.push_back(text);
        };
        for (const bool pinned : {true, false}) {
            for (const char* direction : {"h2d", "d2h", "bidirectional"}) {
                if (!pinned && std::strcmp(direction, "bidirectional") == 0) continue;  // pageable copies serialize
                Figure best;
                std::size_t best_bytes = 0;
                for (std::size_t bytes = std::size_t{1} << 20; bytes <= opt.bus_bytes; bytes *= 4) {
                    void* host = pinned ? host_pinned : pageable.data();
                    const bool h2d = std::strcmp(direction, "h2d") == 0, both = std::strcmp(direction, "bidirectional") == 0;
                    const Figure fig = time_rate([&] {
                        if (both) {
                            CHECK(cudaMemcpyAsync(dev, host_pinned, bytes, cudaMemcpyHostToDevice, s1));
                            CHECK(cudaMemcpyAsync(host_pinned2, dev2, bytes, cudaMemcpyDeviceToHost, s2));
                            CHECK(cudaStreamSynchronize(s1));
                            CHECK(cudaStreamSynchronize(s2));
                        } else if (h2d) {
                            CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, 0));
                        } else {
                            CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, 0));
                        }
                    }, (both ? 2.0 : 1.0) * static_cast<double>(bytes), reps, nvml);
                    if (fig.best > best.best) best = fig, best_bytes = bytes;
                }
                add_bus(direction, pinned, best_bytes, best);
            }
        }
        CHECK(cudaStreamDestroy(s1));
        CHECK(cudaStreamDestroy(s2));
        CHECK(cudaFreeHost(host_pinned));
        CHECK(cudaFreeHost(host_pinned2));
        CHECK(cudaFree(dev));
        CHECK(cudaFree(dev2));
    }
    CHECK(cudaFree(sink));

    const auto join = [](const std::vector<std::string>& items) {
        std::string out;
        for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ",\n      " : "\n      ") + items[i];
        return "[" + out + "\n    ]";
    };
    char head[1024];
    std::snprintf(head, sizeof head,
                  "{\n  \"schema\": \"roofline.gpubench/1\",\n  \"gpu\": {\n    \"index\": %d, \"name\": %s, "
                  "\"pci_bus_id\": \"%s\", \"compute_capability\": \"%d.%d\", \"sm_count\": %d,\n    "
                  "\"max_sm_clock_mhz\": %.6g, \"memory_clock_mhz\": %.6g, \"memory_bus_bits\": %d, "
                  "\"memory_bytes\": %zu, \"l2_bytes\": %d,\n    \"driver_version\": \"%d.%d\", "
                  "\"runtime_version\": \"%d.%d\",\n",
                  opt.device, json_string(prop.name).c_str(), pci, prop.major, prop.minor, sms,
                  nvml.clock_mhz(Nvml::kClockSm, true), nvml.clock_mhz(Nvml::kClockMem, true),
                  nvml.bus_bits() ? nvml.bus_bits() : prop.memoryBusWidth, prop.totalGlobalMem, prop.l2CacheSize,
                  driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    // The L2 read curve (working set bytes, GB/s), in the CPU curves' form; readers that do
    // not know `curves` or `self_check_failed` ignore them.
    std::vector<std::string> curves;
    if (!curve.empty())
        curves.push_back("{\"level\": \"L2\", \"pattern\": \"read\", \"blocks_per_sm\": " +
                         std::to_string(curve_blocks_per_sm) + ", \"chunk_bytes\": " + std::to_string(curve_chunk_bytes) +
                         ", \"points\": [" + curve + "]}");
    std::vector<std::string> failed_json;
    for (const auto& what : failed) failed_json.push_back(json_string(what));
    const std::string text = std::string(head) + "    \"compute\": " + join(compute) + ",\n    \"memory\": " +
                             join(memory) + ",\n    \"curves\": " + join(curves) + ",\n    \"l2_chunks_tried\": [" +
                             l2_trials + "],\n    \"bus\": " + join(bus) +
                             ",\n    \"self_check_failed\": " + join(failed_json) + "\n  }\n}\n";
    if (opt.output.empty() || opt.output == "-") {
        std::fputs(text.c_str(), stdout);
    } else {
        FILE* out = std::fopen(opt.output.c_str(), "w");
        if (!out || std::fputs(text.c_str(), out) < 0 || std::fclose(out) != 0) die(1, "cannot write " + opt.output);
    }
    if (!failed.empty()) {  // written for a look, but no figure of this run is to be believed
        for (const auto& what : failed) std::fprintf(stderr, "roofline-gpubench: kernel self-check failed: %s\n", what.c_str());
        return 1;
    }
    return 0;
}
