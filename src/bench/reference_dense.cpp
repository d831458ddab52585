// Dense linear algebra: matrix-vector products (row- and column-major), DGEMM (the triple
// loop and OpenBLAS's) and the tall-and-skinny C = A^T B (ours, blocked for the registers and
// the caches, and OpenBLAS's).
#include "bench/isa_support.hpp"
#include "bench/reference_family.hpp"

#include <cblas.h>
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline {
namespace {

using namespace reference_code;

// y[i] = row i . x with two vector partial sums, joined by 4 + 3 adds.
__attribute__((always_inline)) inline double row_dot2(const double* r, const double* x, std::int64_t n) {
    v4df a0 = {0, 0, 0, 0}, a1 = a0;
    std::int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        a0 += load4(r + j) * load4(x + j);
        a1 += load4(r + j + 4) * load4(x + j + 4);
    }
    double t = lanes_sum(a0 + a1);
    for (; j < n; ++j) t += r[j] * x[j];
    return t;
}
// Four rows at a time, so x is loaded once per four rows of A (one row at a time, x's loads from
// L2 halve what a core streams of A): two vector partial sums per row, 7 joining adds per row.
__attribute__((always_inline)) inline void mvm_row_blocked(const double* A, const double* x, double* y,
                                                          std::int64_t n) {
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const double *r0 = A + i * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
        v4df a0 = {0, 0, 0, 0}, a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0, d1 = a0;
        std::int64_t j = 0;
        for (; j + 8 <= n; j += 8) {
            const v4df x0 = load4(x + j), x1 = load4(x + j + 4);
            a0 += load4(r0 + j) * x0;
            a1 += load4(r0 + j + 4) * x1;
            b0 += load4(r1 + j) * x0;
            b1 += load4(r1 + j + 4) * x1;
            c0 += load4(r2 + j) * x0;
            c1 += load4(r2 + j + 4) * x1;
            d0 += load4(r3 + j) * x0;
            d1 += load4(r3 + j + 4) * x1;
        }
        double t[4] = {lanes_sum(a0 + a1), lanes_sum(b0 + b1), lanes_sum(c0 + c1), lanes_sum(d0 + d1)};
        const double* rows[4] = {r0, r1, r2, r3};
        for (int k = 0; k < 4; ++k) {
            for (std::int64_t jj = j; jj < n; ++jj) t[k] += rows[k][jj] * x[jj];
            y[i + k] = t[k];
        }
    }
    for (; i < n; ++i) y[i] = row_dot2(A + i * n, x, n);
}
// mvm_row, compiled for AVX2+FMA and for the baseline, the AVX2 code where isa_supported allows
// it: ROOFLINE_MAX_ISA caps it as it caps bench's kernels (GCC's target_clones would choose by
// the CPU alone).
__attribute__((target("avx2,fma"))) void k_mvm_row_avx2(const double* A, const double* x, double* y, std::int64_t n) {
    mvm_row_blocked(A, x, y, n);
}
void k_mvm_row_base(const double* A, const double* x, double* y, std::int64_t n) { mvm_row_blocked(A, x, y, n); }
void k_mvm_row(const double* A, const double* x, double* y, std::int64_t n) {
    static const bool avx2 = isa_supported(Isa::avx2);
    avx2 ? k_mvm_row_avx2(A, x, y, n) : k_mvm_row_base(A, x, y, n);
}
void k_mvm_col(const double* A, const double* x, double* y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = 0;
    for (std::int64_t j = 0; j < n; ++j) {
        const double xj = x[j];
        for (std::int64_t i = 0; i < n; ++i) y[i] += A[j * n + i] * xj;
    }
}
void k_dgemm_naive(const double* A, const double* B, double* C, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (std::int64_t k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}
// C (m x m) = A^T B, A and B K x m row-major, the way the lecture writes it: K in chunks
// of rows that stay in L1/L2 (atb_chunk_rows: 128 at m = 16, 32 KiB of A and B) and, within a
// chunk, each R x (2 W) block of C in 2 R registers of W doubles while k runs over the chunk:
// per k, R broadcasts of A, 2 vector loads of B, 2 R multiply-adds. Memory streams while the
// blocks compute: every block's pass over a chunk prefetches its share of the next chunk's
// rows, one row every few k, so the fetches are spread over the whole chunk's compute (a burst
// from the first block alone stalled on the line-fill buffers: 19 against 27 GFLOP/s at 64 MiB
// on a Zen 3 core). Two shapes (AtbBlock, core/reference_kernels.hpp): 4 x 8 in 4-double
// registers (AVX2+FMA, and the baseline), and 8 x 16 in 8-double registers with AVX-512 where
// m is a multiple of 16: at m = 16 a 4 x 8 AVX2 core tops out at 2 x 4 x 2 FLOP a cycle, about
// 8 bytes of A and B a cycle, below what L3 and DRAM stream; the AVX-512 shape doubles both.
// MC > 0 fixes m at compile time (atb_dispatch): with m a run-time value the row addressing
// and the prefetch loop cost 20% of the DRAM stream at m = 16 (13.2 against 16.8 GB/s, 2 GiB,
// one core of a Sapphire Rapids-class VM), as the lecture's kernel, written for one M, does not.
template <typename V, int R, int MC>
__attribute__((always_inline)) inline void atb_blocked(const double* A, const double* B, double* C, std::int64_t K,
                                                       std::int64_t m, std::int64_t chunk) {
    constexpr int W = sizeof(V) / sizeof(double);
    const std::int64_t M = MC > 0 ? MC : m, N = M, blocks = (M / R) * (N / (2 * W));
    const std::int64_t rows_per_block = (chunk + blocks - 1) / blocks;  // of the next chunk, to prefetch
    for (std::int64_t i = 0; i < M * N; ++i) C[i] = 0;
    for (std::int64_t k0 = 0; k0 < K; k0 += chunk) {
        const std::int64_t k1 = std::min<std::int64_t>(K, k0 + chunk);
        const std::int64_t every = std::max<std::int64_t>(1, (k1 - k0) / rows_per_block);
        std::int64_t block = 0;
        for (std::int64_t bi = 0; bi < M; bi += R)
            for (std::int64_t bj = 0; bj < N; bj += 2 * W, ++block) {
                V acc[R][2] = {};
                std::int64_t next = k1 + block * rows_per_block;  // this pass's rows of the next chunk
                const std::int64_t last = std::min({K, k1 + chunk, next + rows_per_block});
                std::int64_t countdown = 0;
                for (std::int64_t k = k0; k < k1; ++k) {
                    if (--countdown <= 0 && next < last) {
                        for (std::int64_t line = 0; line < M; line += 8) {  // each 64-byte line of the row
                            __builtin_prefetch(A + next * M + line);
                            __builtin_prefetch(B + next * N + line);
                        }
                        ++next;
                        countdown = every;
                    }
                    V b0, b1;
                    std::memcpy(&b0, B + k * N + bj, sizeof b0);
                    std::memcpy(&b1, B + k * N + bj + W, sizeof b1);
                    for (int i = 0; i < R; ++i) {
                        const double a = A[k * M + bi + i];
                        acc[i][0] += a * b0;
                        acc[i][1] += a * b1;
                    }
                }
                for (int i = 0; i < R; ++i)
                    for (int j = 0; j < W; ++j) {
                        C[(bi + i) * N + bj + j] += acc[i][0][j];
                        C[(bi + i) * N + bj + W + j] += acc[i][1][j];
                    }
            }
    }
}
// The common widths get a copy of the loop with m fixed (those the block divides); any other
// m runs the general one.
template <typename V, int R>
__attribute__((always_inline)) inline void atb_dispatch(const double* A, const double* B, double* C, std::int64_t K,
                                                        std::int64_t m, std::int64_t chunk) {
    constexpr int W = sizeof(V) / sizeof(double);
    auto fixed = [&]<int MC>() {
        if constexpr (MC % R == 0 && MC % (2 * W) == 0) {
            if (m != MC) return false;
            atb_blocked<V, R, MC>(A, B, C, K, m, chunk);
            return true;
        }
        return false;
    };
    if (fixed.template operator()<8>() || fixed.template operator()<16>() || fixed.template operator()<24>() ||
        fixed.template operator()<32>() || fixed.template operator()<48>() || fixed.template operator()<64>())
        return;
    atb_blocked<V, R, 0>(A, B, C, K, m, chunk);
}
// 4 x 8 blocks in 4-double registers (AVX2+FMA), or 4 x 4 in SSE2's 2-double ones (the
// baseline: 4-double vectors there were split through memory, 30x slower).
__attribute__((target("avx2,fma"))) void k_atb_4x8_avx2(const double* A, const double* B, double* C, std::int64_t K,
                                                         std::int64_t m, std::int64_t chunk) {
    atb_dispatch<v4df, 4>(A, B, C, K, m, chunk);
}
typedef double v2df __attribute__((vector_size(16)));
void k_atb_4x4_sse2(const double* A, const double* B, double* C, std::int64_t K, std::int64_t m, std::int64_t chunk) {
    atb_dispatch<v2df, 4>(A, B, C, K, m, chunk);
}
// 8 x 16 blocks: 16 accumulators and 2 rows of B in 18 of the 32 zmm registers; the
// broadcasts of A become the FMAs' memory operands. Only where isa_supported(avx512) and
// m % 16 == 0.
typedef double v8df __attribute__((vector_size(64)));
__attribute__((target("avx512f,fma"))) void k_atb_8x16(const double* A, const double* B, double* C, std::int64_t K,
                                                        std::int64_t m, std::int64_t chunk) {
    atb_dispatch<v8df, 8>(A, B, C, K, m, chunk);
}

class Mvm : public ReferenceInstance {
public:
    Mvm(bool row, std::int64_t n)
        : row_(row), n_(n), A_(alloc<double>(n * n, 1.0)), x_(alloc<double>(n, 2.0)), y_(alloc<double>(n, 0.0)) {}
    void call() override { row_ ? k_mvm_row(A_.get(), x_.get(), y_.get(), n_) : k_mvm_col(A_.get(), x_.get(), y_.get(), n_); }
    std::string check(std::int64_t) override {
        return check_elements(n_, [&](std::int64_t i) { return expect_at("y", i, y_[i], 2.0 * double(n_)); });
    }

private:
    bool row_;
    std::int64_t n_;
    Array<double> A_, x_, y_;
};

// The points say one thread: OpenBLAS would start one per core.
void blas_on_one_thread() { openblas_set_num_threads(1); }

class Gemm : public ReferenceInstance {
public:
    Gemm(bool blas, std::int64_t n)
        : blas_(blas), n_(n), A_(alloc<double>(n * n, 1.0)), B_(alloc<double>(n * n, 2.0)), C_(alloc<double>(n * n, 0.0)) {
        if (blas_) blas_on_one_thread();
    }
    void call() override {
        if (!blas_) return k_dgemm_naive(A_.get(), B_.get(), C_.get(), n_);
        const int n = static_cast<int>(n_);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A_.get(), n, B_.get(), n, 0.0, C_.get(), n);
    }
    std::string check(std::int64_t) override {
        return check_elements(n_ * n_, [&](std::int64_t i) { return expect_at("C", i, C_[i], 2.0 * double(n_)); });
    }

private:
    bool blas_;
    std::int64_t n_;
    Array<double> A_, B_, C_;
};

