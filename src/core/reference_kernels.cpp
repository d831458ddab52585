#include "core/reference_kernels.hpp"

#include "core/byte_sizes.hpp"

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

KernelCounts dot(std::int64_t n) { return stream(n, 2, 2, false); }

KernelCounts sum_sp(std::int64_t n) {
    KernelCounts c;
    const double e = static_cast<double>(n);
    c.flops = e;
    c.loaded = c.memory_read = c.working_set = F * e;
    return c;
}

// 2-D 5-point Jacobi on an n x n grid, interior points: b = 0.25 (N + S + E + W). With three
// rows in cache (the layer condition) each point reads its source once from memory.
KernelCounts jacobi2d(std::int64_t n) {
    KernelCounts c;
    const double inner = static_cast<double>(n - 2) * static_cast<double>(n - 2);
    c.flops = 4 * inner;
    c.loaded = 4 * D * inner;
    c.stored = D * inner;
    c.memory_read = D * inner;
    c.memory_written = D * inner;
    c.write_allocate = D * inner;
    c.working_set = 2 * D * static_cast<double>(n) * static_cast<double>(n);
    return c;
}

std::int64_t n_copy(double b) { return n_for_arrays(b, 2, D); }
std::int64_t n_three(double b) { return n_for_arrays(b, 3, D); }
std::int64_t n_two(double b) { return n_for_arrays(b, 2, D); }
std::int64_t n_one_sp(double b) { return n_for_arrays(b, 1, F); }
std::int64_t n_grid(double b) { return std::max<std::int64_t>(8, static_cast<std::int64_t>(std::sqrt(b / (2 * D)))); }

const std::string kStreamNote =
    "STREAM (McCalpin); write-allocate: the stored array's lines are read before they are written";

} // namespace

const std::vector<ReferenceKernel>& reference_kernels() {
    static const std::vector<ReferenceKernel> all = {
        {"stream_copy", "c[i] = a[i]", "dp", "n doubles per array", "0", "16 n, +8 n write-allocate", kStreamNote,
         copy, n_copy},
        {"stream_scale", "b[i] = s * c[i]", "dp", "n doubles per array", "n", "16 n, +8 n write-allocate",
         kStreamNote, scale, n_copy},
        {"stream_add", "c[i] = a[i] + b[i]", "dp", "n doubles per array", "n", "24 n, +8 n write-allocate",
         kStreamNote, add, n_three},
        {"stream_triad", "a[i] = b[i] + s * c[i]", "dp", "n doubles per array", "2 n", "24 n, +8 n write-allocate",
         kStreamNote, triad, n_three},
        {"daxpy", "y[i] = a * x[i] + y[i]", "dp", "n doubles per array", "2 n", "24 n (y is read first)", "",
         daxpy, n_two},
        {"ddot", "s += x[i] * y[i]", "dp", "n doubles per array", "2 n", "16 n", "", dot, n_two},
        {"sum_sp_scalar", "s += x[i]", "sp", "n floats", "n", "4 n",
         "one dependent add after another: bound by the add's latency, not its throughput", sum_sp, n_one_sp},
        {"sum_sp_unrolled", "s0 += x[i]; s1 += x[i+1]; s2 += x[i+2]; s3 += x[i+3]", "sp", "n floats", "n", "4 n",
         "four independent chains: scalar adds overlap, up to the scalar add throughput", sum_sp, n_one_sp},
        {"sum_sp_simd", "v0..v3 += x[i..i+15] (4 vectors of 4 floats)", "sp", "n floats", "n", "4 n",
         "SIMD adds on independent vectors: up to the vector add throughput (128-bit)", sum_sp, n_one_sp},
        {"jacobi2d", "b[i][j] = 0.25 (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1])", "dp", "n x n grid",
         "4 (n-2)^2", "40 (n-2)^2 nominal; 16 (n-2)^2 from memory, +8 (n-2)^2 write-allocate",
         "memory traffic assumes three rows of a stay in cache (the layer condition)", jacobi2d, n_grid},
    };
    return all;
}

const ReferenceKernel* find_reference_kernel(const std::string& name) {
    for (const auto& k : reference_kernels())
        if (k.name == name) return &k;
    return nullptr;
}

std::map<std::string, double> bytes_by_level(const KernelCounts& counts, const std::vector<CacheLevel>& caches) {
    std::map<std::string, double> out;
    out["L1"] = counts.loaded + counts.stored;
    const double memory = counts.memory_read + counts.memory_written + counts.write_allocate;
    // The level below cache i sees the memory traffic when the working set spills cache i.
    for (std::size_t i = 0; i < caches.size(); ++i) {
        const std::string below = i + 1 < caches.size() ? fmt::format("L{}", caches[i + 1].level) : "DRAM";
        if (counts.working_set > static_cast<double>(caches[i].size_bytes)) out[below] = memory;
    }
    if (caches.empty()) out["DRAM"] = memory;
    return out;
}

std::vector<std::uint64_t> parse_size_sweep(const std::string& text) {
    auto size = [&](const std::string& s) {
        try {
            const auto v = parse_bytes(s);
            if (v == 0) throw std::invalid_argument("zero");
            return v;
        } catch (const std::invalid_argument&) {
            throw std::invalid_argument(fmt::format("'{}' in '{}' is not a size (e.g. 32K, 8MiB, 1G)", s, text));
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
        if (!end || *end != '\0' || !(factor > 1.01) || factor > 1024)
            throw std::invalid_argument(fmt::format("'{}': the step must be xF with F above 1 (e.g. x2, x1.5)", step));
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
