#include "bench/kernel_check.hpp"

#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>

namespace roofline {
namespace {

// Value of one chain after `steps` operations, in the kernel's precision.
template <class T>
T chain_value(const std::string& kind, int steps, T mul, T add) {
    T x = 1;
    for (int i = 0; i < steps; ++i) {
        if (kind == "fma") x = std::fma(mul, add, x);
        else if (kind == "add") x = x + add;
        else x = x * mul;
    }
    return x;
}

template <class T>
std::string compare_chains(const ComputeKernel& k, const std::vector<double>& out, int steps, double mul, double add) {
    const int lanes = k.lanes();
    int chain = 0;
    auto check = [&](const char* kind, int count) -> std::string {
        const double expected = chain_value<T>(kind, steps, static_cast<T>(mul), static_cast<T>(add));
        for (int c = 0; c < count; ++c, ++chain)
            for (int l = 0; l < lanes; ++l)
                if (out[chain * lanes + l] != expected)
                    return fmt::format("kernel {}: {} chain {} lane {} is {}, expected {}", k.name, kind, c, l,
                                       out[chain * lanes + l], expected);
        return {};
    };
    if (auto e = check("fma", k.fma_chains); !e.empty()) return e;
    if (auto e = check("add", k.add_chains); !e.empty()) return e;
    return check("mul", k.mul_chains);
}

} // namespace

std::string check_compute_kernel(const ComputeKernel& k) {
    // Few enough steps that 1.5^steps and the sums stay exact and finite in SP too.
    const std::uint64_t iterations = 3;
    const int steps = static_cast<int>(iterations) * k.steps_per_iteration;
    const double mul = 1.5, add = 0.25;
    std::vector<double> out(static_cast<std::size_t>(k.chains() * k.lanes()), -1.0);
    k.run(iterations, mul, add, out.data());
    return k.precision == "sp" ? compare_chains<float>(k, out, steps, mul, add)
                               : compare_chains<double>(k, out, steps, mul, add);
}

std::string check_memory_kernel(const MemoryKernel& k) {
    const std::size_t n = k.block_elements * 16;
    struct FreeDeleter { void operator()(double* p) const { std::free(p); } };
    std::vector<std::unique_ptr<double, FreeDeleter>> storage;
    std::vector<double*> arrays;
    for (int a = 0; a < k.arrays; ++a) {
        auto* p = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
        if (!p) return "out of memory";
        storage.emplace_back(p);
        arrays.push_back(p);
    }
    auto b_of = [](std::size_t i) { return static_cast<double>(i % 7) + 0.5; };
    auto c_of = [](std::size_t i) { return 2.0 - static_cast<double>(i % 3); };
    for (std::size_t i = 0; i < n; ++i) {
        arrays[0][i] = k.pattern == "load" ? b_of(i) : -1.0;
        if (k.arrays > 1) arrays[1][i] = b_of(i);
        if (k.arrays > 2) arrays[2][i] = c_of(i);
    }
    const double scalar = 3.0;
    const double result = k.run(arrays.data(), n, 2, scalar);
    for (std::size_t i = 0; i < n; ++i)  // the inputs are left as they were
        if ((k.arrays > 1 && arrays[1][i] != b_of(i)) || (k.arrays > 2 && arrays[2][i] != c_of(i)))
            return fmt::format("kernel {}: an input array changed at element {}", k.name, i);
    return check_stream_output(k, arrays.data(), n, result, scalar, 1);
}

std::string check_stream_output(const MemoryKernel& k, const double* const* arrays, std::size_t n, double returned,
                                double scalar, std::size_t stride) {
    if (n < k.block_elements) return {};
    const std::string base = k.pattern.substr(0, k.pattern.find("_nt"));
    if (base == "load") {
        double expected = 0;  // the last block read: the last two vectors of each quarter
        const std::size_t quarter = n / 4, step = k.block_elements / 4;
        for (std::size_t end = quarter; end <= n; end += quarter)
            for (std::size_t i = end - step; i < end; ++i) expected += arrays[0][i];
        if (returned != expected) return fmt::format("kernel {}: sum is {}, expected {}", k.name, returned, expected);
        return {};
    }
    const auto check_element = [&](std::size_t i) -> std::string {
        double expected = 0;
        if (base == "store") expected = scalar;
        else if (base == "copy") expected = arrays[1][i];
        else if (base == "triad") expected = std::fma(scalar, arrays[2][i], arrays[1][i]);
        else if (base == "2ld1st") expected = arrays[1][i] + arrays[2][i];
        else return fmt::format("kernel {}: unknown pattern {}", k.name, k.pattern);
        // A triad without FMA contraction rounds twice: one unit in the last place apart.
        const bool equal = arrays[0][i] == expected ||
                           (base == "triad" && arrays[0][i] == arrays[1][i] + scalar * arrays[2][i]);
        if (!equal) return fmt::format("kernel {}: element {} is {}, expected {}", k.name, i, arrays[0][i], expected);
        return {};
    };
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, stride))
        if (auto problem = check_element(i); !problem.empty()) return problem;
    for (std::size_t i = n - k.block_elements; i < n; ++i)  // the tail, which a stride can miss
        if (auto problem = check_element(i); !problem.empty()) return problem;
    return {};
}

std::string check_intensity_kernel(const IntensityKernel& k) {
    // Small integers times 0.5 and their sums are exact in any order.
    const std::size_t n = k.block_elements * 8;
    struct FreeDeleter { void operator()(double* p) const { std::free(p); } };
    std::unique_ptr<double, FreeDeleter> a(static_cast<double*>(std::aligned_alloc(64, n * sizeof(double))));
    for (std::size_t i = 0; i < n; ++i) a.get()[i] = static_cast<double>(i % 5 + 1);
    const std::uint64_t passes = 2;
    const double scale = 0.5;
    const std::size_t lanes = static_cast<std::size_t>(k.vector_bits / 64);
    double expected = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t vector_in_group = (i / lanes) % 8;
        double times = k.fmas_per_group >= 8 ? k.fmas_per_group / 8 : (vector_in_group < std::size_t(k.fmas_per_group) ? 1 : 0);
        expected += a.get()[i] * scale * times;
    }
    expected *= passes;
    const double got = k.run(a.get(), n, passes, scale);
    if (got != expected) return fmt::format("kernel {}: sum is {}, expected {}", k.name, got, expected);
    return {};
}

} // namespace roofline
