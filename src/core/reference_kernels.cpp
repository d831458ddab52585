#include "core/reference_kernels.hpp"

#include "core/byte_sizes.hpp"
#include "core/message_name.hpp"
#include "core/working_sets.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofline {
namespace {

constexpr double D = 8;  // bytes of a double
constexpr double F = 4;  // bytes of a float

// n elements per array, `arrays` arrays of `width` bytes, at least 64 elements.
std::int64_t n_for_arrays(double bytes, int arrays, double width) {
    return std::max<std::int64_t>(64, static_cast<std::int64_t>(bytes / (arrays * width)));
}

KernelCounts stream(std::int64_t n, double flops, int read_arrays, bool write) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    c.flops = flops * e;
    c.loaded = read_arrays * D * e;
    c.stored = write ? D * e : 0;
    c.memory_read = c.loaded;
    c.memory_written = c.stored;
    c.write_allocate = c.stored;  // the stored array is not read first
    c.working_set = (read_arrays + (write ? 1 : 0)) * D * e;
    return c;
}

KernelCounts copy(std::int64_t n) { return stream(n, 0, 1, true); }
KernelCounts scale(std::int64_t n) { return stream(n, 1, 1, true); }
KernelCounts add(std::int64_t n) { return stream(n, 1, 2, true); }
KernelCounts triad(std::int64_t n) { return stream(n, 2, 2, true); }

KernelCounts daxpy(std::int64_t n) {  // y = a x + y: y is read first, no write-allocate
    KernelCounts c = stream(n, 2, 2, true);
    c.write_allocate = 0;
    c.working_set = 2 * D * static_cast<double>(n);
    return c;
}

// Four vector partial sums of four lanes, joined at the end by 12 + 3 adds (run whatever n is).
KernelCounts dot(std::int64_t n) {
    KernelCounts c = stream(n, 2, 2, false);
    c.flops += 15;
    return c;
}

// n adds into the chains, and the adds that join the chains at the end: none for one chain,
// 3 for four scalar chains, 12 + 3 for four vectors of four lanes (the instrument engine
// counts the same).
KernelCounts sum_sp(std::int64_t n, double joining) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    c.flops = e + joining;
    c.loaded = c.memory_read = c.working_set = F * e;
    return c;
}
KernelCounts sum_scalar(std::int64_t n) { return sum_sp(n, 0); }
KernelCounts sum_unrolled(std::int64_t n) { return sum_sp(n, 3); }
KernelCounts sum_simd(std::int64_t n) { return sum_sp(n, 15); }

// The grid kernels' memory traffic counts whole rows: memory moves in lines, and a row of the
// grid (n doubles in a row, 64-byte aligned arrays) comes whole once any of its elements is
// touched, so a row a stencil reads only at its ends (the halo columns) or only as a neighbour
// (the boundary rows) crosses memory whole, and so does a destination row it stores to at all
// but its two ends. Exactly the lines when the rows are whole lines (n a multiple of 8); the
// unit test runs the loops' accesses through the Valgrind tool's cache simulator.

// 2-D 5-point Jacobi on an n x n grid, interior points: b = 0.25 (N + S + E + W). With three
// rows in cache (the layer condition) memory sees each row once: every row of a (its boundary
// rows are read as neighbours, every other row's boundary columns come with its line), and
// the n - 2 rows of b the stores touch, write-allocated and written back.
KernelCounts jacobi2d(std::int64_t n) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    const double inner = (e - 2) * (e - 2);
    c.flops = 4 * inner;
    c.loaded = 4 * D * inner;
    c.stored = D * inner;
    c.memory_read = D * e * e;
    c.memory_written = D * e * (e - 2);
    c.write_allocate = D * e * (e - 2);
    c.working_set = 2 * D * e * e;
    return c;
}

