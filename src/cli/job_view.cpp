#include "cli/job_view.hpp"

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/usage_error.hpp"
#include "core/job_summary.hpp"
#include "core/machine_roofline.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/job_report.hpp"
#include "core/message_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace roofline::cli {

namespace {
double detail(const Point& p, const char* key, double fallback) {
    const auto it = p.details.find(key);
    return it == p.details.end() ? fallback : it->second;
}

// The job's sampling interval, which says how finely its times are labelled: the shortest the
// monitors recorded, else (samples stored before they did) the longest sample's length.
double job_interval(const std::vector<Point>& points) {
    double recorded = 0, longest = 0;
    for (const auto& p : points) {
        if (const double i = detail(p, "monitor_interval", 0); i > 0) recorded = recorded > 0 ? std::min(recorded, i) : i;
        longest = std::max(longest, p.seconds);
    }
    return recorded > 0 ? recorded : longest;
}
} // namespace

std::vector<Point> load_job_points(StoreAccess& access, const std::string& job) {
    ResultsStore* store = access.store();
    const std::string prefix = fmt::format("job {} ", job);
    std::vector<Point> points;
    if (store) {
        for (const auto& set : store->list_point_sets()) {
            if (set.name.rfind(prefix, 0) != 0) continue;
            const auto doc = store->point_set(set.id);
            if (!doc) continue;
            // The name could be another job's whose id has a space: the provenance says whose it is.
            if (doc->provenance) {
                const auto it = doc->provenance->options.find("job");
                if (it != doc->provenance->options.end() && it->second != job) continue;
            }
            for (auto p : doc->points) {
                if (p.source != PointOrigin::monitor) continue;
                if (p.series.empty()) p.series = set.name.substr(prefix.size());
                points.push_back(std::move(p));
            }
        }
    }
    if (points.empty())
        throw std::runtime_error(fmt::format("no samples of job {} in the results store {}: run 'roofline monitor "
                                             "--job {}' on the job's nodes",
                                             job, access.where(), job));
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        return detail(a, "monitor_end_unix", 0) < detail(b, "monitor_end_unix", 0);
    });
    double first = std::numeric_limits<double>::max();
    for (const auto& p : points) first = std::min(first, detail(p, "monitor_start_unix", detail(p, "monitor_end_unix", 0)));
    const double interval = job_interval(points);
    for (auto& p : points) p.label = sample_time_label(detail(p, "monitor_end_unix", first) - first, interval);
    return points;
}

void band_by_time(std::vector<Point>& points, int bands) {
    if (points.empty() || bands < 1) return;
    // Bands of equal numbers of samples in time order (load_job_points sorts them), each named by
    // the time its samples span: even when the samples are irregular, every band has some.
    bands = std::min<int>(bands, static_cast<int>(points.size()));
    double first = std::numeric_limits<double>::max();
    for (const auto& p : points) first = std::min(first, detail(p, "monitor_start_unix", 0));
    std::vector<int> band_of(points.size());
    std::vector<double> from(bands, std::numeric_limits<double>::max()), to(bands, 0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const int b = static_cast<int>(i * static_cast<std::size_t>(bands) / points.size());
        band_of[i] = b;
        from[b] = std::min(from[b], detail(points[i], "monitor_start_unix", first) - first);
        to[b] = std::max(to[b], detail(points[i], "monitor_end_unix", first) - first);
    }
    // Its ends written as the samples' labels are (render's sample_time_label): "+0.0-5.0 s" a second apart.
    const double interval = job_interval(points);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const int b = band_of[i];
        points[i].series = fmt::format("{} {}", points[i].series, sample_time_span_label(from[b], to[b], interval));
    }
}

int run_job_report(const JobReportArgs& args) {
    if (args.format != "text" && args.format != "json")
        throw UsageError(fmt::format("report --job writes text or json (got --format {})", args.format));
    const View view = parse_view(args.view).value_or(View::carm);
    const auto machine_choice = parse_stored_source(args.machine, "--machine");
    if (!args.output.empty()) check_file_writable(args.output);
    StoreAccess access(args.db);
    const JudgingMachine judging = load_judging_machine(
        machine_choice, access,
        "run 'roofline bench' on the job's node type, or pass --machine FILE (a model written by 'roofline bench -o')");
    if (!args.quiet)
        for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
    const MachineFile& machine = judging.file;
    const auto points = load_job_points(access, args.job);
    Roofline roofline;
    try {
        roofline = roofline_from_machine_file(machine, select_roofline(machine.model, points, {args.precision, args.threads}));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(fmt::format("{}: {}", judging.display, e.what()));
    }
    std::vector<JobSample> samples;
    double first = std::numeric_limits<double>::max();
    for (const auto& p : points) first = std::min(first, detail(p, "monitor_start_unix", 0));
    for (const auto& p : points) {
        JobSample s;
        s.node = p.series;
        s.offset_seconds = detail(p, "monitor_end_unix", first) - first;
        s.seconds = p.seconds;
        s.performance = p.work_counted && p.seconds > 0 ? performance(p) : 0;
        if (p.work_counted && p.work > 0 && p.seconds > 0 && p.work_unit == roofline.work_unit &&
            !bounding_levels(roofline, p, view).empty())
            s.analysis = analyze(roofline, p, view);
        samples.push_back(std::move(s));
    }
    auto summary = summarize_job(std::move(samples));
    summary.interval_seconds = job_interval(points);
    const auto text = args.format == "json" ? render_job_report_json(args.job, summary, roofline.work_unit)
                                            : render_job_report_text(args.job, summary, roofline.work_unit);
    write_result(args.output, text);
    if (!args.output.empty() && !is_standard_output_path(args.output) && !args.quiet)
        print_stderr("report written to {}\n", message_name(args.output));
    return kExitOk;
}

} // namespace roofline::cli
