#include "render/reference_kernel_text.hpp"

#include "core/byte_sizes.hpp"

#include <fmt/format.h>

namespace roofline {

std::string reference_kernel_list_text(const std::vector<const ReferenceKernel*>& kernels) {
    std::string out;
    for (const ReferenceKernel* k : kernels) {
        out += fmt::format("{:<16} {}\n", k->name, k->code);
        std::string where;
        for (const auto& v : k->where) where += fmt::format("{}{} = {}", where.empty() ? "; where " : ", ", v.name, v.formula);
        out += fmt::format("{:<16} {}: {}; FLOPs {}; bytes: L1 {}, memory {}{}{} ({})\n", "", k->size_symbol, k->parameter,
                           k->flops_text, k->bytes.l1, k->bytes.memory,
                           k->bytes.write_allocate.empty() ? "" : " + " + k->bytes.write_allocate + " write-allocate",
                           where, k->precision == "sp" ? "single precision" : "double precision");
        for (const auto& p : k->parameters)
            out += fmt::format("{:<16} --param {}=...: {} (default {}; {} to {}{})\n", "", p.name, p.meaning,
                               p.default_value, p.min, p.max,
                               p.multiple_of > 1 ? fmt::format(", a multiple of {}", p.multiple_of) : "");
        if (!k->note.empty()) out += fmt::format("{:<16} {}\n", "", k->note);
    }
    return out;
}

std::string kernel_sweep_header() {
    return fmt::format("{:<20} {:>10} {:>12} {:>12} {:>9} {:>9} {:>6} {:>8}  {}\n", "kernel", "working set", "n",
                       "s/call", "GFLOP/s", "GB/s", "at", "spread", "check");
}

std::string kernel_sweep_row(const std::string& kernel, const Point& p, const std::string& level,
                             const std::string& check) {
    const auto detail = [&](const char* k) {
        const auto it = p.details.find(k);
        return it == p.details.end() ? 0.0 : it->second;
    };
    const double fastest = detail("seconds_fastest"), slowest = detail("seconds_slowest");
    const auto bytes = p.bytes.find(level);
    const std::string rate = bytes != p.bytes.end() && p.seconds > 0
                                 ? fmt::format("{:.3g}", bytes->second / p.seconds * 1e-9)
                                 : std::string("-");
    return fmt::format("{:<20} {:>10} {:>12} {:>12.4g} {:>9.3g} {:>9} {:>6} {:>7.1f}%  {}\n", kernel,
                       format_bytes(static_cast<std::uint64_t>(detail("working_set_bytes"))),
                       static_cast<long long>(detail("n")), p.seconds, performance(p), rate, level,
                       fastest > 0 ? 100 * (slowest / fastest - 1) : 0.0, check);
}

} // namespace roofline
