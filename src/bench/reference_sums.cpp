// Single-precision sums under three ceilings: one dependent chain (the add's latency), four
// scalar chains (the scalar add's throughput), four SIMD vectors (the vector add's throughput).
#include "bench/reference_family.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

// Without -ffast-math the compiler may not reorder a float sum: one chain of dependent adds.
float k_sum_scalar(const float* x, std::int64_t n) {
    float s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += x[i];
    return s;
}
// Four chains; kept scalar (the compiler would otherwise pack the four into one vector).
__attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize"))) float k_sum_unrolled(const float* x,
                                                                                              std::int64_t n) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i];
        s1 += x[i + 1];
        s2 += x[i + 2];
        s3 += x[i + 3];
    }
    for (; i < n; ++i) s0 += x[i];
    return (s0 + s1) + (s2 + s3);
}
typedef float v4sf __attribute__((vector_size(16)));
float k_sum_simd(const float* x, std::int64_t n) {
    v4sf v0 = {0, 0, 0, 0}, v1 = v0, v2 = v0, v3 = v0;
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {  // x is 64-byte aligned
        v0 += *reinterpret_cast<const v4sf*>(x + i);
        v1 += *reinterpret_cast<const v4sf*>(x + i + 4);
        v2 += *reinterpret_cast<const v4sf*>(x + i + 8);
        v3 += *reinterpret_cast<const v4sf*>(x + i + 12);
    }
    const v4sf v = (v0 + v1) + (v2 + v3);
    float s = (v[0] + v[1]) + (v[2] + v[3]);
    for (; i < n; ++i) s += x[i];
    return s;
}

class SumSp : public ReferenceInstance {
public:
    // +1 in one block of 16, -1 in the next: every chain of every variant (stride 1, 4 or 16)
    // alternates, so each partial sum stays a small integer, exact at any n.
    SumSp(float (*sum)(const float*, std::int64_t), std::int64_t n)
        : sum_(sum), n_(n), x_(alloc<float>(n, 1.0f)) {
        for (std::int64_t i = 0; i < n; ++i) x_[i] = (i >> 4) & 1 ? -1.0f : 1.0f;
    }
    void call() override { result_ = sum_(x_.get(), n_); }
    std::string check(std::int64_t) override {
        const std::int64_t full = n_ / 32 * 32, rest = n_ - full;  // whole pairs of blocks add up to 0
        const double want = double(std::min<std::int64_t>(rest, 16) - std::max<std::int64_t>(rest - 16, 0));
        return result_ == want ? "" : fmt::format("sum = {} where {} was expected", double(result_), want);
    }

private:
    float (*sum_)(const float*, std::int64_t);
    std::int64_t n_;
    Array<float> x_;
    volatile double result_ = 0;
};

template <float (*Sum)(const float*, std::int64_t)>
std::unique_ptr<ReferenceInstance> make_sum(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    return std::make_unique<SumSp>(Sum, n);
}

} // namespace

void append_sum_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::sum_sp_scalar, make_sum<k_sum_scalar>});
    out.push_back({ReferenceKernelId::sum_sp_unrolled, make_sum<k_sum_unrolled>});
    out.push_back({ReferenceKernelId::sum_sp_simd, make_sum<k_sum_simd>});
}

} // namespace roofline