// y = A x, A n x n. Row-major: y[i] = sum_j A[i][j] x[j], the sum in a register; column-
// major: y zeroed, then y[i] += A[j][i] x[j] for each j (y loaded and stored n times).
// Memory: A once, x and y once (they stay in cache).
KernelCounts mvm(std::int64_t n, bool row_major) {
    KernelCounts c;
    const double e = static_cast<double>(n), e2 = e * e;
    c.flops = row_major ? 2 * e2 + 7 * e : 2 * e2;  // row-major: two vector partial sums a row, 7 adds join them
    c.loaded = row_major ? 2 * D * e2 : 2 * D * e2 + D * e;
    c.stored = row_major ? D * e : D * e2 + D * e;
    c.memory_read = D * e2 + D * e;
    c.memory_written = D * e;
    c.write_allocate = D * e;
    c.working_set = D * e2 + 2 * D * e;
    return c;
}
KernelCounts mvm_row(std::int64_t n) { return mvm(n, true); }
KernelCounts mvm_col(std::int64_t n) { return mvm(n, false); }

// 7-point stencil on an n^3 grid, interior points: b = c0 a + c1 (six neighbours): 8 FLOPs.
// Memory, whole rows (see jacobi2d), three planes of a in cache (the layer condition): every
// row of a but the four along the grid's edges that no point reads (n^2 - 4 rows: the
// boundary faces are read as neighbours), and b's (n-2)^2 interior rows, write-allocated and
// written back.
KernelCounts stencil3d(std::int64_t n) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    const double inner = std::pow(e - 2, 3);
    c.flops = 8 * inner;
    c.loaded = 7 * D * inner;
    c.stored = D * inner;
    c.memory_read = D * e * (e * e - 4);
    c.memory_written = c.write_allocate = D * e * (e - 2) * (e - 2);
    c.working_set = 2 * D * e * e * e;
    return c;
}

// SpMV in CRS of the 7-point Laplacian of a g^3 grid: N = g^3 rows, nnz = 7 g^3 - 6 g^2
// (a boundary row lacks its outside neighbours). Per nonzero: value 8 B, column 4 B, x 8 B.
// Memory: values and columns once, row pointers once, x and y once (x kept in cache).
double laplace_nnz(double g) { return 7 * g * g * g - 6 * g * g; }
// y = A x in CRS, whatever A's pattern: per nonzero a value (8 B), a column (4 B) and x[col]
// (8 B) loaded and 2 FLOPs; per row a row pointer (4 B, plus the last) loaded and y stored.
KernelCounts crs_spmv(double rows, double nnz) {
    KernelCounts c;
    c.flops = 2 * nnz;
    c.loaded = 20 * nnz + 4 * (rows + 1);
    c.stored = D * rows;
    c.memory_read = 12 * nnz + 4 * (rows + 1) + D * rows;
    c.memory_written = c.write_allocate = D * rows;
    c.working_set = 12 * nnz + 4 * (rows + 1) + 2 * D * rows;
    return c;
}
KernelCounts spmv(std::int64_t g) {
    return crs_spmv(std::pow(static_cast<double>(g), 3), laplace_nnz(static_cast<double>(g)));
}

// C = A B, n x n. The triple loop (i, j, k; C[i][j] in a register) loads A and B on every
// k; a BLAS blocks for the caches, its loads are not known here: its L1 bytes are the
// compulsory ones. Memory: A and B read, C written once.
KernelCounts gemm(std::int64_t n, bool naive) {
    KernelCounts c;
    const double e = static_cast<double>(n), e2 = e * e;
    c.flops = 2 * e2 * e;
    c.loaded = naive ? 2 * D * e2 * e : 2 * D * e2;
    c.stored = D * e2;
    c.memory_read = 2 * D * e2;
    c.memory_written = c.write_allocate = D * e2;
    c.working_set = 3 * D * e2;
    return c;
}
KernelCounts gemm_naive(std::int64_t n) { return gemm(n, true); }
KernelCounts gemm_blas(std::int64_t n) { return gemm(n, false); }

