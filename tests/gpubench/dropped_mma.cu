// A fixture for ptx_check.py's own test (issue 32): the tensor and L2 read kernels as
// roofline-gpubench had them before, which the checker must refuse. The accumulators are
// stored only when iters < 0, so the compiler drops the tiles nothing observes (and unrolls
// what is left), and the reads go through L1. Never built into anything.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstddef>

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
