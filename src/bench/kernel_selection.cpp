#include "bench/kernel_selection.hpp"

#include "bench/isa_support.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline {

std::optional<Isa> parse_isa(const std::string& name) {
    for (Isa isa : {Isa::sse2, Isa::avx2, Isa::avx512})
        if (name == isa_name(isa)) return isa;
    return std::nullopt;
}

bool kernel_allowed(const BenchOptions& options, const std::string& name, Isa isa) {
    if (!options.isa.empty() && options.isa != isa_name(isa)) return false;
    if (!options.kernels.empty() && std::find(options.kernels.begin(), options.kernels.end(), name) == options.kernels.end())
        return false;
    return true;
}

namespace {

KernelInfo info(const std::string& name, KernelKind kind, Isa isa, int bits, const std::string& precision,
                const std::string& what, const char* unit, double flops, double bytes, double bytes_write_allocate) {
    return {name, kind, isa_name(isa), bits, precision, what, unit, flops, bytes, bytes_write_allocate,
            isa_supported(isa)};
}

} // namespace

std::vector<KernelInfo> kernel_catalog() {
    std::vector<KernelInfo> out;
    for (const auto& k : all_compute_kernels())
        out.push_back(info(k.name, KernelKind::compute, k.isa, k.vector_bits, k.precision, k.mix, "iteration",
                           k.flops_per_iteration(), 0, 0));
    for (const auto& k : all_memory_kernels())
        out.push_back(info(k.name, KernelKind::memory, k.isa, k.vector_bits, "dp", k.pattern, "element", k.flops_per_element,
                           k.nominal_bytes_per_element(), k.write_allocate_bytes_per_element()));
    for (const auto& k : all_intensity_kernels())  // one 8-byte load per element, FMAs on it
        out.push_back(info(k.name, KernelKind::intensity, k.isa, k.vector_bits, "dp", "load+fma", "element",
                           k.flops_per_element(), 8, 8));
    return out;
}

void resolve_kernel_selection(BenchOptions& options) {
    if (!options.isa.empty()) {
        const auto isa = parse_isa(options.isa);
        if (!isa) throw BenchOptionError(BenchSetting::isa, fmt::format("unknown ISA '{}' (sse2, avx2 or avx512)", options.isa));
        if (!isa_supported(*isa))
            throw BenchOptionError(BenchSetting::isa,
                                   fmt::format("{}: this CPU (or ROOFLINE_MAX_ISA) does not allow it", options.isa));
    }
    if (options.kernels.empty()) return;
    bool compute = false, memory = false;
    std::vector<std::string> patterns;
    const auto catalog = kernel_catalog();
    for (const auto& name : options.kernels) {
        const auto it = std::find_if(catalog.begin(), catalog.end(), [&](const KernelInfo& k) { return k.name == name; });
        if (it == catalog.end() || it->kind == KernelKind::intensity)
            throw BenchOptionError(BenchSetting::kernel, fmt::format("no kernel '{}' in the catalog", name));
        if (!it->supported)
            throw BenchOptionError(BenchSetting::kernel,
                                   fmt::format("kernel '{}' needs {}, which this CPU (or ROOFLINE_MAX_ISA) lacks",
                                               name, it->isa));
        if (!options.isa.empty() && it->isa != options.isa)
            throw BenchOptionError(BenchSetting::kernel,
                                   fmt::format("kernel '{}' is {}, not the ISA asked for ({})", name, it->isa, options.isa));
        if (it->kind == KernelKind::compute) {
            compute = true;
            if (std::find(options.precisions.begin(), options.precisions.end(), it->precision) == options.precisions.end())
                options.precisions.push_back(it->precision);
        } else {
            memory = true;
            if (std::find(patterns.begin(), patterns.end(), it->what) == patterns.end()) patterns.push_back(it->what);
        }
    }
    options.compute = options.compute && compute;
    options.memory = options.memory && memory;
    if (options.patterns.empty()) options.patterns = patterns;
}

} // namespace roofline