// C = A^T B with A (K x M) and B (K x N) tall and skinny, M = N = m (16 by default): 2 K m^2
// FLOPs over 16 K m bytes, m/8 FLOP/B from memory. Ours: K in chunks (atb_chunk_rows) that
// stay in L1/L2, each block of C (AtbBlock: 4 x 8, or 8 x 16 with AVX-512) in registers over a
// chunk (per k, rows + cols doubles loaded a block, (m / rows) (m / cols) blocks), and m^2 adds
// a chunk to add its block sums into C. A BLAS: compulsory bytes, 2 K m^2 FLOPs.
KernelCounts atb(std::int64_t k, std::int64_t m, const AtbBlock* ours) {
    KernelCounts c;
    const double K = static_cast<double>(k), M = static_cast<double>(m), chunk = static_cast<double>(atb_chunk_rows(m));
    c.flops = 2 * K * M * M + (ours ? M * M * std::ceil(K / chunk) : 0);
    c.loaded = ours ? D * K * (M / ours->rows) * (M / ours->cols) * (ours->rows + ours->cols) : D * K * 2 * M;
    c.stored = D * M * M;
    c.memory_read = D * K * 2 * M;
    c.memory_written = c.write_allocate = D * M * M;
    c.working_set = D * K * 2 * M + D * M * M;
    return c;
}
KernelCounts atb_ours(std::int64_t k, const KernelParams& p) {
    const AtbBlock baseline;
    return atb(k, p.at("m"), &baseline);
}
KernelCounts atb_blas(std::int64_t k, const KernelParams& p) { return atb(k, p.at("m"), nullptr); }

// SpMV in CRS of an n x n matrix with `nnzr` nonzeros in every row at columns drawn at random
// (uniform, fixed seed): the same per-nonzero traffic as the Laplacian, but x is gathered
// from anywhere. Memory: values, columns and row pointers once, y once, x once -- true while
// x (8 n bytes) stays in cache; beyond the last level each gather can bring a line of its own,
// so the memory bytes are then a lower bound (the point's memory intensity an upper bound).
KernelCounts spmv_random(std::int64_t n, const KernelParams& p) {
    const double rows = static_cast<double>(n);
    return crs_spmv(rows, rows * static_cast<double>(p.at("nnzr")));
}

// 3-D complex FFT of n^3 points, out of place: 5 N log2 N FLOPs by convention (N = n^3). The
// count FFTW really does is not what fftw_flops() says (it gives 0 for a 16-point 1-D
// ESTIMATE plan): count it with roofline measure --engine instrument on a program calling
// FFTW. Bytes: the input read and the output written once (compulsory: the library's passes
// over the data are not counted).
KernelCounts fft3d(std::int64_t n) {
    KernelCounts c;
    const double N = std::pow(static_cast<double>(n), 3);
    c.flops = 5 * N * std::log2(N);
    c.loaded = c.memory_read = 16 * N;
    c.stored = c.memory_written = c.write_allocate = 16 * N;
    c.working_set = 32 * N;
    return c;
}

// One D3Q19 lattice-Boltzmann step (BGK, pull: each cell gathers its 19 populations from
// its neighbours in one grid and writes them collided to the other), interior cells of an
// n^3 grid. FLOPs as the code does them, per cell: density 18, momentum 27, 1 / rho 1,
// velocity 3, u^2 5, 1 - 1.5 u^2 2, w rho for the three weights 3; per population the
// projection c.u (0 for the rest and the 6 faces, 1 for the 12 edges), the equilibrium (5;
// the rest one 1) and the relaxation (3): 219 (the instrument engine counts 219 too).
// Memory, whole rows (see jacobi2d), planes of the source in cache: each population reads
// (n-2)^2 rows of the source (the interior's, shifted by its velocity) and writes (n-2)^2
// rows of the destination, write-allocated.
KernelCounts lbm(std::int64_t n) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    const double cells = std::pow(e - 2, 3);
    const double rows = 19 * D * e * (e - 2) * (e - 2);
    c.flops = 219 * cells;
    c.loaded = 19 * D * cells;
    c.stored = 19 * D * cells;
    c.memory_read = c.memory_written = c.write_allocate = rows;
    c.working_set = 2 * 19 * D * e * e * e;
    return c;
}

