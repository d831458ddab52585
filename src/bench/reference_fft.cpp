// FFTW's out-of-place forward 3-D complex DFT (an FFTW_ESTIMATE plan), checked on a constant
// input: all of it lands in the first bin.
#include "bench/reference_family.hpp"

#include <fftw3.h>
#include <fmt/core.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

// The planner is not thread-safe (FFTW's manual): plans are made and destroyed one at a time.
std::mutex& fftw_planner() {
    static std::mutex m;
    return m;
}

class Fft3d : public ReferenceInstance {
public:
    explicit Fft3d(std::int64_t n) : n_(n), N_(n * n * n) {
        in_ = alloc<double>(2 * N_, 0.0);
        out_ = alloc<double>(2 * N_, 0.0);
        for (std::int64_t i = 0; i < N_; ++i) in_[2 * i] = 1.0;  // a constant: all of it goes to the first bin
        const std::lock_guard<std::mutex> lock(fftw_planner());
        const int d = static_cast<int>(n);
        plan_ = fftw_plan_dft_3d(d, d, d, reinterpret_cast<fftw_complex*>(in_.get()),
                                 reinterpret_cast<fftw_complex*>(out_.get()), FFTW_FORWARD, FFTW_ESTIMATE);
        if (!plan_) throw std::runtime_error(fmt::format("fft3d: FFTW made no plan for {}^3 points", n));
    }
    ~Fft3d() override {
        const std::lock_guard<std::mutex> lock(fftw_planner());
        fftw_destroy_plan(plan_);
    }
    void call() override { fftw_execute(plan_); }
    std::string check(std::int64_t) override {
        const double* o = out_.get();
        const double N = static_cast<double>(N_);
        if (std::fabs(o[0] - N) > 1e-9 * N || std::fabs(o[1]) > 1e-9 * N)
            return fmt::format("X[0] = {} + {}i where {} was expected", o[0], o[1], N);
        return check_elements(N_ - 1, [&](std::int64_t k) {
            const double re = o[2 * (k + 1)], im = o[2 * (k + 1) + 1];
            return std::fabs(re) + std::fabs(im) <= 1e-9 * N ? std::string{}
                                                             : fmt::format("X[{}] = {} + {}i where 0 was expected",
                                                                           k + 1, re, im);
        });
    }
private:
    std::int64_t n_, N_;
    Array<double> in_, out_;
    fftw_plan plan_ = nullptr;
};

std::unique_ptr<ReferenceInstance> make_fft3d(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    if (n < 2 || n > 2048) throw std::invalid_argument(fmt::format("fft3d: n = {} (2 to 2048)", n));
    return std::make_unique<Fft3d>(n);
}

} // namespace

void append_fft_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::fft3d, make_fft3d});
}

} // namespace roofline
