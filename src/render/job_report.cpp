#include "render/job_report.hpp"

#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace roofline {

namespace {
std::string share(double part, double whole) {
    return whole > 0 ? format_percent(part / whole) : "-";
}
nlohmann::json optional_number(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
} // namespace

std::string sample_time_label(double offset_seconds, double interval_seconds) {
    // A step of at most half the interval: samples an interval apart, give or take the timer's
    // jitter, never round to one label.
    int decimals = 0;
    while (interval_seconds > 0 && decimals < 3 && std::pow(10.0, -decimals) > interval_seconds / 2) ++decimals;
    return fmt::format("+{:.{}f} s", offset_seconds, decimals);
}

std::string sample_time_span_label(double from_seconds, double to_seconds, double interval_seconds) {
    const std::string from = sample_time_label(from_seconds, interval_seconds);  // "+0.0 s"
    const std::string to = sample_time_label(to_seconds, interval_seconds);      // "+5.0 s"
    return fmt::format("{}-{}", from.substr(0, from.size() - 2), to.substr(1));
}

std::string render_job_report_text(const std::string& job, const JobSummary& s, const std::string& work_unit) {
    std::string out = fmt::format("Job {}: {} over {}\n", terminal_text(job), count_of(static_cast<long long>(s.samples), "sample"),
                                  format_seconds(s.seconds));
    out += fmt::format("  memory-bound   {:>10}  {}\n", format_seconds(s.memory_bound_seconds),
                       share(s.memory_bound_seconds, s.seconds));
    out += fmt::format("  compute-bound  {:>10}  {}\n", format_seconds(s.compute_bound_seconds),
                       share(s.compute_bound_seconds, s.seconds));
    out += fmt::format("  not judged     {:>10}  {}  (idle, or no bytes at a level with a roof)\n",
                       format_seconds(s.unjudged_seconds), share(s.unjudged_seconds, s.seconds));
    if (s.efficiency_median)
        out += fmt::format("  efficiency     min {}  median {}  max {}  (of what the roofline allows)\n",
                           format_percent(*s.efficiency_min), format_percent(*s.efficiency_median),
                           format_percent(*s.efficiency_max));
    else
        out += "  efficiency     - (no sample could be judged)\n";
    out += fmt::format("\n{:>9}  {:>9}  {:<16}  {:>12}  {:>10}  {:<14}  {:>10}\n", "time", "length", "node",
                       rate_unit(work_unit), "intensity", "bound by", "efficiency");
    for (const auto& r : s.rows) {
        const std::string time = sample_time_label(r.offset_seconds, s.interval_seconds);
        if (!r.analysis) {
            out += fmt::format("{:>9}  {:>9}  {:<16}  {:>12}  {:>10}  {:<14}  {:>10}\n", time, format_seconds(r.seconds),
                               terminal_text(r.node), format_number(r.performance), "-",
                               r.performance > 0 ? "(not judged)" : "(idle)", "-");
            continue;
        }
        const auto& a = *r.analysis;
        out += fmt::format("{:>9}  {:>9}  {:<16}  {:>12}  {:>10}  {:<14}  {:>10}\n", time, format_seconds(r.seconds),
                           terminal_text(r.node), format_number(a.performance), format_number(a.intensity),
                           terminal_text(a.memory_bound ? a.binding_level : "compute"), format_percent(a.efficiency));
    }
    return out;
}

std::string render_job_report_json(const std::string& job, const JobSummary& s, const std::string& work_unit) {
    nlohmann::json j;
    j["schema"] = "roofline.job-report/1";
    j["job"] = job;
    j["work_unit"] = work_unit;
    j["samples"] = s.samples;
    j["judged"] = s.judged;
    j["seconds"] = s.seconds;
    j["memory_bound_seconds"] = s.memory_bound_seconds;
    j["compute_bound_seconds"] = s.compute_bound_seconds;
    j["unjudged_seconds"] = s.unjudged_seconds;
    j["efficiency"] = {{"min", optional_number(s.efficiency_min)},
                       {"median", optional_number(s.efficiency_median)},
                       {"max", optional_number(s.efficiency_max)}};
    auto rows = nlohmann::json::array();
    for (const auto& r : s.rows) {
        nlohmann::json row = {{"node", r.node}, {"offset_seconds", r.offset_seconds}, {"seconds", r.seconds},
                              {"performance", r.performance}};
        if (r.analysis) {
            row["intensity"] = r.analysis->intensity;
            row["memory_bound"] = r.analysis->memory_bound;
            row["binding_roof"] = r.analysis->binding_roof;
            row["binding_level"] = r.analysis->binding_level;
            row["efficiency"] = r.analysis->efficiency;
        } else {
            row["efficiency"] = nullptr;
        }
        rows.push_back(std::move(row));
    }
    j["rows"] = std::move(rows);
    return j.dump(2) + "\n";
}

} // namespace roofline