class Atb : public ReferenceInstance {
public:
    Atb(bool blas, std::int64_t K, std::int64_t m)
        : blas_(blas), K_(K), m_(m), block_(atb_block(m, isa_supported(Isa::avx512) ? 512 : isa_supported(Isa::avx2) ? 256 : 128)), A_(alloc<double>(K * m, 1.0)),
          B_(alloc<double>(K * m, 2.0)), C_(alloc<double>(m * m, 0.0)) {
        if (blas_) blas_on_one_thread();
    }
    void describe(ReferenceRun& run) const override {
        if (blas_) return;
        run.counts = atb_ours_counts(K_, m_, block_);
        run.details = {{"block_rows", block_.rows}, {"block_cols", block_.cols}, {"vector_bits", block_.vector_bits}};
    }
    void call() override {
        if (!blas_) {
            const auto kernel = block_.vector_bits == 512 ? k_atb_8x16 : block_.vector_bits == 256 ? k_atb_4x8_avx2 : k_atb_4x4_sse2;
            return kernel(A_.get(), B_.get(), C_.get(), K_, m_, atb_chunk_rows(m_));
        }
        const int m = static_cast<int>(m_);
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, m, static_cast<int>(K_), 1.0, A_.get(), m, B_.get(), m,
                    0.0, C_.get(), m);
    }
    std::string check(std::int64_t) override {
        return check_elements(m_ * m_, [&](std::int64_t i) { return expect_at("C", i, C_[i], 2.0 * double(K_)); });
    }

