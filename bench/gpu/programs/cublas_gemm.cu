// cuBLAS matrix products of every precision the tensor cores take, n = 4096, each run once
// (no warm-up: under ncu every launch is a kernel point), 2 n^3 FLOP each:
// DGEMM (fp64: DMMA on Hopper), SGEMM (fp32: FFMA), SGEMM in TF32 tensor math, HGEMM-like
// GemmEx fp16 in/out with fp32 compute, and bf16. Inputs are small integers (exact in every
// type); C[0] is checked against n * a * b on the host for each.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); std::exit(1); } } while (0)
#define CUBLAS(x) do { cublasStatus_t s = (x); if (s != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "%s: status %d\n", #x, int(s)); std::exit(1); } } while (0)

constexpr int n = 4096;

template <typename T>
T* filled(float value) {
    std::vector<T> h(size_t{n} * n, T(value));
    T* d; CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
bool first_is(const char* name, const T* c, double want) {
    T h; CHECK(cudaMemcpy(&h, c, sizeof(T), cudaMemcpyDeviceToHost));
    const double got = double(float(h));
    std::printf("%s: C[0] = %g (want %g), 2n^3 = %.6g FLOP\n", name, got, want, 2.0 * n * n * n);
    return got == want;
}

int main() {
    cublasHandle_t h; CUBLAS(cublasCreate(&h));
    bool ok = true;
    {   // fp64: 1 * 1 summed n times
        double *a = filled<double>(1), *b = filled<double>(1), *c = filled<double>(0);
        const double one = 1, zero = 0;
        CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
        ok &= first_is("DGEMM", c, n);
        cudaFree(a); cudaFree(b); cudaFree(c);
    }
    {   // fp32, then the same in TF32 tensor math
        float *a = filled<float>(1), *b = filled<float>(1), *c = filled<float>(0);
        const float one = 1, zero = 0;
        CUBLAS(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
        CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
        ok &= first_is("SGEMM", c, n);
        CUBLAS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
        CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
        ok &= first_is("SGEMM TF32", c, n);
        CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
        cudaFree(a); cudaFree(b); cudaFree(c);
    }
    {   // fp16 in, fp32 compute, fp32 out (values up to n: fp16 holds 4096 exactly, fp32 too)
        __half *a = filled<__half>(1), *b = filled<__half>(1);
        float* c = filled<float>(0);
        const float one = 1, zero = 0;
        CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &zero, c,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        ok &= first_is("HGEMM (fp16 in, fp32 accumulate)", c, n);
        cudaFree(a); cudaFree(b);
        __nv_bfloat16 *ab = filled<__nv_bfloat16>(1), *bb = filled<__nv_bfloat16>(1);
        CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ab, CUDA_R_16BF, n, bb, CUDA_R_16BF, n, &zero, c,
                            CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        ok &= first_is("BF16 GEMM (fp32 accumulate)", c, n);
        cudaFree(ab); cudaFree(bb); cudaFree(c);
    }
    CHECK(cudaDeviceSynchronize());
    cublasDestroy(h);
    return ok ? 0 : 1;
}