std::int64_t n_copy(double b) { return n_for_arrays(b, 2, D); }
std::int64_t n_three(double b) { return n_for_arrays(b, 3, D); }
std::int64_t n_two(double b) { return n_for_arrays(b, 2, D); }
std::int64_t n_one_sp(double b) { return n_for_arrays(b, 1, F); }
std::int64_t n_grid(double b) { return std::max<std::int64_t>(8, static_cast<std::int64_t>(std::sqrt(b / (2 * D)))); }
// 8 n^2 + 16 n = b
std::int64_t n_matrix(double b) {
    return std::max<std::int64_t>(8, static_cast<std::int64_t>((std::sqrt(256 + 32 * b) - 16) / 16));
}
std::int64_t n_cube(double b) { return std::max<std::int64_t>(4, static_cast<std::int64_t>(std::cbrt(b / (2 * D)))); }
std::int64_t n_gemm(double b) { return std::max<std::int64_t>(8, static_cast<std::int64_t>(std::sqrt(b / (3 * D)))); }
std::int64_t n_laplace(double b) {  // about 100 B a row (7 x 12 + 4 + 16)
    std::int64_t g = std::max<std::int64_t>(2, static_cast<std::int64_t>(std::cbrt(b / 104)));
    while (g > 2 && spmv(g).working_set > b) --g;
    return g;
}
std::int64_t n_lbm(double b) { return std::max<std::int64_t>(3, static_cast<std::int64_t>(std::cbrt(b / (2 * 19 * D)))); }
std::int64_t n_fft(double b) { return std::max<std::int64_t>(2, static_cast<std::int64_t>(std::cbrt(b / 32))); }
std::int64_t n_atb(double b, const KernelParams& p) {
    const double m = static_cast<double>(p.at("m"));
    return std::max<std::int64_t>(64, static_cast<std::int64_t>((b - D * m * m) / (D * 2 * m)));
}
std::int64_t n_spmv_random(double b, const KernelParams& p) {  // 12 nnzr + 20 bytes a row
    return std::max<std::int64_t>(16, static_cast<std::int64_t>(b / (12 * static_cast<double>(p.at("nnzr")) + 20)));
}

// The table's adapters for kernels whose counts depend on n alone.
template <KernelCounts (*F)(std::int64_t)>
KernelCounts plain(std::int64_t n, const KernelParams&) { return F(n); }
template <std::int64_t (*F)(double)>
std::int64_t plain_n(double bytes, const KernelParams&) { return F(bytes); }

// m = 8, 16, 24, ...: our kernel's register blocks are 4 x 8.
const KernelParameter kAtbParameter{"m", 16, 8, 512, 8, "M = N, the columns of A and B (a multiple of 8)"};

const std::string kStreamNote =
    "STREAM (McCalpin); write-allocate: the stored array's lines are read before they are written";

} // namespace

