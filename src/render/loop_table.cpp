#include "render/loop_table.hpp"

#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {

std::string render_loop_table(const std::string& title, const std::vector<LoopRow>& rows) {
    const bool dram = std::any_of(rows.begin(), rows.end(), [](const LoopRow& r) { return r.self_dram_bytes.has_value(); });
    const bool calls = std::any_of(rows.begin(), rows.end(), [](const LoopRow& r) { return r.call_flops > 0; });
    const bool sampled = std::any_of(rows.begin(), rows.end(), [](const LoopRow& r) { return r.self_samples.has_value(); });
    std::vector<std::string> names;
    std::size_t width = 4;
    for (const auto& r : rows) {
        names.push_back(std::string(2 * static_cast<std::size_t>(std::max(0, r.depth - 1)), ' ') + terminal_text(r.name));
        width = std::max(width, std::min<std::size_t>(names.back().size(), 60));
    }
    const auto count = [](double v) { return std::isfinite(v) ? format_quantity(v) : std::string("-"); };
    std::string out = title + "\n";
    out += fmt::format("{:<{}} {:>12} {:>12}", "loop", width, "self FLOPs", "incl FLOPs");
    if (calls) out += fmt::format(" {:>12}", "call FLOPs");
    out += fmt::format(" {:>12} {:>10}", "L1 bytes", "FLOP/byte");
    if (dram) out += fmt::format(" {:>12} {:>11}", "DRAM bytes", "FLOP/DRAM B");
    out += fmt::format(" {:>12} {:>9}", "iterations", "entries");
    if (sampled) out += fmt::format(" {:>16}", "CPU s (self)");
    out += "\n";
    std::string function;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        if (i == 0 || r.function != function) {
            function = r.function;
            out += "in " + terminal_text(function) + ":\n";
        }
        out += fmt::format("{:<{}} {:>12} {:>12}", names[i], width, count(r.self_flops), count(r.inclusive_flops));
        if (calls) out += fmt::format(" {:>12}", r.call_flops > 0 ? count(r.call_flops) : "-");
        out += fmt::format(" {:>12} {:>10}", count(r.self_bytes),
                           r.self_bytes > 0 ? format_number(r.self_flops / r.self_bytes) : "-");
        if (dram)
            out += fmt::format(" {:>12} {:>11}", r.self_dram_bytes ? count(*r.self_dram_bytes) : "-",
                               r.self_dram_bytes && *r.self_dram_bytes > 0 ? format_number(r.self_flops / *r.self_dram_bytes)
                                                                           : "-");
        out += fmt::format(" {:>12} {:>9}", count(r.iterations), count(r.entries));
        if (sampled) {
            const long long n = r.self_samples.value_or(0);
            out += n > 0 ? fmt::format(" {:>16}", fmt::format("{:.4f} +/-{:.0f}%", static_cast<double>(n) * r.seconds_per_sample,
                                                               100.0 / std::sqrt(static_cast<double>(n))))
                         : fmt::format(" {:>16}", "no samples");
        }
        out += "\n";
    }
    return terminal_block(out);
}

} // namespace roofline
