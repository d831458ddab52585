// What every reference kernel family (bench/reference_*.cpp) builds its code from: the
// kernel's arrays (64-byte aligned, filled), one instance of its code (its call and its
// check), and the vector helpers the hand-blocked loops share. Internal to bench: the families
// register their code in bench/reference_kernel_registry.hpp and the runner times it.
#pragma once

#include "bench/reference_kernel_registry.hpp"
#include "bench/reference_kernel_run.hpp"

#include <fmt/core.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace roofline {
namespace reference_code {

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

// Four doubles in a vector (the dot product and the row-major MVM: two vector partial sums or
// more, compiled for AVX2+FMA and for the baseline).
typedef double v4df __attribute__((vector_size(32)));
typedef double v4df_unaligned __attribute__((vector_size(32), aligned(8)));  // rows of a matrix
// By reference: a 32-byte vector passed by value has another ABI without AVX (GCC warns).
inline const v4df_unaligned& load4(const double* p) { return *reinterpret_cast<const v4df_unaligned*>(p); }
inline double lanes_sum(const v4df& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

} // namespace reference_code

// Values chosen so that every result is exact in floating point, whatever the order of
// the adds: the check is an equality.
class ReferenceInstance {
public:
    virtual ~ReferenceInstance() = default;
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
    reference_code::Array<T> alloc(std::int64_t n, T value) {
        auto a = reference_code::allocate<T>(n, value);
        buffers_.emplace_back(a.get(), static_cast<std::size_t>(n) * sizeof(T));
        return a;
    }

private:
    std::vector<std::pair<const void*, std::size_t>> buffers_;
};

namespace reference_code {

inline std::string expect_at(const char* what, std::int64_t i, double got, double want) {
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

} // namespace reference_code

// Each family's code, added to the registry (reference_kernel_registry.cpp calls them all).
void append_stream_kernels(std::vector<ReferenceKernelCode>& out);   // STREAM, daxpy, ddot
void append_sum_kernels(std::vector<ReferenceKernelCode>& out);      // single-precision sums
void append_stencil_kernels(std::vector<ReferenceKernelCode>& out);  // jacobi2d, stencil3d, lbm_d3q19
void append_dense_kernels(std::vector<ReferenceKernelCode>& out);    // MVM, DGEMM, A^T B (ours, OpenBLAS)
void append_sparse_kernels(std::vector<ReferenceKernelCode>& out);   // SpMV in CRS
void append_fft_kernels(std::vector<ReferenceKernelCode>& out);      // FFTW's 3-D FFT

} // namespace roofline
