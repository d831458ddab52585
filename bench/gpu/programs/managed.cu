// Unified memory with known migrations: 64 MiB of managed floats written on the host, updated
// by one kernel on the device (a = 2 a + 1: the pages migrate host to device), then summed on
// the host (they migrate back): about 64 MiB each way, N FMAs (2 N FLOP fp32). A small size on
// purpose: managed memory past the device's free memory can hang a GPU.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)

__global__ void update(float* a, size_t n) {
    for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
        a[i] = 2.0f * a[i] + 1.0f;
}

int main() {
    const size_t n = size_t{16} << 20;  // 64 MiB
    float* a; CHECK(cudaMallocManaged(&a, n * sizeof(float)));
    for (size_t i = 0; i < n; ++i) a[i] = float(i % 100);
    update<<<1024, 256>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double sum = 0, want = 0;
    for (size_t i = 0; i < n; ++i) sum += a[i], want += 2.0 * float(i % 100) + 1.0;
    std::printf("managed: %zu bytes each way, 2n = %.6g FLOP, sum %s\n", n * sizeof(float), 2.0 * n, sum == want ? "right" : "WRONG");
    CHECK(cudaFree(a));
    return sum == want ? 0 : 1;
}
