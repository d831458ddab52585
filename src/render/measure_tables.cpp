#include "render/measure_tables.hpp"

#include "core/cut_off_point.hpp"
#include "core/level.hpp"
#include "render/advice_text.hpp"
#include "render/number_format.hpp"
#include "render/short_names.hpp"
#include "render/text_escape.hpp"
#include "render/timing_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

// The width of a name column: the longest name, between `least` and `most`.
std::size_t name_width(const std::vector<std::string>& names, std::size_t least, std::size_t most) {
    std::size_t w = least;
    for (const auto& n : names) w = std::max(w, n.size());
    return std::min(w, most);
}

// Table cells: rates and intensities as everywhere (format_number), counts with an SI
// prefix (80.0M, not 8e+07; -o and the store keep the exact counts); "-" when there is
// no number.
std::string cell(double v) { return std::isfinite(v) ? format_number(v) : "-"; }
std::string count_cell(double v) { return std::isfinite(v) ? format_quantity(v) : "-"; }

// The level of a point with no FLOPs nearest its roof; null when none.
const LevelBandwidth* nearest_level(const std::optional<DataMovement>& m) {
    if (!m) return nullptr;
    for (const auto& t : m->levels)
        if (t.level == m->nearest_level) return &t;
    return nullptr;
}

} // namespace

std::string render_measured_points(const std::vector<MeasuredRow>& rows, bool judged) {
    std::vector<std::string> names;
    for (const auto& row : rows) names.push_back(terminal_text(row.point.name));  // escaped, then measured
    const std::size_t width = name_width(names, 24, 60);
    names = short_names(names, width);
    std::string out = fmt::format("{:<{}} {:>10} {:>7} {:>12} {:>10} {:>14} {:>10}", "region", width, "seconds",
                                  "threads", "GFLOP", "GFLOP/s", "FLOP/byte", "bytes at");
    if (judged) out += fmt::format(" {:<22} {:>8}", "binding roof", "% attain");
    // How each time was taken, when the native run was repeated (measure --repeat).
    const bool timed = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return timing_of(r.point).has_value(); });
    if (timed) out += "  timed";
    out += "\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto& row = rows[r];
        const Point& p = row.point;
        // Judged: the intensity at the level of its binding roof (report's), which the % is of: the
        // closest level's beside a DRAM roof read "0.1000 L1  DRAM copy+WA", and 0.1 x that roof is
        // not what it caps. Else the level closest to the core with bytes.
        std::string level = "-";
        double intensity_value = NAN;
        if (judged && row.analysis && !row.analysis->intensity_level.empty() && std::isfinite(row.analysis->intensity)) {
            level = row.analysis->intensity_level;
            intensity_value = row.analysis->intensity;
        } else {
            for (const auto& [name, bytes] : p.bytes) {
                const auto i = intensity(p, name);
                if (i && (level == "-" || level_before(name, level))) level = name, intensity_value = *i;
            }
        }
        // Not counted (time only): "-", never 0 GFLOP/s.
        const double work = p.work_counted ? p.work / 1e9 : NAN;
        const double rate = p.work_counted ? performance(p) : NAN;
        if (!p.work_counted) intensity_value = NAN;
        out += fmt::format("{:<{}} {:>10.4f} {:>7} {:>12} {:>10} {:>14} {:>10}", names[r], width, p.seconds,
                           p.threads, cell(work), cell(rate), cell(intensity_value), level);
        if (judged) {
            if (row.analysis)
                out += fmt::format(" {:<22} {:>8}", row.analysis->binding_roof, efficiency_text(*row.analysis));
            else if (const auto* nearest = nearest_level(row.movement))
                out += fmt::format(" {:<22} {:>8}", nearest->roof, format_percent(nearest->share));
            else
                out += fmt::format(" {:<22} {:>8}", "-", "-");
        }
        if (timed) {
            const auto t = timing_of(p);
            out += "  " + (t ? timing_text(*t) : std::string("-"));
        }
        out += "\n";
    }
    for (const auto& row : rows)
        if (const auto* nearest = judged ? nearest_level(row.movement) : nullptr)
            out += terminal_text(fmt::format("{}: no FLOPs, so its % is of bandwidth: {} GB/s at {}, of {}'s {} GB/s, "
                                             "the level nearest its roof (report gives every level)",
                                             row.point.name, format_number(nearest->gbs), nearest->level, nearest->roof,
                                             format_number(nearest->roof_gbs))) +
                   "\n";
    // A level above its roof (no level is then the nearest, the row shows "-"): named, as a FLOP row's is.
    for (const auto& row : rows) {
        if (!judged || !row.movement) continue;
        std::vector<std::string> above;
        for (const auto& t : row.movement->levels)
            if (t.above_roof)
                above.push_back(fmt::format("{} GB/s at {}, above {}'s {} GB/s ({})", format_number(t.gbs), t.level,
                                            t.roof, format_number(t.roof_gbs),
                                            above_roof_level_causes(*row.movement, t.level)));
        if (above.empty()) continue;
        out += terminal_text(fmt::format("{}: no FLOPs, and its bandwidth is above the roof, which cannot be: {}; not "
                                         "judged",
                                         row.point.name, fmt::format("{}", fmt::join(above, "; ")))) +
               "\n";
    }
    for (const auto& row : rows)
        if (row.analysis && row.analysis->above_roof)
            out += fmt::format("{}: {}\n", terminal_text(row.point.name), above_roof_text(*row.analysis->above_roof));
    // More threads than CPUs allowed: the threads column is not the count its roofs are of.
    for (const auto& row : rows)
        if (row.analysis && row.analysis->judged_threads)
            out += fmt::format("{}: {}\n", terminal_text(row.point.name), judged_threads_text(*row.analysis->judged_threads));
    // A region a signal cut off (core/cut_off_point): its row looks like a finished region's.
    for (const auto& row : rows)
        if (const auto sig = cut_off_signal(row.point))
            out += fmt::format("{}: {}\n", terminal_text(row.point.name), cut_off_text(*sig, row.point.work_counted));
    // Sampled points (functions, loops) beside a run of several threads: their "1" is not how many ran them.
    const auto sampled = [](const MeasuredRow& r) { return r.point.details.count("samples") > 0; };
    if (std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return sampled(r) && r.point.threads == 1; }) &&
        std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.point.threads > 1; }))
        out += "functions' and loops' points (sampled) show threads 1: their seconds are CPU time summed over the "
               "threads that ran them (two threads 6 ms each: 12 ms), judged on one thread's roofs\n";
    return terminal_block(out);  // roof names come from machine files
}

