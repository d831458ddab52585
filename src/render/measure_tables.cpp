#include "render/measure_tables.hpp"

#include "core/level.hpp"
#include "render/advice_text.hpp"
#include "render/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

std::string clip(const std::string& name, std::size_t width) {
    return name.size() <= width ? name : name.substr(0, width - 3) + "...";
}

// Table cells: rates and intensities as everywhere (format_number), counts as
// counts (format_count); "-" when there is no number.
std::string cell(double v) { return std::isfinite(v) ? format_number(v) : "-"; }
std::string count_cell(double v) { return std::isfinite(v) ? format_count(v) : "-"; }

} // namespace

std::string render_measured_points(const std::vector<MeasuredRow>& rows, bool judged) {
    std::string out = fmt::format("{:<24} {:>10} {:>7} {:>12} {:>10} {:>14} {:>10}", "region", "seconds", "threads",
                                  "GFLOP", "GFLOP/s", "FLOP/byte", "bytes at");
    if (judged) out += fmt::format(" {:<22} {:>8}", "binding roof", "% attain");
    out += "\n";
    for (const auto& row : rows) {
        const Point& p = row.point;
        // The level closest to the core with bytes.
        std::string level = "-";
        double intensity_value = NAN;
        for (const auto& [name, bytes] : p.bytes) {
            const auto i = intensity(p, name);
            if (i && (level == "-" || level_before(name, level))) level = name, intensity_value = *i;
        }
        out += fmt::format("{:<24} {:>10.4f} {:>7} {:>12} {:>10} {:>14} {:>10}", clip(p.name, 24), p.seconds, p.threads,
                           cell(p.work / 1e9), cell(performance(p)), cell(intensity_value), level);
        if (judged) {
            if (row.analysis)
                out += fmt::format(" {:<22} {:>8}", row.analysis->binding_roof, efficiency_text(*row.analysis));
            else
                out += fmt::format(" {:<22} {:>8}", "-", "-");
        }
        out += "\n";
    }
    for (const auto& row : rows)
        if (row.analysis && row.analysis->above_roof)
            out += fmt::format("{}: {}\n", row.point.name, above_roof_text(*row.analysis->above_roof));
    return out;
}

std::string render_function_table(const std::string& title, const std::string& name_header,
                                  const std::vector<FunctionRow>& rows) {
    const bool calls = !rows.empty() && std::all_of(rows.begin(), rows.end(), [](auto& r) { return r.calls.has_value(); });
    std::string out = title + "\n";
    out += fmt::format("{:<40}", name_header);
    if (calls) out += fmt::format(" {:>10}", "calls");
    out += fmt::format(" {:>14} {:>14} {:>12} {:>10}\n", "FLOPs", "L1 bytes", "FLOP/byte", "CPU s");
    for (const auto& r : rows) {
        out += fmt::format("{:<40}", clip(r.name, 40));
        if (calls) out += fmt::format(" {:>10}", *r.calls);
        out += fmt::format(" {:>14} {:>14} {:>12} {:>10}\n", count_cell(r.flops), count_cell(r.bytes),
                           r.bytes > 0 ? cell(r.flops / r.bytes) : "-",
                           r.cpu_seconds ? fmt::format("{:.4f}", *r.cpu_seconds) : "-");
    }
    return out;
}

} // namespace roofline