const std::vector<ReferenceKernel>& reference_kernels() {
    static const std::vector<ReferenceKernel> all = {
        {ReferenceKernelId::stream_copy, "stream_copy", "c[i] = a[i]", "dp", "n doubles per array", "0", {"16 n", "16 n", "8 n"}, kStreamNote, plain<copy>, plain_n<n_copy>},
        {ReferenceKernelId::stream_scale, "stream_scale", "b[i] = s * c[i]", "dp", "n doubles per array", "n", {"16 n", "16 n", "8 n"},
         kStreamNote, plain<scale>, plain_n<n_copy>},
        {ReferenceKernelId::stream_add, "stream_add", "c[i] = a[i] + b[i]", "dp", "n doubles per array", "n", {"24 n", "24 n", "8 n"},
         kStreamNote, plain<add>, plain_n<n_three>},
        {ReferenceKernelId::stream_triad, "stream_triad", "a[i] = b[i] + s * c[i]", "dp", "n doubles per array", "2 n", {"24 n", "24 n", "8 n"},
         kStreamNote, plain<triad>, plain_n<n_three>},
        {ReferenceKernelId::daxpy, "daxpy", "y[i] = a * x[i] + y[i]", "dp", "n doubles per array", "2 n", {"24 n", "24 n", ""},
         "y is read before it is written: no write-allocate reads", plain<daxpy>, plain_n<n_two>},
        {ReferenceKernelId::ddot, "ddot", "s += x[i] * y[i]", "dp", "n doubles per array", "2 n + 15", {"16 n", "16 n", ""}, "four vector partial sums, as BLAS does (one chain would be bound by the add's latency)", plain<dot>, plain_n<n_two>},
        {ReferenceKernelId::sum_sp_scalar, "sum_sp_scalar", "s += x[i]", "sp", "n floats", "n", {"4 n", "4 n", ""},
         "one dependent add after another: bound by the add's latency, not its throughput", plain<sum_scalar>, plain_n<n_one_sp>},
        {ReferenceKernelId::sum_sp_unrolled, "sum_sp_unrolled", "s0 += x[i]; s1 += x[i+1]; s2 += x[i+2]; s3 += x[i+3]", "sp", "n floats", "n + 3", {"4 n", "4 n", ""},
         "four independent chains: scalar adds overlap, up to the scalar add throughput", plain<sum_unrolled>, plain_n<n_one_sp>},
        {ReferenceKernelId::sum_sp_simd, "sum_sp_simd", "v0..v3 += x[i..i+15] (4 vectors of 4 floats)", "sp", "n floats", "n + 15", {"4 n", "4 n", ""},
         "SIMD adds on independent vectors: up to the vector add throughput (128-bit)", plain<sum_simd>, plain_n<n_one_sp>},
        {ReferenceKernelId::jacobi2d, "jacobi2d", "b[i][j] = 0.25 (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1])", "dp", "n x n grid",
         "4 (n-2)^2", {"40 (n-2)^2", "8 n^2 + 8 n (n-2)", "8 n (n-2)"},
         "memory traffic assumes three rows of a stay in cache (the layer condition) and moves whole rows: all of a "
         "(its boundary too), the n - 2 rows of b the stores touch", plain<jacobi2d>, plain_n<n_grid>},
        {ReferenceKernelId::stencil3d, "stencil3d", "b = c0 a[i][j][k] + c1 (six neighbours of a[i][j][k])", "dp", "n x n x n grid",
         "8 (n-2)^3", {"64 (n-2)^3", "8 n (n^2 - 4) + 8 n (n-2)^2", "8 n (n-2)^2"},
         "memory traffic assumes three planes of a stay in cache (the layer condition) and moves whole rows: all of a "
         "but its four edge rows no point reads, the (n-2)^2 rows of b the stores touch", plain<stencil3d>, plain_n<n_cube>},
        {ReferenceKernelId::mvm_row, "mvm_row", "y[i] = sum_j A[i][j] x[j] (A row-major)", "dp", "n x n matrix", "2 n^2 + 7 n",
         {"16 n^2 + 8 n", "8 n^2 + 16 n", "8 n"}, "x stays in cache; four rows at a time, two vector partial sums a row", plain<mvm_row>, plain_n<n_matrix>},
        {ReferenceKernelId::mvm_col, "mvm_col", "y[i] += A[j][i] x[j], j outer (A column-major)", "dp", "n x n matrix", "2 n^2",
         {"24 n^2 + 16 n", "8 n^2 + 16 n", "8 n"}, "y is loaded and stored once per column: L1-heavy", plain<mvm_col>, plain_n<n_matrix>},
        {ReferenceKernelId::spmv_laplace3d, "spmv_laplace3d", "y = A x, A in CRS: the 7-point Laplacian of a g^3 grid", "dp",
         "the grid is g x g x g (g^3 rows, 7 g^3 - 6 g^2 nonzeros)", "2 nnz",
         {"20 nnz + 12 rows + 4", "12 nnz + 20 rows + 4", "8 rows"}, "x stays in cache (read once)", plain<spmv>, plain_n<n_laplace>,
         0, {}, "g", {{"rows", "g^3"}, {"nnz", "7 g^3 - 6 g^2"}}},
        {ReferenceKernelId::dgemm_naive, "dgemm_naive", "C[i][j] = sum_k A[i][k] B[k][j], the triple loop", "dp", "n x n matrices", "2 n^3",
         {"16 n^3 + 8 n^2", "24 n^2", "8 n^2"}, "B is walked down its columns: far below the peak", plain<gemm_naive>, plain_n<n_gemm>, 4 << 20},
        {ReferenceKernelId::dgemm_openblas, "dgemm_openblas", "cblas_dgemm, C = A B, one thread", "dp", "n x n matrices", "2 n^3",
         {"24 n^2", "24 n^2", "8 n^2"}, "OpenBLAS, as the distribution builds it; its L1 bytes are the compulsory ones (the library's blocking is not counted)",
         plain<gemm_blas>, plain_n<n_gemm>},
        {ReferenceKernelId::atb_ours, "atb_ours", "C = A^T B, A and B K x m: blocks of C in registers over chunks of K: 8 x 16 with AVX-512 when m is a multiple of 16, else 4 x 8 with AVX2+FMA, else 4 x 4 with SSE2 (as the CPU and ROOFLINE_MAX_ISA allow)", "dp",
         "K rows (A and B are K x m)", "2 K m^2 + m^2 ceil(K / chunk)",
         {"3 K m^2 + 8 m^2", "16 K m + 8 m^2", "8 m^2"},
         "tall and skinny: m/8 FLOP/B from memory (2 at m = 16), memory-bound on most machines; L1 as listed with 4 x 8 "
         "blocks (1.5 K m^2 loaded with 8 x 16, 4 K m^2 with 4 x 4: a point counts the block that ran)", atb_ours, n_atb, 0,
         {kAtbParameter}, "K", {{"chunk", "min(max(floor(2048 / m), 16), 256)"}}},
        {ReferenceKernelId::lbm_d3q19, "lbm_d3q19", "one D3Q19 lattice-Boltzmann step, BGK collision, pull streaming, two grids", "dp",
         "n x n x n cells (19 populations each, structure of arrays)", "219 (n-2)^3",
         {"304 (n-2)^3", "304 n (n-2)^2", "152 n (n-2)^2"},
         "FLOPs as the code does them (density, momentum, equilibrium, relaxation); memory traffic assumes the "
         "source's neighbouring planes stay in cache and moves whole rows: (n-2)^2 of each population's source and "
         "destination", plain<lbm>, plain_n<n_lbm>},
        {ReferenceKernelId::fft3d, "fft3d", "FFTW's out-of-place forward 3-D complex DFT (FFTW_ESTIMATE plan)", "dp", "n x n x n points",
         "5 N log2(N)", {"32 N", "32 N", "16 N"},
         "the FLOPs are the nominal count, the convention for comparing FFTs (FFTW's real count: roofline measure --engine "
         "instrument on a program calling it); the bytes are compulsory: the library's passes over the data are not counted",
         plain<fft3d>, plain_n<n_fft>, 0, {}, "n", {{"N", "n^3"}}},
        {ReferenceKernelId::atb_openblas, "atb_openblas", "cblas_dgemm(RowMajor, Trans, NoTrans), C = A^T B, A and B K x m, one thread", "dp",
         "K rows (A and B are K x m)", "2 K m^2", {"16 K m + 8 m^2", "16 K m + 8 m^2", "8 m^2"},
         "OpenBLAS on a shape it is not blocked for; its L1 bytes are the compulsory ones",
         atb_blas, n_atb, 0, {kAtbParameter}, "K"},
        {ReferenceKernelId::spmv_random, "spmv_random", "y = A x, A in CRS: n x n, nnzr nonzeros a row at random columns", "dp",
         "n rows (nnz = n nnzr)", "2 nnz", {"20 nnz + 12 rows + 4", "12 nnz + 20 rows + 4", "8 rows"},
         "x is gathered at random: the memory bytes assume x stays in cache and are a lower bound once it does not "
         "(8 n bytes beyond the last level)",
         spmv_random, n_spmv_random, 0, {{"nnzr", 8, 1, 4096, 1, "nonzeros per row"}}, "n", {{"rows", "n"}, {"nnz", "n nnzr"}}},
    };
    return all;
}