std::string render_function_table(const std::string& title, const std::string& name_header,
                                  const std::string& time_header, const std::vector<FunctionRow>& rows) {
    const bool calls = !rows.empty() && std::all_of(rows.begin(), rows.end(), [](auto& r) { return r.calls.has_value(); });
    const bool notes = std::any_of(rows.begin(), rows.end(), [](auto& r) { return !r.time_note.empty(); });
    const bool dram = std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.dram_bytes.has_value(); });
    std::vector<std::string> names;
    for (const auto& r : rows) names.push_back(terminal_text(r.name));  // symbols are anyone's bytes
    const std::size_t width = name_width(names, name_header.size(), 80);
    names = short_names(names, width);
    std::string out = title + "\n";
    out += fmt::format("{:<{}}", name_header, width);
    if (calls) out += fmt::format(" {:>10}", "calls");
    out += fmt::format(" {:>14} {:>14} {:>12}", "FLOPs", "L1 bytes", "FLOP/byte");
    if (dram) out += fmt::format(" {:>14} {:>12}", "DRAM bytes", "FLOP/DRAM B");
    out += fmt::format(" {:>10}", time_header);
    out += notes ? "  time from\n" : "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        out += fmt::format("{:<{}}", names[i], width);
        if (calls) out += fmt::format(" {:>10}", *r.calls);
        out += fmt::format(" {:>14} {:>14} {:>12}", count_cell(r.flops), count_cell(r.bytes),
                           r.bytes > 0 ? cell(r.flops / r.bytes) : "-");
        if (dram)
            out += fmt::format(" {:>14} {:>12}", r.dram_bytes ? count_cell(*r.dram_bytes) : "-",
                               r.dram_bytes && *r.dram_bytes > 0 ? cell(r.flops / *r.dram_bytes) : "-");
        out += fmt::format(" {:>10}", r.seconds ? fmt::format("{:.4f}", *r.seconds) : "-");
        out += notes ? "  " + terminal_text(r.time_note) + "\n" : "\n";
    }
    return terminal_block(out);
}

std::string render_listed_share(const ListedShare& s) {
    if (s.left_out == 0) return "";
    // A share as a percentage with the digits that tell it from none and from all.
    const auto percent = [](double part, double all) {
        const double v = 100 * part / all;
        if (part <= 0 || part >= all) return fmt::format("{}%", part <= 0 ? 0 : 100);
        if (v < 10) return format_number(v) + "%";
        return fmt::format("{:.{}f}%", v, v < 99.9 ? 1 : 3);
    };
    const auto plural = [](std::size_t n, const std::string& noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); };
    const bool flops = s.all_flops > 0;
    const bool timed = s.all_seconds && *s.all_seconds > 0 && s.listed_seconds;
    std::string out;
    if (s.listed == 0) out = fmt::format("no {} listed", s.noun);
    else out = fmt::format("the {} listed {}", plural(s.listed, s.noun), s.listed == 1 ? "holds" : "hold");
    if (s.listed > 0 && flops)
        out += fmt::format(" {} of the FLOPs{}", percent(s.listed_flops, s.all_flops), s.own_code ? (s.listed == 1 ? " in its own code" : " in their own code") : "");
    if (s.listed > 0 && timed)
        out += fmt::format("{} {} of the sampled CPU time", flops ? " and" : "", percent(*s.listed_seconds, *s.all_seconds));
    out += fmt::format("; {} more", s.left_out);
    if (flops && s.left_out_flops > 0 && s.left_out == 1)
        out += fmt::format(" holds {} of the FLOPs", percent(s.left_out_flops, s.all_flops));
    else if (flops && s.left_out_flops > 0)
        out += fmt::format(" hold {} of the FLOPs, the largest of them {}", percent(s.left_out_flops, s.all_flops),
                           percent(s.largest_left_out_flops, s.all_flops));
    else if (flops)
        out += fmt::format(" {} no FLOPs", s.left_out == 1 ? "holds" : "hold");
    else if (timed && s.left_out_seconds && !(*s.left_out_seconds > 0))  // they never ran while sampled
        out += fmt::format(" {} none of the sampled CPU time", s.left_out == 1 ? "holds" : "hold");
    else if (timed)  // a program without FLOPs (a histogram): the time they hold, their own
        out += fmt::format(" {} {} of the sampled CPU time", s.left_out == 1 ? "holds" : "hold",
                           percent(s.left_out_seconds ? *s.left_out_seconds
                                                      : std::max(0.0, *s.all_seconds - *s.listed_seconds),
                                   *s.all_seconds));
    if (s.lower_lists > 0) out += fmt::format(": --min-share {} lists {} more", s.lower_min_share_percent, s.lower_lists);
    return terminal_text(out) + "\n";
}

} // namespace roofline
