#include "render/bench_summary.hpp"

#include "core/byte_sizes.hpp"
#include "core/peak.hpp"
#include "core/roof_consistency.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

// What a table's eff column marked, for the legend under it.
struct TheoryMarks {
    bool at = false, above = false;
};

// A theoretical figure and the measured one's share of it; "?" when unknown. A
// share above 100% cannot be true (a wrong table entry, clock or timing): it is
// flagged, not printed as a result. The share is a fixed-width cell with one mark
// after it ('*' at theoretical, '!' above), explained under the table (theory_legend),
// so a marked row keeps the columns after it in line.
std::string theory_columns(double measured, double theoretical, TheoryMarks& marks) {
    const auto share = share_of_theoretical(measured, theoretical);
    if (!share) return fmt::format("{:>9} {:>5} ", "?", "?");
    if (*share > 1 + kTheoryTolerance) {
        marks.above = true;
        return fmt::format("{:>9.1f} {:>4.0f}%!", theoretical, 100 * *share);
    }
    // Within the clock measurement's error of the theory: at it, not above it.
    if (*share > 1) {
        marks.at = true;
        return fmt::format("{:>9.1f} {:>4}%*", theoretical, 100);
    }
    return fmt::format("{:>9.1f} {:>4.0f}% ", theoretical, 100 * *share);
}

// The marks' meaning, under a table that used them.
std::string theory_legend(const TheoryMarks& marks, const char* indent) {
    std::string s;
    if (marks.at)
        s += fmt::format("{}* at theoretical: above it by less than the measured clock's {:.0f}% error\n", indent,
                         100 * kTheoryTolerance);
    if (marks.above)
        s += fmt::format("{}! above theoretical: cannot be true (a wrong table entry, clock or timing)\n", indent);
    return s;
}

// A figure a file may leave out (0: not given): "?" in a table column.
std::string known_or_unknown(double value, int width) {
    return value > 0 ? fmt::format("{:>{}.1f}", value, width) : fmt::format("{:>{}}", "?", width);
}

// The spread of a figure's samples; "?" when the file records no samples.
std::string cv_column(const Stats& s) {
    const bool known = (s.runs > 0 || s.bursts > 0) && std::isfinite(s.cv);
    return known ? fmt::format("{:>5.1f}%", 100 * s.cv) : fmt::format("{:>6}", "?");
}

std::string clock_text(double ghz) { return ghz > 0 ? fmt::format("{:.2f} GHz", ghz) : "unknown"; }

std::string burst_column(const Stats& s) {
    if (s.bursts == 0) return fmt::format("{:>4}", s.runs);
    return s.rejected_bursts > 0 ? fmt::format("{:>2}-{}", s.bursts, s.rejected_bursts) : fmt::format("{:>4}", s.bursts);
}

std::string gpu_summary(const GpuModel& g) {
    // NVIDIA's architecture is its compute capability; another vendor's is named, with the vendor.
    const std::string architecture =
        g.vendor == GpuVendor::nvidia && g.architecture.empty()
            ? fmt::format("compute capability {}.{}", g.compute_capability_major, g.compute_capability_minor)
            : fmt::format("{} architecture {}", gpu_vendor_name(g.vendor),
                          g.architecture.empty() ? std::string("unknown") : terminal_text(g.architecture));
    std::string s = fmt::format("\nGPU {}: {}, {}, {} SMs, SM clock {} (max {}), {} of memory\n",
                                g.index, terminal_text(g.name), architecture, g.sm_count,
                                g.sm_clock_mhz > 0 ? fmt::format("{:.0f} MHz", g.sm_clock_mhz) : "unknown",
                                g.max_sm_clock_mhz > 0 ? fmt::format("{:.0f} MHz", g.max_sm_clock_mhz) : "unknown",
                                g.memory_bytes > 0 ? format_bytes(g.memory_bytes) : "unknown");
    if (!g.compute.empty()) {
        s += "  Compute (G/s of FLOP or OP; theory = SMs x the SM clock read while it ran x the architecture's\n"
             "  per-clock rate, dense)\n";
        s += fmt::format("    {:<38} {:>10} {:>9} {:>6} {:>8}\n", "roof", "G/s", "theory", "eff ", "clock");
        TheoryMarks marks;
        for (const auto& r : g.compute)
            s += fmt::format("    {:<38} {:>10.1f} {} {:>8}\n", terminal_text(r.name), r.gflops,
                             theory_columns(r.gflops, r.theoretical_gflops, marks),
                             r.clock_mhz > 0 ? fmt::format("{:.0f} MHz", r.clock_mhz) : "?");
        s += theory_legend(marks, "    ");
    }
    if (!g.memory.empty()) {
        s += "  Memory (GB/s; DRAM theory = memory clock x 2 x bus width)\n";
        s += fmt::format("    {:<6} {:<8} {:>10} {:>9} {:>6} {:>11} {:>7}\n", "level", "pattern", "GB/s", "theory", "eff ",
                         "work. set", "blk/SM");
        TheoryMarks marks;
        for (const auto& r : g.memory)
            s += fmt::format("    {:<6} {:<8} {:>10.1f} {} {:>11} {:>7}\n", r.level, terminal_text(r.pattern), r.gbs,
                             theory_columns(r.gbs, r.theoretical_gbs, marks),
                             r.working_set_bytes > 0 ? format_bytes(r.working_set_bytes) : "?", r.blocks_per_sm);
        s += theory_legend(marks, "    ");
    }
    if (!g.bus.empty()) {
        s += "  Host-device bus (GB/s, the best size)\n";
        for (const auto& r : g.bus)
            s += fmt::format("    {:<14} {:<9} {:>8.1f} at {}\n", r.direction, r.pinned ? "pinned" : "pageable", r.gbs,
                             r.bytes > 0 ? format_bytes(r.bytes) : "?");
    }
    return s;
}

