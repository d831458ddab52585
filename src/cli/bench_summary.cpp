#include "cli/bench_summary.hpp"

#include "core/byte_sizes.hpp"

#include <fmt/core.h>

namespace roofline::cli {

std::string format_bench_summary(const MachineModel& m) {
    std::string s;
    s += fmt::format("{}: {} cores, measured clock {:.2f} GHz (before) / {:.2f} GHz (after)\n", m.cpu.model,
                     m.cpu.cores, m.environment.clock_before_ghz, m.environment.clock_after_ghz);
    if (!m.compute.empty()) {
        s += "\nCompute (GFLOP/s; median of N runs; theoretical = cores used x measured clock x FLOPs/cycle)\n";
        s += fmt::format("  {:<42} {:>9} {:>9} {:>6} {:>6} {:>4}  {}\n", "roof", "GFLOP/s", "theory", "eff", "CV",
                         "runs", "kernel");
        for (const auto& r : m.compute) {
            const double eff = r.theoretical_gflops > 0 ? r.gflops / r.theoretical_gflops : 0;
            s += fmt::format("  {:<42} {:>9.1f} {:>9.1f} {:>5.0f}% {:>5.1f}% {:>4}  {}\n", r.name, r.gflops,
                             r.theoretical_gflops, 100 * eff, 100 * r.stats.cv, r.stats.runs, r.mix_detail);
        }
    }
    if (!m.memory.empty()) {
        s += "\nMemory (GB/s = 1e9 B/s; nominal bytes the instructions move, and with write-allocate reads)\n";
        s += fmt::format("  {:<8} {:<9} {:>7} {:>9} {:>9} {:>11} {:>6} {:>4}\n", "level", "pattern", "threads",
                         "GB/s", "GB/s+WA", "work. set", "CV", "runs");
        for (const auto& r : m.memory)
            s += fmt::format("  {:<8} {:<9} {:>7} {:>9.1f} {:>9.1f} {:>11} {:>5.1f}% {:>4}\n", r.level, r.pattern,
                             r.threads, r.gbs, r.gbs_write_allocate, format_bytes(r.working_set_bytes),
                             100 * r.stats.cv, r.stats.runs);
    }
    if (!m.validation.empty()) {
        s += "\nValidation (kernels of known intensity vs the roofline's prediction)\n";
        s += fmt::format("  {:<6} {:>10} {:>7} {:>10} {:>10} {:>8}\n", "level", "FLOP/byte", "threads", "GFLOP/s",
                         "predicted", "ratio");
        for (const auto& v : m.validation)
            s += fmt::format("  {:<6} {:>10.4g} {:>7} {:>10.2f} {:>10.2f} {:>8.2f}\n", v.level, v.intensity,
                             v.threads, v.gflops, v.predicted_gflops, v.ratio);
    }
    if (!m.environment.warnings.empty()) {
        s += "\nNotes and warnings:\n";
        for (const auto& w : m.environment.warnings) s += "  - " + w + "\n";
    }
    s += fmt::format("\nTook {:.1f} s{}.\n", m.environment.duration_seconds, m.partial ? " (PARTIAL: interrupted)" : "");
    return s;
}

} // namespace roofline::cli
