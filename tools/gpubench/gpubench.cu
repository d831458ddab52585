// roofline-gpubench: the measured roofs of one NVIDIA GPU (issue 13), written as JSON
// (schema roofline.gpubench/1: one object in the machine model's `gpus` format) for
// `roofline bench --gpu` to read. It needs only the CUDA toolkit, so it builds on a machine
// that has none of roofline's other dependencies; the driver's NVML (clocks while kernels
// run, the memory clock and bus width) is loaded at run time where it exists.
//
// What it measures, each figure the best of several timed repetitions (CUDA events):
//   compute: FMA chains of fp64, fp32, half2, bfloat162 on every SM; the tensor cores
//     through WMMA (fp16, bf16, tf32 with fp32 accumulation; fp64); LOP3 and POPC for work
//     that is not FLOPs;
//   memory: DRAM read, copy and triad over arrays far larger than L2; L2 reads of a working
//     set half its size; shared-memory (L1) reads; each at several blocks per SM;
//   bus: host-to-device, device-to-host and both at once, pinned and pageable, sizes up to
//     --bus-bytes (256 MiB), copy engines through cudaMemcpyAsync.
// Theoretical figures are not computed here: roofline's table of per-clock rates does that
// (core/gpu_specs), so the spec lives in one place.
//
// Exit: 0 written; 77 no CUDA device (or no driver); 2 bad arguments; 1 a CUDA error.
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
constexpr int kChains = 8;  // independent FMA chains a thread keeps in flight

template <typename T>
__device__ __forceinline__ T fma_of(T a, T b, T c) { return a * b + c; }
template <>
__device__ __forceinline__ __half2 fma_of(__half2 a, __half2 b, __half2 c) { return __hfma2(a, b, c); }
template <>
__device__ __forceinline__ __nv_bfloat162 fma_of(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
    return __hfma2(a, b, c);
}

// Every thread: kChains chains of `iters` dependent FMAs. `m` and `a` come from the host so
// nothing folds; the sum is written only when it takes a value it never takes, so nothing is
// dropped either.
template <typename T>
__global__ void fma_chains(T m, T a, int iters, T* sink) {
    T acc[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) acc[c] = a;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) acc[c] = fma_of(acc[c], m, a);
    }
    T s = acc[0];
#pragma unroll
    for (int c = 1; c < kChains; ++c) s = fma_of(s, m, acc[c]);
    if (iters < 0) sink[threadIdx.x] = s;
}

__global__ void lop3_chains(unsigned y, unsigned z, int iters, unsigned* sink) {
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
    if (s == 0x12345678u && iters < 0) sink[threadIdx.x] = s;
}

// POPC chains: x = popc(x) ^ y, one population count and one LOP a step; the POPC rate is
// a quarter of the LOP rate on every architecture in the table, so the POPC counts bind.
__global__ void popc_chains(unsigned y, int iters, unsigned* sink) {
    unsigned x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = threadIdx.x * 2654435761u + c;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = static_cast<unsigned>(__popc(x[c])) ^ (y + x[c]);
    }
    unsigned s = 0;
#pragma unroll
    for (int c = 0; c < kChains; ++c) s ^= x[c];
    if (s == 0x12345678u && iters < 0) sink[threadIdx.x] = s;
}

// Tensor cores through WMMA: every warp keeps 4 accumulator tiles and multiplies the same A
// and B fragments into them `iters` times (2 M N K FLOP an mma per warp).
using namespace nvcuda;
constexpr int kTiles = 4;

template <typename In, typename Acc, int M, int N, int K, typename Fill>
__device__ void mma_loop(int iters, Acc* sink, Fill one) {
    wmma::fragment<wmma::matrix_a, M, N, K, In, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, M, N, K, In, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> c[kTiles];
    for (int t = 0; t < a.num_elements; ++t) a.x[t] = one;
    for (int t = 0; t < b.num_elements; ++t) b.x[t] = one;
#pragma unroll
    for (int j = 0; j < kTiles; ++j) wmma::fill_fragment(c[j], Acc(0));
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < kTiles; ++j) wmma::mma_sync(c[j], a, b, c[j]);
    }
    if (iters < 0) wmma::store_matrix_sync(sink, c[0], N, wmma::mem_row_major);
}

__global__ void mma_fp16(int iters, float* sink) { mma_loop<__half, float, 16, 16, 16>(iters, sink, __float2half(1.0f)); }
__global__ void mma_bf16(int iters, float* sink) {
    mma_loop<__nv_bfloat16, float, 16, 16, 16>(iters, sink, __float2bfloat16(1.0f));
}
__global__ void mma_tf32(int iters, float* sink) {
    mma_loop<wmma::precision::tf32, float, 16, 16, 8>(iters, sink, wmma::__float_to_tf32(1.0f));
}
__global__ void mma_fp64(int iters, double* sink) { mma_loop<double, double, 8, 8, 4>(iters, sink, 1.0); }