// The caches as used, with what the machine reported where it differs.
std::string caches_line(const std::vector<CacheLevel>& caches) {
    std::string s;
    for (const auto& c : caches) {
        s += fmt::format("{}L{} {}", s.empty() ? "" : ", ", c.level, format_bytes(c.size_bytes));
        if (c.size_source == "table" || c.size_source == "measured")
            s += fmt::format(" ({}; reported {})", c.size_source, format_bytes(c.reported_size_bytes));
        else if (c.doubtful)
            s += " (doubtful)";
    }
    if (s.empty()) return s;
    const bool probed = std::any_of(caches.begin(), caches.end(), [](const CacheLevel& c) { return c.measured_size_bytes > 0; });
    return fmt::format("Caches: {}{}\n", s, probed ? "; checked against the load curve" : "");
}

// One line for many notes of one kind, or the notes themselves when few.
void add_collapsed(std::vector<std::string>& lines, const std::vector<std::string>& notes, const std::string& summary) {
    if (notes.size() <= 2) lines.insert(lines.end(), notes.begin(), notes.end());
    else lines.push_back(fmt::format("{} {}", notes.size(), summary));
}

std::vector<std::string> shown_notes(const std::vector<std::string>& warnings, bool verbose) {
    if (verbose) return warnings;
    std::vector<std::string> lines, unconfirmed, unstable, remeasured, remeasured_names;
    const std::string clock_mark = fmt::format(": {}: ", kClockRemeasuredNextToRoof);
    for (const auto& w : warnings) {
        if (w.starts_with("unconfirmed figure:")) unconfirmed.push_back(w);
        else if (w.starts_with("unstable figure:")) unstable.push_back(w);
        else if (const auto at = w.find(clock_mark); at != std::string::npos) {
            remeasured.push_back(w);
            remeasured_names.push_back(w.substr(0, at));
        } else lines.push_back(w);
    }
    // Roofs kept at a clock read again next to them (a host that moved the clock): each note
    // names its readings; many of them, one line naming the roofs.
    if (remeasured.size() <= 2)
        lines.insert(lines.end(), remeasured.begin(), remeasured.end());
    else
        lines.push_back(fmt::format("{} roofs came out above their limit at the clock measured before the run and were "
                                    "kept, each under its limit at the clock read again next to it ({}): --verbose "
                                    "gives the readings, the model's theoretical_clock too",
                                    remeasured.size(), fmt::join(remeasured_names, "; ")));
    add_collapsed(lines, unconfirmed,
                  "figures rest on one burst each (not confirmed at a second moment of the run): a longer "
                  "--time-budget confirms them; --verbose lists them");
    add_collapsed(lines, unstable,
                  "figures had bursts that disagree by more than 2% (a noisy host): rerun when it is quieter; "
                  "--verbose lists them");
    return lines;
}

} // namespace

