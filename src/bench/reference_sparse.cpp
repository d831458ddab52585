// Sparse matrix-vector products in CRS: the 7-point Laplacian of a 3-D grid, and a matrix with
// a fixed number of nonzeros a row at random columns (x gathered from anywhere).
#include "bench/reference_family.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

void k_spmv(const std::int32_t* rowptr, const std::int32_t* col, const double* val, const double* x, double* y,
            std::int64_t rows) {
    for (std::int64_t r = 0; r < rows; ++r) {
        double s = 0;
        for (std::int32_t e = rowptr[r]; e < rowptr[r + 1]; ++e) s += val[e] * x[col[e]];
        y[r] = s;
    }
}

// The 7-point Laplacian of a g^3 grid: 6 on the diagonal, -1 for each neighbour inside.
class Spmv : public ReferenceInstance {
public:
    explicit Spmv(std::int64_t g) : g_(g), rows_(g * g * g) {
        const std::int64_t nnz = 7 * rows_ - 6 * g * g;
        if (nnz > std::int64_t{1} << 31) throw std::invalid_argument("spmv_laplace3d: more than 2^31 nonzeros");
        rowptr_ = alloc<std::int32_t>(rows_ + 1, 0);
        col_ = alloc<std::int32_t>(nnz, 0);
        val_ = alloc<double>(nnz, 0.0);
        x_ = alloc<double>(rows_, 1.0);
        y_ = alloc<double>(rows_, 0.0);
        std::int64_t e = 0;
        for (std::int64_t r = 0; r < rows_; ++r) {
            rowptr_[r] = static_cast<std::int32_t>(e);
            const std::int64_t i = r / (g * g), j = r / g % g, k = r % g;
            auto add = [&](std::int64_t c, double v) {
                col_[e] = static_cast<std::int32_t>(c);
                val_[e++] = v;
            };
            if (i > 0) add(r - g * g, -1);
            if (j > 0) add(r - g, -1);
            if (k > 0) add(r - 1, -1);
            add(r, 6);
            if (k + 1 < g) add(r + 1, -1);
            if (j + 1 < g) add(r + g, -1);
            if (i + 1 < g) add(r + g * g, -1);
        }
        rowptr_[rows_] = static_cast<std::int32_t>(e);
    }
    void call() override { k_spmv(rowptr_.get(), col_.get(), val_.get(), x_.get(), y_.get(), rows_); }
    std::string check(std::int64_t) override {
        // with x = 1: 6 less the number of neighbours inside the grid
        return check_elements(rows_, [&](std::int64_t r) {
            const std::int64_t g = g_, i = r / (g * g), j = r / g % g, k = r % g;
            const int inside = (i > 0) + (j > 0) + (k > 0) + (i + 1 < g) + (j + 1 < g) + (k + 1 < g);
            return expect_at("y", r, y_[r], 6.0 - inside);
        });
    }

private:
    std::int64_t g_, rows_;
    Array<std::int32_t> rowptr_, col_;
    Array<double> val_, x_, y_;
};

// n x n, `nnzr` nonzeros a row at columns drawn by splitmix64 from a fixed seed (sorted in
// each row; a column drawn twice is two entries, as CRS allows), every value 1: with x = 1,
// y[r] = nnzr.
class SpmvRandom : public ReferenceInstance {
public:
    SpmvRandom(std::int64_t n, std::int64_t nnzr) : n_(n), nnzr_(nnzr) {
        const std::int64_t nnz = n * nnzr;
        if (n > std::numeric_limits<std::int32_t>::max() || nnz > std::numeric_limits<std::int32_t>::max())
            throw std::invalid_argument("spmv_random: more than 2^31 rows or nonzeros");
        rowptr_ = alloc<std::int32_t>(n + 1, 0);
        col_ = alloc<std::int32_t>(nnz, 0);
        val_ = alloc<double>(nnz, 1.0);
        x_ = alloc<double>(n, 1.0);
        y_ = alloc<double>(n, 0.0);
        std::uint64_t state = 0x9e3779b97f4a7c15ull;
        const auto next = [&] {  // splitmix64 (Steele, Lea, Flood 2014)
            std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            return z ^ (z >> 31);
        };
        for (std::int64_t r = 0; r < n; ++r) {
            rowptr_[r] = static_cast<std::int32_t>(r * nnzr);
            std::int32_t* row = col_.get() + r * nnzr;
            for (std::int64_t e = 0; e < nnzr; ++e) row[e] = static_cast<std::int32_t>(next() % static_cast<std::uint64_t>(n));
            std::sort(row, row + nnzr);
        }
        rowptr_[n] = static_cast<std::int32_t>(nnz);
    }
    void call() override { k_spmv(rowptr_.get(), col_.get(), val_.get(), x_.get(), y_.get(), n_); }
    std::string check(std::int64_t) override {
        return check_elements(n_, [&](std::int64_t r) { return expect_at("y", r, y_[r], double(nnzr_)); });
    }

private:
    std::int64_t n_, nnzr_;
    Array<std::int32_t> rowptr_, col_;
    Array<double> val_, x_, y_;
};

std::unique_ptr<ReferenceInstance> make_spmv_laplace(const ReferenceKernel&, std::int64_t g, const KernelParams&) {
    return std::make_unique<Spmv>(g);
}
std::unique_ptr<ReferenceInstance> make_spmv_random(const ReferenceKernel&, std::int64_t n, const KernelParams& params) {
    return std::make_unique<SpmvRandom>(n, params.at("nnzr"));
}

} // namespace

void append_sparse_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::spmv_laplace3d, make_spmv_laplace});
    out.push_back({ReferenceKernelId::spmv_random, make_spmv_random});
}

} // namespace roofline