AtbBlock atb_block(std::int64_t m, int widest_bits) {
    if (widest_bits >= 512 && m % 16 == 0) return {8, 16, 512};
    if (widest_bits >= 256) return {4, 8, 256};
    return {4, 4, 128};
}
KernelCounts atb_ours_counts(std::int64_t k, std::int64_t m, const AtbBlock& block) { return atb(k, m, &block); }

std::int64_t atb_chunk_rows(std::int64_t m) { return std::clamp<std::int64_t>(2048 / std::max<std::int64_t>(m, 1), 16, 256); }

KernelParams ReferenceKernel::resolved(const KernelParams& given) const {
    KernelParams out;
    for (const auto& entry : given) {
        const std::string& key = entry.first;  // a structured binding cannot be captured before C++20 in clang
        const std::int64_t value = entry.second;
        const auto it = std::find_if(parameters.begin(), parameters.end(),
                                     [&](const KernelParameter& p) { return p.name == key; });
        if (it == parameters.end()) {
            std::string known;
            for (const auto& p : parameters) known += (known.empty() ? "" : ", ") + p.name;
            throw std::invalid_argument(fmt::format("{} has no parameter '{}' ({})", name, key,
                                                    known.empty() ? "it has none but its size" : "it has: " + known));
        }
        if (value < it->min || value > it->max || value % it->multiple_of != 0)
            throw std::invalid_argument(fmt::format("{}: {} = {}: {} must be {} to {}{}", name, key, value, key, it->min,
                                                    it->max,
                                                    it->multiple_of > 1 ? fmt::format(", a multiple of {}", it->multiple_of)
                                                                        : std::string()));
        out[key] = value;
    }
    for (const auto& p : parameters) out.emplace(p.name, p.default_value);
    return out;
}

