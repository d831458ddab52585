// A triad with copies both ways, its counts known in closed form (bench/gpu/device-check.sh):
//   bus: host to device 2 N floats (b, c), device to host N floats (a);
//   kernel triad: a = b + s c, N FMAs = 2 N FLOP (fp32), DRAM 3 N floats (b, c read; a written).
// N = 2^26: 256 MiB an array, far past any GPU's L2. Exits 1 if the result is wrong.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

__global__ void triad(float* a, const float* b, const float* c, float s, size_t n) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
        a[i] = b[i] + s * c[i];
}

int main() {
    const size_t n = size_t{1} << 26;
    std::vector<float> hb(n), hc(n), ha(n);
    for (size_t i = 0; i < n; ++i) hb[i] = float(i % 1024), hc[i] = float(i % 7);
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4)); CHECK(cudaMalloc(&c, n * 4));
    CHECK(cudaMemcpy(b, hb.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(c, hc.data(), n * 4, cudaMemcpyHostToDevice));
    int sms = 0; CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    triad<<<sms * 8, 256>>>(a, b, c, 3.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(ha.data(), a, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i)
        if (ha[i] != hb[i] + 3.0f * hc[i]) { std::fprintf(stderr, "triad wrong at %zu\n", i); return 1; }
    std::printf("triad_copies: n = %zu: 2n = %.6g FLOP, DRAM 12n = %.6g B, h2d 8n = %.6g B, d2h 4n = %.6g B\n", n,
                2.0 * n, 12.0 * n, 8.0 * n, 4.0 * n);
    return 0;
}
