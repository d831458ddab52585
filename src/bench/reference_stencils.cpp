// Stencils on regular grids: the 2-D 5-point Jacobi, the 3-D 7-point stencil and a D3Q19
// lattice-Boltzmann step (BGK, pull streaming). Each checks interior points along a diagonal.
#include "bench/reference_family.hpp"

#include <fmt/core.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

void k_jacobi2d(const double* a, double* b, std::int64_t n) {
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j)
            b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
}
void k_stencil3d(const double* a, double* b, std::int64_t n, double c0, double c1) {
    const std::int64_t p = n * n;
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j)
            for (std::int64_t k = 1; k + 1 < n; ++k) {
                const std::int64_t c = i * p + j * n + k;
                b[c] = c0 * a[c] + c1 * (a[c - 1] + a[c + 1] + a[c - n] + a[c + n] + a[c - p] + a[c + p]);
            }
}

// D3Q19: the rest velocity, the 6 faces, the 12 edges; weights 1/3, 1/18, 1/36.
constexpr int kQ = 19;
constexpr int kCx[kQ] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
constexpr int kCy[kQ] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
constexpr int kCz[kQ] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
constexpr double kW[kQ] = {1.0 / 3,  1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18, 1.0 / 18,
                           1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36,
                           1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};

// src and dst: 19 arrays of n^3 cells each (population q of cell c at q * n^3 + c).
void k_lbm(const double* src, double* dst, std::int64_t n, double omega) {
    const std::int64_t cells = n * n * n;
    std::int64_t offset[kQ];
    for (int q = 0; q < kQ; ++q) offset[q] = q * cells - (kCz[q] * n * n + kCy[q] * n + kCx[q]);
    for (std::int64_t z = 1; z + 1 < n; ++z)
        for (std::int64_t y = 1; y + 1 < n; ++y)
            for (std::int64_t x = 1; x + 1 < n; ++x) {
                const std::int64_t c = (z * n + y) * n + x;
                double f[kQ];
                for (int q = 0; q < kQ; ++q) f[q] = src[offset[q] + c];  // pull from the upstream neighbour
                double rho = f[0];
                for (int q = 1; q < kQ; ++q) rho += f[q];
                const double jx = f[1] - f[2] + f[7] - f[8] + f[9] - f[10] + f[11] - f[12] + f[13] - f[14];
                const double jy = f[3] - f[4] + f[7] - f[8] - f[9] + f[10] + f[15] - f[16] + f[17] - f[18];
                const double jz = f[5] - f[6] + f[11] - f[12] - f[13] + f[14] + f[15] - f[16] - f[17] + f[18];
                const double inv = 1.0 / rho;
                const double ux = jx * inv, uy = jy * inv, uz = jz * inv;
                const double t = 1.0 - 1.5 * (ux * ux + uy * uy + uz * uz);
                const double cu[kQ] = {0,        ux,       -ux,      uy,       -uy,      uz,      -uz,
                                       ux + uy,  -ux - uy, ux - uy,  -ux + uy, ux + uz, -ux - uz, ux - uz,
                                       -ux + uz, uy + uz,  -uy - uz, uy - uz,  -uy + uz};
                // w rho once per weight: the rest, the faces, the edges
                const double rest = kW[0] * rho, face = kW[1] * rho, edge = kW[7] * rho;
                dst[c] = f[0] + omega * (rest * t - f[0]);
                for (int q = 1; q < kQ; ++q) {
                    const double feq = (q < 7 ? face : edge) * (t + cu[q] * (3.0 + 4.5 * cu[q]));
                    dst[q * cells + c] = f[q] + omega * (feq - f[q]);
                }
            }
}

class Jacobi : public ReferenceInstance {
public:
    explicit Jacobi(std::int64_t n) : n_(n), a_(alloc<double>(n * n, 4.0)), b_(alloc<double>(n * n, 0.0)) {}
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

class Stencil3d : public ReferenceInstance {
public:
    explicit Stencil3d(std::int64_t n) : n_(n), a_(alloc<double>(n * n * n, 1.0)), b_(alloc<double>(n * n * n, 0.0)) {}
    void call() override { k_stencil3d(a_.get(), b_.get(), n_, 0.5, 0.25); }
    std::string check(std::int64_t) override {
        const std::int64_t n = n_;
        return check_elements(n - 2, [&](std::int64_t k) {
            const std::int64_t c = (1 + k) * n * n + (1 + (n - 3 - k)) * n + 1 + k;
            return expect_at("b", c, b_[c], 2.0);  // 0.5 + 0.25 x 6
        });
    }

private:
    std::int64_t n_;
    Array<double> a_, b_;
};

// A fluid at rest, density 1, in equilibrium: a step leaves every population at its weight.
class Lbm : public ReferenceInstance {
public:
    explicit Lbm(std::int64_t n) : n_(n), cells_(n * n * n), src_(alloc<double>(kQ * n * n * n, 0.0)),
                                   dst_(alloc<double>(kQ * n * n * n, 0.0)) {
        for (int q = 0; q < kQ; ++q)
            for (std::int64_t c = 0; c < cells_; ++c) src_[q * cells_ + c] = kW[q];
    }
    void call() override { k_lbm(src_.get(), dst_.get(), n_, 1.7); }
    std::string check(std::int64_t) override {
        const std::int64_t n = n_;
        return check_elements(n - 2, [&](std::int64_t k) {
            const std::int64_t c = ((1 + k) * n + 1 + (n - 3 - k)) * n + 1 + k;
            for (int q = 0; q < kQ; ++q) {
                const double got = dst_[q * cells_ + c];
                if (std::fabs(got - kW[q]) > 1e-14)
                    return fmt::format("population {} of cell {} = {} where {} was expected", q, c, got, kW[q]);
            }
            return std::string{};
        });
    }

private:
    std::int64_t n_, cells_;
    Array<double> src_, dst_;
};

std::unique_ptr<ReferenceInstance> make_jacobi2d(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    if (n < 3) throw std::invalid_argument("jacobi2d needs a grid of at least 3 x 3");
    return std::make_unique<Jacobi>(n);
}
std::unique_ptr<ReferenceInstance> make_stencil3d(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    if (n < 3) throw std::invalid_argument("stencil3d needs a grid of at least 3 x 3 x 3");
    return std::make_unique<Stencil3d>(n);
}
std::unique_ptr<ReferenceInstance> make_lbm(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    if (n < 3) throw std::invalid_argument("lbm_d3q19 needs a grid of at least 3 x 3 x 3");
    return std::make_unique<Lbm>(n);
}

} // namespace

void append_stencil_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::jacobi2d, make_jacobi2d});
    out.push_back({ReferenceKernelId::stencil3d, make_stencil3d});
    out.push_back({ReferenceKernelId::lbm_d3q19, make_lbm});
}

} // namespace roofline