const ReferenceKernel& reference_kernel(ReferenceKernelId id) {
    return reference_kernels().at(static_cast<std::size_t>(id));
}

const ReferenceKernel* find_reference_kernel(const std::string& name) {
    for (const auto& k : reference_kernels())
        if (k.name == name) return &k;
    return nullptr;
}

namespace {
// The cache that holds one thread's `working_set`: its index in `caches`, caches.size() when
// none does (a capacity not known holds nothing).
std::size_t home_cache(double working_set, const std::vector<CacheLevel>& caches, int threads) {
    for (std::size_t i = 0; i < caches.size(); ++i) {
        const auto capacity = static_cast<double>(per_thread_capacity(caches[i], threads));
        if (capacity > 0 && working_set <= capacity) return i;
    }
    return caches.size();
}
std::string cache_name(const CacheLevel& c) { return fmt::format("L{}", c.level); }
} // namespace

std::string data_level(double working_set, const std::vector<CacheLevel>& caches, int threads, bool data_cold) {
    const std::size_t home = data_cold ? caches.size() : home_cache(working_set, caches, threads);
    return home < caches.size() ? cache_name(caches[home]) : "DRAM";
}

double working_set_over_cache(const KernelCounts& counts, const std::vector<CacheLevel>& caches, int threads) {
    const std::size_t home = home_cache(counts.working_set, caches, threads);
    for (std::size_t i = home; i-- > 0;)
        if (const auto capacity = static_cast<double>(per_thread_capacity(caches[i], threads)); capacity > 0)
            return counts.working_set / capacity;
    return 0;
}

std::map<std::string, double> bytes_by_level(const KernelCounts& counts, const std::vector<CacheLevel>& caches,
                                             int threads, bool data_cold) {
    std::map<std::string, double> out;
    const double t = std::max(1, threads);
    out["L1"] = t * (counts.loaded + counts.stored);
    // Below L1, the traffic: what is read and written, and the write-allocate reads (as the roofs below L1 count them).
    const double memory = t * (counts.memory_read + counts.memory_written + counts.write_allocate);
    // Every level between L1 and where the data lives carries it (cold: down to DRAM).
    const std::size_t home = data_cold ? caches.size() : home_cache(counts.working_set, caches, threads);
    for (std::size_t i = 1; i <= home && i < caches.size(); ++i) out[cache_name(caches[i])] = memory;
    if (home == caches.size()) out["DRAM"] = memory;
    return out;
}

