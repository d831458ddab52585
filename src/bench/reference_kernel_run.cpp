#include "bench/reference_kernel_run.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace roofline {
namespace {

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};

template <typename T>
using Array = std::unique_ptr<T[], FreeDeleter>;

template <typename T>
Array<T> allocate(std::int64_t n, T value) {
    const std::size_t bytes = ((static_cast<std::size_t>(n) * sizeof(T) + 63) / 64) * 64;
    auto* p = static_cast<T*>(std::aligned_alloc(64, bytes));
    if (!p) throw std::bad_alloc();
    for (std::int64_t i = 0; i < n; ++i) p[i] = value;
    return Array<T>(p);
}

volatile double sink;  // results that must not be optimized away

// --- the kernels: plain loops, as a user would write them ------------------------

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
double k_dot(const double* x, const double* y, std::int64_t n) {
    double s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += x[i] * y[i];
    return s;
}
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
void k_jacobi2d(const double* a, double* b, std::int64_t n) {
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j)
            b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
}

// --- one kernel's data, call and check -------------------------------------------

// Values chosen so that every result is exact in floating point, whatever the order of
// the adds: the check is an equality.
class Instance {
public:
    virtual ~Instance() = default;
    virtual void call() = 0;
    // After `calls` calls: "" when the result is the one known on paper.
    virtual std::string check(std::int64_t calls) = 0;
};

std::string expect_at(const char* what, std::int64_t i, double got, double want) {
    return got == want ? "" : fmt::format("{}[{}] = {} where {} was expected", what, i, got, want);
}

// Checks a few elements spread over the array.
template <typename F>
std::string check_elements(std::int64_t n, F&& one) {
    for (const std::int64_t i : {std::int64_t{0}, n / 3, n / 2, n - 1}) {
        const auto e = one(i);
        if (!e.empty()) return e;
    }
    return "";
}

class Streams : public Instance {
public:
    Streams(const std::string& name, std::int64_t n)
        : name_(name), n_(n), a_(allocate<double>(n, 1.0)), b_(allocate<double>(n, 2.0)),
          c_(allocate<double>(n, 0.5)) {}
    void call() override {
        if (name_ == "stream_copy") k_copy(a_.get(), c_.get(), n_);
        else if (name_ == "stream_scale") k_scale(b_.get(), c_.get(), 3.0, n_);
        else if (name_ == "stream_add") k_add(a_.get(), b_.get(), c_.get(), n_);
        else if (name_ == "stream_triad") k_triad(a_.get(), b_.get(), c_.get(), 3.0, n_);
        else if (name_ == "daxpy") k_daxpy(1.0, a_.get(), b_.get(), n_);
        else sink = k_dot(a_.get(), b_.get(), n_);
    }
    std::string check(std::int64_t calls) override {
        const double* a = a_.get();
        const double* b = b_.get();
        const double* c = c_.get();
        if (name_ == "stream_copy") return check_elements(n_, [&](std::int64_t i) { return expect_at("c", i, c[i], 1.0); });
        if (name_ == "stream_scale") return check_elements(n_, [&](std::int64_t i) { return expect_at("b", i, b[i], 1.5); });
        if (name_ == "stream_add") return check_elements(n_, [&](std::int64_t i) { return expect_at("c", i, c[i], 3.0); });
        if (name_ == "stream_triad") return check_elements(n_, [&](std::int64_t i) { return expect_at("a", i, a[i], 3.5); });
        if (name_ == "daxpy")  // y = 2 + calls x 1
            return check_elements(n_, [&](std::int64_t i) { return expect_at("y", i, b[i], 2.0 + double(calls)); });
        const double want = 2.0 * double(n_);
        return sink == want ? "" : fmt::format("x . y = {} where {} was expected", double(sink), want);
    }

private:
    std::string name_;
    std::int64_t n_;
    Array<double> a_, b_, c_;
};

class SumSp : public Instance {
public:
    // +1 in one block of 16, -1 in the next: every chain of every variant (stride 1, 4 or 16)
    // alternates, so each partial sum stays a small integer, exact at any n.
    SumSp(const std::string& name, std::int64_t n) : name_(name), n_(n), x_(allocate<float>(n, 1.0f)) {
        for (std::int64_t i = 0; i < n; ++i) x_[i] = (i >> 4) & 1 ? -1.0f : 1.0f;
    }
    void call() override {
        if (name_ == "sum_sp_scalar") sink = k_sum_scalar(x_.get(), n_);
        else if (name_ == "sum_sp_unrolled") sink = k_sum_unrolled(x_.get(), n_);
        else sink = k_sum_simd(x_.get(), n_);
    }
    std::string check(std::int64_t) override {
        const std::int64_t full = n_ / 32 * 32, rest = n_ - full;  // whole pairs of blocks add up to 0
        const double want = double(std::min<std::int64_t>(rest, 16) - std::max<std::int64_t>(rest - 16, 0));
        return sink == want ? "" : fmt::format("sum = {} where {} was expected", double(sink), want);
    }

private:
    std::string name_;
    std::int64_t n_;
    Array<float> x_;
};

class Jacobi : public Instance {
public:
    explicit Jacobi(std::int64_t n) : n_(n), a_(allocate<double>(n * n, 4.0)), b_(allocate<double>(n * n, 0.0)) {}
    void call() override { k_jacobi2d(a_.get(), b_.get(), n_); }
    std::string check(std::int64_t) override {
        const double* b = b_.get();
        const std::int64_t n = n_;
        return check_elements(n - 2, [&](std::int64_t k) {
            const std::int64_t i = 1 + k, j = 1 + (n - 3 - k);
            return expect_at("b", i * n + j, b[i * n + j], 4.0);
        });
    }

private:
    std::int64_t n_;
    Array<double> a_, b_;
};

std::unique_ptr<Instance> instance_of(const ReferenceKernel& k, std::int64_t n) {
    if (k.name.rfind("sum_sp", 0) == 0) return std::make_unique<SumSp>(k.name, n);
    if (k.name == "jacobi2d") {
        if (n < 3) throw std::invalid_argument("jacobi2d needs a grid of at least 3 x 3");
        return std::make_unique<Jacobi>(n);
    }
    return std::make_unique<Streams>(k.name, n);
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options) {
    if (n < 1) throw std::invalid_argument(fmt::format("{}: the size must be at least 1 (got {})", kernel.name, n));
    ReferenceRun run;
    run.n = n;
    run.counts = kernel.counts(n);
    auto inst = instance_of(kernel, n);
    std::int64_t calls = 0;
    // Warm-up, and how many calls make a sample long enough for the clock.
    std::int64_t per_sample = 1;
    for (;;) {
        const double t0 = now();
        for (std::int64_t c = 0; c < per_sample; ++c) inst->call();
        calls += per_sample;
        if (now() - t0 >= options.min_sample_seconds || per_sample >= (std::int64_t{1} << 40)) break;
        per_sample *= 2;
    }
    std::vector<double> per_call;
    for (int s = 0; s < std::max(1, options.samples); ++s) {
        const double t0 = now();
        for (std::int64_t c = 0; c < per_sample; ++c) inst->call();
        per_call.push_back((now() - t0) / static_cast<double>(per_sample));
        calls += per_sample;
    }
    std::sort(per_call.begin(), per_call.end());
    run.samples = static_cast<int>(per_call.size());
    run.calls_per_sample = per_sample;
    run.fastest = per_call.front();
    run.slowest = per_call.back();
    run.seconds = options.median ? per_call[per_call.size() / 2] : per_call.front();
    run.check_error = inst->check(calls);
    run.checked = run.check_error.empty();
    return run;
}

} // namespace roofline
