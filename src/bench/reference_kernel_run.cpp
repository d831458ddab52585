#include "bench/reference_kernel_run.hpp"
#include "bench/isa_support.hpp"

#include <cblas.h>
#include <fftw3.h>
#include <emmintrin.h>
#include <sys/mman.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
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
// A dot product as BLAS writes one: four vector partial sums. Written `s += x[i] * y[i]`, the
// compiler may not reorder the float sum (no -ffast-math here), so every element waits for the
// previous add: a latency-bound chain of about one element per 3-4 cycles, 1.7 GFLOP/s on a
// Zen 3 core, far under any memory roof; ddot and mvm_row are meant to show memory limits (the
// chain's own ceiling is what sum_sp_scalar shows). Compiled for AVX2+FMA and the baseline.
typedef double v4df __attribute__((vector_size(32)));
typedef double v4df_unaligned __attribute__((vector_size(32), aligned(8)));  // rows of a matrix
// By reference: a 32-byte vector passed by value has another ABI without AVX (GCC warns).
inline const v4df_unaligned& load4(const double* p) { return *reinterpret_cast<const v4df_unaligned*>(p); }
inline double lanes_sum(const v4df& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

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
// dot and mvm_row, each compiled for AVX2+FMA and for the baseline, the AVX2 code where
// isa_supported allows it: ROOFLINE_MAX_ISA caps these as it caps bench's kernels (GCC's
// target_clones would choose by the CPU alone).
__attribute__((target("avx2,fma"))) double k_dot_avx2(const double* x, const double* y, std::int64_t n) {
    return dot_blocked(x, y, n);
}
double k_dot_base(const double* x, const double* y, std::int64_t n) { return dot_blocked(x, y, n); }
double k_dot(const double* x, const double* y, std::int64_t n) {
    static const bool avx2 = isa_supported(Isa::avx2);
    return avx2 ? k_dot_avx2(x, y, n) : k_dot_base(x, y, n);
}
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
void k_stencil3d(const double* a, double* b, std::int64_t n, double c0, double c1) {
    const std::int64_t p = n * n;
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j)
            for (std::int64_t k = 1; k + 1 < n; ++k) {
                const std::int64_t c = i * p + j * n + k;
                b[c] = c0 * a[c] + c1 * (a[c - 1] + a[c + 1] + a[c - n] + a[c + n] + a[c - p] + a[c + p]);
            }
}
void k_spmv(const std::int32_t* rowptr, const std::int32_t* col, const double* val, const double* x, double* y,
            std::int64_t rows) {
    for (std::int64_t r = 0; r < rows; ++r) {
        double s = 0;
        for (std::int32_t e = rowptr[r]; e < rowptr[r + 1]; ++e) s += val[e] * x[col[e]];
        y[r] = s;
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

// --- one kernel's data, call and check -------------------------------------------

// Values chosen so that every result is exact in floating point, whatever the order of
// the adds: the check is an equality.
class Instance {
public:
    virtual ~Instance() = default;
    virtual void call() = 0;
    // After `calls` calls: "" when the result is the one known on paper.
    virtual std::string check(std::int64_t calls) = 0;
    // What ran, where the code is chosen at run time (the CPU's ISA): the counts of that code
    // and details saying which. Most kernels run one code: the table's counts stand.
    virtual void describe(ReferenceRun&) const {}
    // Every array the kernel touches: what a cold-data run flushes.
    const std::vector<std::pair<const void*, std::size_t>>& buffers() const { return buffers_; }

protected:
    template <typename T>
    Array<T> alloc(std::int64_t n, T value) {
        auto a = allocate<T>(n, value);
        buffers_.emplace_back(a.get(), static_cast<std::size_t>(n) * sizeof(T));
        return a;
    }

private:
    std::vector<std::pair<const void*, std::size_t>> buffers_;
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

// The kernel is chosen once, at construction: call() is timed, down to sub-microsecond calls.
enum class StreamOp { copy, scale, add, triad, daxpy, dot };

StreamOp stream_op(const std::string& name) {
    if (name == "stream_copy") return StreamOp::copy;
    if (name == "stream_scale") return StreamOp::scale;
    if (name == "stream_add") return StreamOp::add;
    if (name == "stream_triad") return StreamOp::triad;
    if (name == "daxpy") return StreamOp::daxpy;
    if (name == "ddot") return StreamOp::dot;
    throw std::invalid_argument("not a stream kernel: " + name);
}

class Streams : public Instance {
public:
    Streams(const std::string& name, std::int64_t n)
        : op_(stream_op(name)), n_(n), a_(alloc<double>(n, 1.0)), b_(alloc<double>(n, 2.0)),
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

class SumSp : public Instance {
public:
    // +1 in one block of 16, -1 in the next: every chain of every variant (stride 1, 4 or 16)
    // alternates, so each partial sum stays a small integer, exact at any n.
    SumSp(const std::string& name, std::int64_t n)
        : sum_(name == "sum_sp_scalar" ? k_sum_scalar : name == "sum_sp_unrolled" ? k_sum_unrolled : k_sum_simd),
          n_(n), x_(alloc<float>(n, 1.0f)) {
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

class Jacobi : public Instance {
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

class Mvm : public Instance {
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

class Stencil3d : public Instance {
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

// The 7-point Laplacian of a g^3 grid: 6 on the diagonal, -1 for each neighbour inside.
class Spmv : public Instance {
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

// The points say one thread: OpenBLAS would start one per core.
void blas_on_one_thread() { openblas_set_num_threads(1); }

class Gemm : public Instance {
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

class Atb : public Instance {
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

// n x n, `nnzr` nonzeros a row at columns drawn by splitmix64 from a fixed seed (sorted in
// each row; a column drawn twice is two entries, as CRS allows), every value 1: with x = 1,
// y[r] = nnzr.
class SpmvRandom : public Instance {
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

// The planner is not thread-safe (FFTW's manual): plans are made and destroyed one at a time.
std::mutex& fftw_planner() {
    static std::mutex m;
    return m;
}

class Fft3d : public Instance {
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

// A fluid at rest, density 1, in equilibrium: a step leaves every population at its weight.
class Lbm : public Instance {
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

std::unique_ptr<Instance> instance_of(const ReferenceKernel& k, std::int64_t n, const KernelParams& params) {
    if (k.name == "lbm_d3q19") {
        if (n < 3) throw std::invalid_argument("lbm_d3q19 needs a grid of at least 3 x 3 x 3");
        return std::make_unique<Lbm>(n);
    }
    if (k.name == "fft3d") {
        if (n < 2 || n > 2048) throw std::invalid_argument(fmt::format("fft3d: n = {} (2 to 2048)", n));
        return std::make_unique<Fft3d>(n);
    }
    if (k.name == "mvm_row" || k.name == "mvm_col") return std::make_unique<Mvm>(k.name == "mvm_row", n);
    if (k.name == "stencil3d") {
        if (n < 3) throw std::invalid_argument("stencil3d needs a grid of at least 3 x 3 x 3");
        return std::make_unique<Stencil3d>(n);
    }
    if (k.name == "spmv_laplace3d") return std::make_unique<Spmv>(n);
    if (k.name == "spmv_random") return std::make_unique<SpmvRandom>(n, params.at("nnzr"));
    if (k.name == "dgemm_naive" || k.name == "dgemm_openblas") {
        if (n > 46340) throw std::invalid_argument(fmt::format("{}: n = {} is beyond int indices", k.name, n));
        return std::make_unique<Gemm>(k.name == "dgemm_openblas", n);
    }
    if (k.name == "atb_ours" || k.name == "atb_openblas") {
        if (n > (std::int64_t{1} << 31) - 1) throw std::invalid_argument(fmt::format("{}: K = {} is beyond int", k.name, n));
        return std::make_unique<Atb>(k.name == "atb_openblas", n, params.at("m"));
    }
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

// Every line of the kernel's arrays out of every cache level.
void flush_data(const Instance& inst) {
    for (const auto& [p, bytes] : inst.buffers()) {
        const char* c = static_cast<const char*>(p);
        for (std::size_t off = 0; off < bytes; off += 64) _mm_clflush(c + off);
    }
    _mm_mfence();
}

// The kernel's arrays read back into the caches (after other code pushed them out of L2/L3).
void touch_data(const Instance& inst) {
    unsigned char sum = 0;
    for (const auto& [p, bytes] : inst.buffers()) {
        const volatile unsigned char* c = static_cast<const volatile unsigned char*>(p);
        for (std::size_t off = 0; off < bytes; off += 64) sum = static_cast<unsigned char>(sum + c[off]);
    }
    volatile unsigned char keep = sum;  // the reads must happen
    (void)keep;
}

// 8 MiB of other code: NOPs ending in a return, run once, so that the instruction caches and
// L2/L3 hold it instead of the kernel's code. Made once; null when executable memory is refused.
using CodeFn = void (*)();
CodeFn other_code() {
    static const CodeFn fn = [] {
        constexpr std::size_t bytes = 8u << 20;
        void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return CodeFn{};
        auto* c = static_cast<unsigned char*>(m);
        std::memset(c, 0x90, bytes - 1);  // nop
        c[bytes - 1] = 0xC3;              // ret
        if (::mprotect(m, bytes, PROT_READ | PROT_EXEC) != 0) {
            ::munmap(m, bytes);
            return CodeFn{};
        }
        return reinterpret_cast<CodeFn>(m);
    }();
    return fn;
}

} // namespace

std::optional<CacheMode> parse_cache_mode(const std::string& text) {
    for (const auto m : {CacheMode::warm, CacheMode::cold_data, CacheMode::cold_code, CacheMode::cold})
        if (text == cache_mode_name(m)) return m;
    return std::nullopt;
}

const char* cache_mode_name(CacheMode mode) {
    switch (mode) {
    case CacheMode::warm: return "warm";
    case CacheMode::cold_data: return "cold-data";
    case CacheMode::cold_code: return "cold-code";
    case CacheMode::cold: return "cold";
    }
    return "warm";
}

namespace {

// The kernel on one thread (team == nullptr) or on every thread of a team: `calls` calls of
// every instance, timed as the slowest thread's.
struct Runner {
    std::vector<std::unique_ptr<Instance>> instances;
    ThreadTeam* team = nullptr;

    void each(const std::function<void(Instance&)>& fn) {
        if (!team) return fn(*instances[0]);
        team->run([&](int t) { fn(*instances[static_cast<std::size_t>(t)]); });
    }
    double timed(std::int64_t calls) {
        auto job = [&](Instance& inst) {
            for (std::int64_t c = 0; c < calls; ++c) inst.call();
        };
        if (!team) {
            const double t0 = now();
            job(*instances[0]);
            return now() - t0;
        }
        return team->run_timed([&](int t) { job(*instances[static_cast<std::size_t>(t)]); });
    }
};

ReferenceRun run_on(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options,
                    ThreadTeam* team) {
    if (n < 1) throw std::invalid_argument(fmt::format("{}: the size must be at least 1 (got {})", kernel.name, n));
    ReferenceRun run;
    run.n = n;
    run.threads = team ? team->size() : 1;
    const KernelParams params = kernel.resolved(options.params);
    run.counts = kernel.counts(n, params);
    Runner r;
    r.team = team;
    r.instances.resize(static_cast<std::size_t>(run.threads));
    if (!team) {
        r.instances[0] = instance_of(kernel, n, params);
    } else {
        team->run([&](int t) { r.instances[static_cast<std::size_t>(t)] = instance_of(kernel, n, params); });
    }
    r.instances[0]->describe(run);
    const bool cold_data = options.cache == CacheMode::cold_data || options.cache == CacheMode::cold;
    const bool cold_code = options.cache == CacheMode::cold_code || options.cache == CacheMode::cold;
    if (cold_code && !other_code())
        throw std::runtime_error("--cache cold-code: this system refuses executable memory (mmap/mprotect "
                                 "PROT_EXEC), which the code flush needs");
    std::int64_t calls = 0;
    std::int64_t per_sample = 1;
    if (options.cache == CacheMode::warm) {
        // Warm-up, and how many calls make a sample long enough for the clock.
        for (;;) {
            const double seconds = r.timed(per_sample);
            calls += per_sample;
            if (seconds >= options.min_sample_seconds || per_sample >= (std::int64_t{1} << 40)) break;
            per_sample *= 2;
        }
    } else {
        r.timed(1);  // pages and lazy binding, untimed; then one call a sample, each after the flush
        calls = 1;
    }
    std::vector<double> per_call;
    for (int s = 0; s < std::max(1, options.samples); ++s) {
        if (cold_data || cold_code)
            r.each([&](Instance& inst) {
                if (cold_data) flush_data(inst);
                if (cold_code) other_code()();
                if (cold_code && !cold_data) touch_data(inst);  // the code passed through L2/L3 too: data back in
            });
        per_call.push_back(r.timed(per_sample) / static_cast<double>(per_sample));
        calls += per_sample;
    }
    std::sort(per_call.begin(), per_call.end());
    run.samples = static_cast<int>(per_call.size());
    run.calls_per_sample = per_sample;
    run.fastest = per_call.front();
    run.slowest = per_call.back();
    run.seconds = options.median ? per_call[per_call.size() / 2] : per_call.front();
    for (std::size_t t = 0; t < r.instances.size() && run.check_error.empty(); ++t) {
        run.check_error = r.instances[t]->check(calls);
        if (!run.check_error.empty() && r.instances.size() > 1)
            run.check_error = fmt::format("thread {}: {}", t, run.check_error);
    }
    run.checked = run.check_error.empty();
    return run;
}

} // namespace

ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options) {
    return run_on(kernel, n, options, nullptr);
}

ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options,
                                  ThreadTeam& team) {
    return run_on(kernel, n, options, &team);
}

} // namespace roofline
