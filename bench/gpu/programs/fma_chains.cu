// FMA chains of fp32 and fp64 with counts known in closed form: every thread runs kChains
// independent chains of `iters` dependent FMAs, x = x * 1 + 1, so each chain ends at its start
// plus iters (exact in both precisions), stored unconditionally and checked on the host.
// FLOPs a kernel: 2 * kChains * iters * threads (1024 blocks of 256 threads).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

constexpr int kChains = 8, kIters = 4096, kBlocks = 1024, kThreads = 256;

template <typename T>
__global__ void chains(T m, T a, int iters, T* out) {
    T x[kChains];
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = T(c);
#pragma unroll 4
    for (int i = 0; i < iters; ++i)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = x[c] * m + a;
    T s = 0;
#pragma unroll
    for (int c = 0; c < kChains; ++c) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename T>
bool run(const char* name) {
    const size_t lanes = size_t{kBlocks} * kThreads;
    T* out; CHECK(cudaMalloc(&out, lanes * sizeof(T)));
    chains<T><<<kBlocks, kThreads>>>(T(1), T(1), kIters, out);
    CHECK(cudaGetLastError());
    std::vector<T> h(lanes);
    CHECK(cudaMemcpy(h.data(), out, lanes * sizeof(T), cudaMemcpyDeviceToHost));
    const T want = T(kChains) * T(kIters) + T(kChains * (kChains - 1) / 2);
    for (size_t i = 0; i < lanes; ++i)
        if (h[i] != want) { std::fprintf(stderr, "%s wrong at %zu: %g != %g\n", name, i, double(h[i]), double(want)); return false; }
    std::printf("%s: %.6g FLOP\n", name, 2.0 * kChains * kIters * lanes);
    CHECK(cudaFree(out));
    return true;
}

int main() { return run<float>("fp32 chains") && run<double>("fp64 chains") ? 0 : 1; }
