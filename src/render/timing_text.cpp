#include "render/timing_text.hpp"

#include "render/number_format.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace roofline {

std::string timing_text(const TimingSummary& t) {
    if (t.runs <= 1) return t.warmup_runs ? fmt::format("1 run after {} warm-up", t.warmup_runs) : "1 run";
    return fmt::format("min of {} runs, spread {:.1f}%", t.runs, 100 * t.spread());
}

std::string outside_code_text(const TimeOutsideCode& t) {
    std::vector<std::string> parts;
    if (t.kernel_share > 0)
        parts.push_back(fmt::format("{:.0f}% of its CPU time in the kernel (page faults of fresh memory, system "
                                    "calls, I/O)",
                                    100 * t.kernel_share));
    if (t.others_cpus > 0)
        parts.push_back(fmt::format("other processes kept {:.2f} CPUs busy on its CPUs while it was timed",
                                    t.others_cpus));
    if (t.steal_share > 0)
        parts.push_back(fmt::format("the hypervisor took {:.1f}% of its CPUs' time (steal)", 100 * t.steal_share));
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? "; " : "") + parts[i];
    std::vector<std::string> remedies;
    if (t.others_cpus > 0 || t.steal_share > 0) remedies.push_back("measure again on a quiet machine");
    if (t.kernel_share > 0) remedies.push_back("reuse memory rather than fault it in anew, or time the work in marker regions");
    return "its time holds waits no roof describes: " + joined + ". It sits lower than its code alone would put it (" +
           (remedies.size() == 2 ? remedies[0] + "; " + remedies[1] : remedies.front()) + ")";
}

std::string timing_provenance_text(const TimingSummary& program, bool automatic, std::uint64_t cold_flush_bytes) {
    const std::string warmup =
        program.warmup_runs == 0
            ? std::string(", no warm-up (the first run is timed)")
            : fmt::format(" after {} warm-up run{} (left out; the first took {})", program.warmup_runs,
                          program.warmup_runs == 1 ? "" : "s", format_seconds(program.warmup_seconds));
    const std::string how = automatic ? " (chosen from the first run's length; --repeat K sets it)" : "";
    const std::string cold =
        cold_flush_bytes == 0 ? std::string()
                              : fmt::format("; cold caches: a {} MiB buffer written between runs (and before the "
                                            "first: --cold)",
                                            cold_flush_bytes >> 20);
    if (program.runs <= 1) return fmt::format("one native run{}{}{}", warmup, how, cold);
    return fmt::format("min of {} native runs{}{}: the whole program {} to {}, spread {:.1f}%, median {}; each "
                       "region takes its own fastest run (details: runs, seconds_fastest, seconds_median, "
                       "seconds_slowest, seconds_spread, seconds_warmup){}",
                       program.runs, warmup, how, format_seconds(program.fastest), format_seconds(program.slowest),
                       100 * program.spread(), format_seconds(program.median), cold);
}

namespace {
// A count of samples: whole, or with one decimal where a loop's calls brought shares of them.
std::string sample_count(double n) {
    return n == std::round(n) ? fmt::format("{:.0f}", n) : fmt::format("{:.1f}", n);
}
} // namespace

std::string point_timing_text(const Point& p) {
    if (const auto it = p.details.find("samples"); it != p.details.end())
        return fmt::format("{} sample{} of CPU time", sample_count(it->second), it->second == 1 ? "" : "s");
    if (const auto t = timing_of(p)) return timing_text(*t);
    return {};
}

std::string chart_timing_note(const std::vector<Point>& points) {
    int fewest_runs = 0, most_runs = 0;
    double widest_spread = 0;
    std::size_t sampled = 0;
    double fewest_samples = 0, most_samples = 0;
    for (const auto& p : points) {
        if (const auto it = p.details.find("samples"); it != p.details.end()) {
            // Sampled CPU time (functions, loops): its runs are the sampling run, not timed repeats.
            fewest_samples = sampled ? std::min(fewest_samples, it->second) : it->second;
            most_samples = sampled ? std::max(most_samples, it->second) : it->second;
            ++sampled;
            continue;
        }
        const auto t = timing_of(p);
        if (!t) continue;
        fewest_runs = fewest_runs ? std::min(fewest_runs, t->runs) : t->runs;
        most_runs = std::max(most_runs, t->runs);
        widest_spread = std::max(widest_spread, t->spread());
    }
    std::vector<std::string> parts;
    if (most_runs == 1) parts.push_back("times: one native run each");
    else if (most_runs > 1)
        parts.push_back(fmt::format("times: the fastest of {} native runs (spread up to {:.0f}%)",
                                    fewest_runs == most_runs ? fmt::format("{}", most_runs)
                                                             : fmt::format("{} to {}", fewest_runs, most_runs),
                                    100 * widest_spread));
    if (sampled > 0) {
        const auto count = sample_count;
        parts.push_back(fmt::format("{} point{} from sampled CPU time ({} sample{}, error about 1/sqrt(samples))",
                                    sampled, sampled == 1 ? "" : "s",
                                    fewest_samples == most_samples
                                        ? count(most_samples)
                                        : fmt::format("{} to {}", count(fewest_samples), count(most_samples)),
                                    most_samples == 1 ? "" : "s"));
    }
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
    return out;
}

} // namespace roofline