// ------------------------------------------------------------------ memory kernels
__global__ void read_kernel(const float4* in, std::size_t n, int reps, float* sink) {
    float4 s = make_float4(0, 0, 0, 0);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (int r = 0; r < reps; ++r)
        for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
            const float4 v = in[i];
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
    if (s.x + s.y + s.z + s.w == -1.0f) sink[threadIdx.x] = s.x;
}

__global__ void copy_kernel(const float4* in, float4* out, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

__global__ void triad_kernel(float4* a, const float4* b, const float4* c, float s, std::size_t n) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) {
        const float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}

// Shared memory: every thread reads 16 bytes a step from a 32 KiB block-local array, at
// addresses that differ per step so nothing is hoisted, without bank conflicts.
constexpr int kSharedFloat4 = 2048;
__global__ void shared_read_kernel(int iters, float* sink) {
    __shared__ float4 buf[kSharedFloat4];
    for (int i = threadIdx.x; i < kSharedFloat4; i += blockDim.x) buf[i] = make_float4(i, i, i, i);
    __syncthreads();
    float4 s = make_float4(0, 0, 0, 0);
    unsigned idx = threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        const float4 v = buf[idx & (kSharedFloat4 - 1)];
        s.x += v.x;
        s.y += v.y;
        s.z += v.z;
        s.w += v.w;
        idx += blockDim.x;
    }
    if (s.x + s.y + s.z + s.w == -1.0f) sink[threadIdx.x] = s.x;
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
        else if (a == "--help" || a == "-h") {
            std::printf("usage: roofline-gpubench [--device N] [--quick] [--bus-bytes B] [-o FILE]\n"
                        "       roofline-gpubench --probe [--device N]\n"
                        "Measures one GPU's roofs and writes them as JSON (roofline.gpubench/1) for "
                        "'roofline bench --gpu'. --probe only says which device N is (exit 77: none).\n");
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
    progress("compute roofs");
    void* sink = nullptr;
    CHECK(cudaMalloc(&sink, 1 << 20));
    const int threads = 256, blocks = sms * 8;
    const double lanes = static_cast<double>(blocks) * threads;
    const auto add_compute = [&](const char* name, const char* precision, const char* unit, bool tensor, Figure f) {
        char text[512];
        std::snprintf(text, sizeof text,
                      "{\"name\": %s, \"precision\": \"%s\", \"work_unit\": \"%s\", \"tensor\": %s, \"gflops\": %.6g, "
                      "\"clock_mhz\": %.6g, \"stats\": %s}",
                      json_string(name).c_str(), precision, unit, tensor ? "true" : "false", f.best, f.clock_mhz,
                      stats_json(f).c_str());
        compute.push_back(text);
    };
    const int iters = opt.quick ? 4096 : 16384;
    add_compute("fp64 fma", "fp64", "FLOP", false, time_rate([&] {
        fma_chains<double><<<blocks, threads>>>(1.0000001, 1e-9, iters, static_cast<double*>(sink));
    }, 2.0 * kChains * iters * lanes, reps, nvml));
    add_compute("fp32 fma", "fp32", "FLOP", false, time_rate([&] {
        fma_chains<float><<<blocks, threads>>>(1.0000001f, 1e-9f, iters, static_cast<float*>(sink));
    }, 2.0 * kChains * iters * lanes, reps, nvml));
    add_compute("fp16 fma (half2)", "fp16", "FLOP", false, time_rate([&] {
        fma_chains<__half2><<<blocks, threads>>>(__float2half2_rn(1.0f), __float2half2_rn(1e-3f), iters,
                                                 static_cast<__half2*>(sink));
    }, 4.0 * kChains * iters * lanes, reps, nvml));
    add_compute("bf16 fma (bfloat162)", "bf16", "FLOP", false, time_rate([&] {
        fma_chains<__nv_bfloat162><<<blocks, threads>>>(__float2bfloat162_rn(1.0f), __float2bfloat162_rn(1e-3f),
                                                        iters, static_cast<__nv_bfloat162*>(sink));
    }, 4.0 * kChains * iters * lanes, reps, nvml));
    add_compute("lop3", "lop3", "OP", false, time_rate([&] {
        lop3_chains<<<blocks, threads>>>(0x0f0f0f0fu, 0x33333333u, iters, static_cast<unsigned*>(sink));
    }, 1.0 * kChains * iters * lanes, reps, nvml));
    add_compute("popc", "popc", "OP", false, time_rate([&] {
        popc_chains<<<blocks, threads>>>(0x9e3779b9u, iters / 4, static_cast<unsigned*>(sink));
    }, 1.0 * kChains * (iters / 4) * lanes, reps, nvml));
    const double warps = static_cast<double>(blocks) * threads / 32;
    const int mma_iters = opt.quick ? 1024 : 4096;
    add_compute("fp16 tensor (wmma, fp32 accumulate)", "fp16", "FLOP", true, time_rate([&] {
        mma_fp16<<<blocks, threads>>>(mma_iters, static_cast<float*>(sink));
    }, 2.0 * 16 * 16 * 16 * kTiles * mma_iters * warps, reps, nvml));
    add_compute("bf16 tensor (wmma, fp32 accumulate)", "bf16", "FLOP", true, time_rate([&] {
        mma_bf16<<<blocks, threads>>>(mma_iters, static_cast<float*>(sink));
    }, 2.0 * 16 * 16 * 16 * kTiles * mma_iters * warps, reps, nvml));
    add_compute("tf32 tensor (wmma)", "tf32", "FLOP", true, time_rate([&] {
        mma_tf32<<<blocks, threads>>>(mma_iters, static_cast<float*>(sink));
    }, 2.0 * 16 * 16 * 8 * kTiles * mma_iters * warps, reps, nvml));
    add_compute("fp64 tensor (wmma)", "fp64", "FLOP", true, time_rate([&] {
        mma_fp64<<<blocks, threads>>>(mma_iters / 4, static_cast<double*>(sink));
    }, 2.0 * 8 * 8 * 4 * kTiles * (mma_iters / 4) * warps, reps, nvml));

    // Memory: DRAM over arrays of at least 8x L2 (and 256 MiB), L2 at half its size, shared memory.
    progress("memory roofs");
    const std::size_t l2 = static_cast<std::size_t>(std::max(prop.l2CacheSize, 1 << 20));
    const std::size_t big = std::min<std::size_t>(std::max<std::size_t>(8 * l2, std::size_t{256} << 20),
                                                  prop.totalGlobalMem / 8);
    float4 *a = nullptr, *b = nullptr, *c = nullptr;
    CHECK(cudaMalloc(&a, big));
    CHECK(cudaMalloc(&b, big));
    CHECK(cudaMalloc(&c, big));
    CHECK(cudaMemset(a, 0, big));
    CHECK(cudaMemset(b, 0, big));
    CHECK(cudaMemset(c, 0, big));
    const std::size_t n = big / sizeof(float4);
    const auto add_memory = [&](const char* level, const char* pattern, std::size_t ws, int per_sm, Figure f) {
        char text[384];
        std::snprintf(text, sizeof text,
                      "{\"level\": \"%s\", \"pattern\": \"%s\", \"gbs\": %.6g, \"working_set_bytes\": %zu, "
                      "\"blocks_per_sm\": %d, \"stats\": %s}",
                      level, pattern, f.best, ws, per_sm, stats_json(f).c_str());
        memory.push_back(text);
    };
    // Occupancy swept: the best blocks per SM for each kernel.
    const auto best_over_occupancy = [&](auto measure, int& chosen) {
        Figure best;
        for (const int per_sm : {1, 2, 4, 8, 16}) {
            const Figure f = measure(per_sm);
            if (f.best > best.best) best = f, chosen = per_sm;
        }
        return best;
    };
    int chosen = 0;
    Figure f = best_over_occupancy([&](int per_sm) {
        return time_rate([&] { read_kernel<<<sms * per_sm, 256>>>(a, n, 1, static_cast<float*>(sink)); },
                         static_cast<double>(big), reps, nvml);
    }, chosen);
    add_memory("DRAM", "read", big, chosen, f);
    f = best_over_occupancy([&](int per_sm) {
        return time_rate([&] { copy_kernel<<<sms * per_sm, 256>>>(b, a, n); }, 2.0 * big, reps, nvml);
    }, chosen);
    add_memory("DRAM", "copy", 2 * big, chosen, f);
    f = best_over_occupancy([&](int per_sm) {
        return time_rate([&] { triad_kernel<<<sms * per_sm, 256>>>(a, b, c, 3.0f, n); }, 3.0 * big, reps, nvml);
    }, chosen);
    add_memory("DRAM", "triad", 3 * big, chosen, f);
    const std::size_t l2_set = l2 / 2, l2_n = l2_set / sizeof(float4);
    const int l2_reps = static_cast<int>(std::max<std::size_t>(1, (std::size_t{4} << 30) / l2_set));
    f = best_over_occupancy([&](int per_sm) {
        return time_rate([&] { read_kernel<<<sms * per_sm, 256>>>(a, l2_n, l2_reps, static_cast<float*>(sink)); },
                         static_cast<double>(l2_set) * l2_reps, reps, nvml);
    }, chosen);
    add_memory("L2", "read", l2_set, chosen, f);
    const int shared_iters = opt.quick ? 8192 : 32768;
    f = best_over_occupancy([&](int per_sm) {
        return time_rate([&] { shared_read_kernel<<<sms * per_sm, 256>>>(shared_iters, static_cast<float*>(sink)); },
                         16.0 * shared_iters * 256 * sms * per_sm, reps, nvml);
    }, chosen);
    add_memory("L1", "read", kSharedFloat4 * sizeof(float4), chosen, f);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));

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
    const std::string text = std::string(head) + "    \"compute\": " + join(compute) + ",\n    \"memory\": " +
                             join(memory) + ",\n    \"bus\": " + join(bus) + "\n  }\n}\n";
    if (opt.output.empty() || opt.output == "-") {
        std::fputs(text.c_str(), stdout);
    } else {
        FILE* out = std::fopen(opt.output.c_str(), "w");
        if (!out || std::fputs(text.c_str(), out) < 0 || std::fclose(out) != 0) die(1, "cannot write " + opt.output);
    }
    return 0;
}