private:
    bool blas_;
    std::int64_t K_, m_;
    AtbBlock block_;
    Array<double> A_, B_, C_;
};

template <bool Row>
std::unique_ptr<ReferenceInstance> make_mvm(const ReferenceKernel&, std::int64_t n, const KernelParams&) {
    return std::make_unique<Mvm>(Row, n);
}
template <bool Blas>
std::unique_ptr<ReferenceInstance> make_gemm(const ReferenceKernel& k, std::int64_t n, const KernelParams&) {
    if (n > 46340) throw std::invalid_argument(fmt::format("{}: n = {} is beyond int indices", k.name, n));
    return std::make_unique<Gemm>(Blas, n);
}
template <bool Blas>
std::unique_ptr<ReferenceInstance> make_atb(const ReferenceKernel& k, std::int64_t n, const KernelParams& params) {
    if (n > (std::int64_t{1} << 31) - 1) throw std::invalid_argument(fmt::format("{}: K = {} is beyond int", k.name, n));
    return std::make_unique<Atb>(Blas, n, params.at("m"));
}

} // namespace

void append_dense_kernels(std::vector<ReferenceKernelCode>& out) {
    out.push_back({ReferenceKernelId::mvm_row, make_mvm<true>});
    out.push_back({ReferenceKernelId::mvm_col, make_mvm<false>});
    out.push_back({ReferenceKernelId::dgemm_naive, make_gemm<false>});
    out.push_back({ReferenceKernelId::dgemm_openblas, make_gemm<true>});
    out.push_back({ReferenceKernelId::atb_ours, make_atb<false>});
    out.push_back({ReferenceKernelId::atb_openblas, make_atb<true>});
}

} // namespace roofline