KernelParamValues parse_kernel_param(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw std::invalid_argument(fmt::format("--param expects NAME=V1,V2,... (got '{}')", message_name(text)));
    KernelParamValues out{text.substr(0, eq), {}, {}};
    std::vector<const ReferenceKernel*> having;
    std::string known;
    for (const auto& k : reference_kernels())
        for (const auto& p : k.parameters) {
            known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", p.name, k.name);
            if (p.name == out.name) having.push_back(&k);
        }
    if (having.empty())
        throw std::invalid_argument(
            fmt::format("--param {}: no kernel has it (parameters: {})", message_name(out.name), known));
    for (std::size_t start = eq + 1; start <= text.size();) {
        const auto comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size())
            throw std::invalid_argument(
                fmt::format("--param {}: '{}' is not a whole number", message_name(out.name), message_name(item)));
        if (std::find(out.values.begin(), out.values.end(), v) == out.values.end()) out.values.push_back(v);
        else if (std::find(out.repeated.begin(), out.repeated.end(), v) == out.repeated.end()) out.repeated.push_back(v);
        start = comma + 1;
    }
    // A value some kernel that has the parameter takes; else the first one's reason.
    for (const auto v : out.values) {
        std::string refused;
        for (const ReferenceKernel* k : having) {
            try {
                (void)k->resolved({{out.name, v}});
                refused.clear();
                break;
            } catch (const std::invalid_argument& e) {
                if (refused.empty()) refused = e.what();
            }
        }
        if (!refused.empty()) throw std::invalid_argument(fmt::format("--param: {}", refused));
    }
    return out;
}

std::vector<std::uint64_t> parse_size_sweep(const std::string& text) {
    // parse_bytes says what is wrong with the size (a unit it does not know, zero, above 1 EiB),
    // naming it; the list or sweep it is part of is named too when that is longer.
    auto size = [&](const std::string& s) {
        try {
            const auto v = parse_bytes(s);
            if (v == 0) throw std::invalid_argument(fmt::format("size must be positive: '{}'", s));
            return v;
        } catch (const std::invalid_argument& e) {
            if (s == text) throw;
            throw std::invalid_argument(fmt::format("in '{}': {}", text, e.what()));
        }
    };
    std::vector<std::uint64_t> out;
    const auto dots = text.find("..");
    if (dots == std::string::npos) {
        std::string::size_type start = 0;
        while (start <= text.size()) {
            const auto comma = text.find(',', start);
            out.push_back(size(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return out;
    }
    const auto colon = text.find(':', dots);
    const auto from = size(text.substr(0, dots));
    const auto to = size(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
    double factor = 2;
    if (colon != std::string::npos) {
        const std::string step = text.substr(colon + 1);
        char* end = nullptr;
        factor = step.size() > 1 && step[0] == 'x' ? std::strtod(step.c_str() + 1, &end) : 0;
        if (!end || *end != '\0' || !(factor >= 1.01) || factor > 1024)
            throw std::invalid_argument(
                fmt::format("'{}': the step must be xF with F from 1.01 to 1024 (e.g. x2, x1.5)", step));
    }
    if (to < from) throw std::invalid_argument(fmt::format("'{}': the sizes must rise ({} > {})", text,
                                                           format_bytes(from), format_bytes(to)));
    for (double s = static_cast<double>(from); s <= static_cast<double>(to) * (1 + 1e-9); s *= factor) {
        out.push_back(static_cast<std::uint64_t>(std::llround(s)));
        if (out.size() > 1000) throw std::invalid_argument(fmt::format("'{}' gives more than 1000 sizes", text));
    }
    return out;
}

} // namespace roofline
