// The STREAM kernels (copy, scale, add, triad; McCalpin), daxpy and ddot: one pass over one to
// three arrays of doubles. Plain loops, as a user would write them; ddot as BLAS writes it.
#include "bench/isa_support.hpp"
#include "bench/reference_family.hpp"

#include <fmt/core.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

void k_copy(const double* a, double* c, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) c[i] = a[i];
}
void k_scale(double* b, const double* c, double s, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) b[i] = s * c[i];
}
void k_add(const double* a, const double* b, double* c, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
void k_triad(double* a, const double* b, const double* c, double s, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
void k_daxpy(double a, const double* x, double* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
// A dot product as BLAS writes one: four vector partial sums. Written `s += x[i] * y[i]`, the
// compiler may not reorder the float sum (no -ffast-math here), so every element waits for the
// previous add: a latency-bound chain of about one element per 3-4 cycles, 1.7 GFLOP/s on a
// Zen 3 core, far under any memory roof; ddot and mvm_row are meant to show memory limits (the
// chain's own ceiling is what sum_sp_scalar shows). Compiled for AVX2+FMA and the baseline.
__attribute__((always_inline)) inline double dot_blocked(const double* x, const double* y, std::int64_t n) {
    v4df s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 += load4(x + i) * load4(y + i);
        s1 += load4(x + i + 4) * load4(y + i + 4);
        s2 += load4(x + i + 8) * load4(y + i + 8);
        s3 += load4(x + i + 12) * load4(y + i + 12);
    }
    double s = lanes_sum((s0 + s1) + (s2 + s3));
    for (; i < n; ++i) s += x[i] * y[i];
    return s;
}
// The AVX2 code where isa_supported allows it: ROOFLINE_MAX_ISA caps it as it caps bench's
// kernels (GCC's target_clones would choose by the CPU alone).
__attribute__((target("avx2,fma"))) double k_dot_avx2(const double* x, const double* y, std::int64_t n) {
    return dot_blocked(x, y, n);
}
double k_dot_base(const double* x, const double* y, std::int64_t n) { return dot_blocked(x, y, n); }
double k_dot(const double* x, const double* y, std::int64_t n) {
    static const bool avx2 = isa_supported(Isa::avx2);
    return avx2 ? k_dot_avx2(x, y, n) : k_dot_base(x, y, n);
}

// The kernel is chosen once, at construction: call() is timed, down to sub-microsecond calls.
enum class StreamOp { copy, scale, add, triad, daxpy, dot };

class Streams : public ReferenceInstance {
public:
    Streams(StreamOp op, std::int64_t n)
        : op_(op), n_(n), a_(alloc<double>(n, 1.0)), b_(alloc<double>(n, 2.0)),
          c_(alloc<double>(n, 0.5)) {}
    void call() override {
        switch (op_) {
        case StreamOp::copy: return k_copy(a_.get(), c_.get(), n_);
        case StreamOp::scale: return k_scale(b_.get(), c_.get(), 3.0, n_);
        case StreamOp::add: return k_add(a_.get(), b_.get(), c_.get(), n_);
        case StreamOp::triad: return k_triad(a_.get(), b_.get(), c_.get(), 3.0, n_);
        case StreamOp::daxpy: return k_daxpy(alpha_, a_.get(), b_.get(), n_);
        case StreamOp::dot: result_ = k_dot(a_.get(), b_.get(), n_); return;
        }
    }
    std::string check(std::int64_t calls) override {
        // (array, its name, the value every element must hold)
        const double* a = a_.get();
        const double* b = b_.get();
        const double* c = c_.get();
        auto all = [&](const char* what, const double* x, double want) {
            return check_elements(n_, [&](std::int64_t i) { return expect_at(what, i, x[i], want); });
        };
        switch (op_) {
        case StreamOp::copy: return all("c", c, 1.0);
        case StreamOp::scale: return all("b", b, 1.5);
        case StreamOp::add: return all("c", c, 3.0);
        case StreamOp::triad: return all("a", a, 3.5);
        case StreamOp::daxpy: return all("y", b, 2.0 + 0.5 * double(calls));  // y = 2 + calls x 0.5 x 1
        case StreamOp::dot: break;
        }
        const double want = 2.0 * double(n_);
        return result_ == want ? "" : fmt::format("x . y = {} where {} was expected", double(result_), want);
    }

private:
    StreamOp op_;
    std::int64_t n_;
    Array<double> a_, b_, c_;
    volatile double result_ = 0;  // a reduction's result: kept, so the loop is not optimized away
    double alpha_ = 0.5;          // daxpy's a, not a constant the compiler could fold (1.0 x would vanish)
};

template <StreamOp Op>
std::unique_ptr<ReferenceInstance> make_stream(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    return std::make_unique<Streams>(Op, n);
}

} // namespace

void append_stream_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::stream_copy, make_stream<StreamOp::copy>});
    out.push_back({ReferenceKernelId::stream_scale, make_stream<StreamOp::scale>});
    out.push_back({ReferenceKernelId::stream_add, make_stream<StreamOp::add>});
    out.push_back({ReferenceKernelId::stream_triad, make_stream<StreamOp::triad>});
    out.push_back({ReferenceKernelId::daxpy, make_stream<StreamOp::daxpy>});
    out.push_back({ReferenceKernelId::ddot, make_stream<StreamOp::dot>});
}

} // namespace roofline