std::string format_bench_summary(const MachineModel& m, bool verbose) {
    std::string s;
    const Environment& e = m.environment;
    // A spec sheet's figures are what it claims, not measurements: said so, with the clock it writes.
    const bool sheet = e.mode == BenchMode::spec;
    if (sheet)
        s += fmt::format("{}: {} core{}, clock {} (a spec sheet: every figure is as written in it, none measured)\n",
                         terminal_text(m.cpu.model), m.cpu.cores, m.cpu.cores == 1 ? "" : "s",
                         m.cpu.clock_ghz > 0 ? clock_text(m.cpu.clock_ghz) : std::string("not written"));
    else
        s += fmt::format("{}: {} core{}, measured clock {}\n", terminal_text(m.cpu.model), m.cpu.cores,
                         m.cpu.cores == 1 ? "" : "s",
                         e.clock_before_ghz > 0 || e.clock_after_ghz > 0
                             ? fmt::format("{} (before) / {} (after)", clock_text(e.clock_before_ghz),
                                           clock_text(e.clock_after_ghz))
                             : std::string("unknown"));
    if (!e.restricted_to.empty())
        s += fmt::format("Kept to: {} (these roofs are that code's, not the machine's best; commands judging "
                         "points skip this model unless it is named)\n", terminal_text(e.restricted_to));
    if (!m.environment.statistic.empty())
        s += "Figures: " + m.environment.statistic + ". Column 'burst': bursts kept[-set aside].\n";
    s += caches_line(m.caches);
    const std::string arch = m.environment.microarchitecture.empty() ? "CPU not in the table: theory unknown"
                                                                      : m.environment.microarchitecture;
    if (!m.compute.empty()) {
        if (sheet)
            s += "\nCompute (GFLOP/s; theory = the sheet's peak, which the roof is)\n";
        else
            s += fmt::format("\nCompute (GFLOP/s; theory = cores used x measured clock x best FLOPs/cycle of the mix's "
                             "op kinds, {})\n", arch);
        s += fmt::format("  {:<42} {:>9} {:>9} {:>6} {:>6} {:>5}  {}\n", "roof", "GFLOP/s", "theory", "eff ", "CV",
                         "burst", "kernel");
        TheoryMarks marks;
        for (const auto& r : m.compute) {
            std::string kernel = r.mix_detail;
            if (r.mixes_tried > 0) kernel += fmt::format(", best of {} mixes", r.mixes_tried);
            s += fmt::format("  {:<42} {:>9.1f} {} {} {:>5}  {}\n", r.name, r.gflops,
                             theory_columns(r.gflops, r.theoretical_gflops, marks), cv_column(r.stats),
                             burst_column(r.stats), kernel);
        }
        s += theory_legend(marks, "  ");
    }
    if (!m.memory.empty()) {
        s += "\nMemory (GB/s = 1e9 B/s; nominal bytes the instructions move, and with write-allocate reads;\n"
             "        theory: the core's L1 ports / L2 path at its widest vector width, where the table has them)\n";
        s += fmt::format("  {:<8} {:<9} {:>7} {:>9} {:>9} {:>9} {:>6} {:>11} {:>6} {:>5}  {}\n", "level", "pattern",
                         "threads", "GB/s", "GB/s+WA", "theory", "eff ", "work. set", "CV", "burst", "isa");
        TheoryMarks marks;
        for (const auto& r : m.memory) {
            std::string isa = r.isa;
            if (r.isa_trials.size() > 1) {
                isa += " (of";
                for (const auto& [name, gbs] : r.isa_trials) isa += fmt::format(" {} {:.0f}", name, gbs);
                isa += ")";
            }
            s += fmt::format("  {:<8} {:<9} {:>7} {:>9.1f} {} {} {:>11} {} {:>5}  {}\n", r.level, r.pattern,
                             r.threads, r.gbs, known_or_unknown(r.gbs_write_allocate, 9),
                             theory_columns(r.gbs, r.theoretical_gbs, marks),
                             r.working_set_bytes > 0 ? format_bytes(r.working_set_bytes) : "?",
                             cv_column(r.stats), burst_column(r.stats), isa);
        }
        s += theory_legend(marks, "  ");
    }
    if (!m.validation.empty()) {
        s += "\nValidation (kernels of known intensity vs the roofline's prediction)\n";
        s += fmt::format("  {:<6} {:>10} {:>7} {:>10} {:>10} {:>8}\n", "level", "FLOP/byte", "threads", "GFLOP/s",
                         "predicted", "ratio");
        for (const auto& v : m.validation)
            s += fmt::format("  {:<6} {:>10.4g} {:>7} {:>10.2f} {:>10.2f} {:>8.2f}\n", v.level, v.intensity,
                             v.threads, v.gflops, v.predicted_gflops, v.ratio);
    }
    for (const auto& g : m.gpus) s += gpu_summary(g);
    if (!m.environment.refused.empty()) {
        s += "\nRefused (above what the hardware allows, a failed self-check, or at odds with another figure of the "
             "run; not in the model):\n";
        for (const auto& why : m.environment.refused) s += "  - " + why + "\n";
    }
    if (!m.environment.warnings.empty()) {
        s += "\nNotes and warnings:\n";
        for (const auto& w : shown_notes(m.environment.warnings, verbose)) s += "  - " + w + "\n";
    }
    if (e.duration_seconds > 0 || m.partial)
        s += fmt::format("\nTook {}{}.\n",
                         e.duration_seconds > 0 ? fmt::format("{:.1f} s", e.duration_seconds) : "an unknown time",
                         m.partial ? " (PARTIAL: interrupted)" : "");
    return terminal_block(s);  // a shown model may come from any file or store
}

} // namespace roofline
