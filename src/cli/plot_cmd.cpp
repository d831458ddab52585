// `roofline plot`: machines and points to a chart (SVG, HTML, terminal, gnuplot).
#include "core/gpu_kernel_points.hpp"
#include "cli/cluster_view.hpp"
#include "cli/commands.hpp"
#include "cli/gpu_selection.hpp"
#include "cli/job_view.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "cli/stored_source.hpp"
#include "cli/terminal.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/cut_off_point.hpp"
#include "core/data_movement.hpp"
#include "core/input_limits.hpp"
#include "core/machine_roofline.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/precision.hpp"
#include "core/point_device.hpp"
#include "core/roofline.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/advice_text.hpp"
#include "render/chart.hpp"
#include "render/report.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"
#include "core/message_name.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>
#include <vector>

namespace roofline::cli {
namespace {

struct PlotArgs {
    std::vector<std::string> machines;   // empty: the latest stored machine
    std::vector<std::string> points;     // empty: the latest stored set when the machine is stored too
    std::string output;
    std::string format;                  // empty: from the extension of -o, else svg
    std::string view = "carm";
    std::optional<std::string> precision;  // default: the points' own, else dp
    std::optional<int> threads;            // default: the points' own, else the most measured
    bool quiet = false;
    bool no_ceilings = false;
    std::vector<double> intensity_lines;
    bool shade_regions = false;
    std::string title;
    std::string db;
    std::optional<int> width;
    std::optional<int> height;
    bool color = false;
    bool no_color = false;
    std::vector<std::string> gpus;       // --gpu N[:PRECISION]: GPU N of the first machine, on the same chart
    std::string job;                     // --job ID: a monitored job's samples, a series per node labelled by time
};

enum class Format { svg, html, term, gnuplot };

std::optional<Format> format_of_extension(const std::string& output) {
    const auto extension = std::filesystem::path(output).extension().string();
    if (extension == ".svg") return Format::svg;
    if (extension == ".html" || extension == ".htm") return Format::html;
    if (extension == ".gp" || extension == ".gnuplot" || extension == ".plt") return Format::gnuplot;
    if (extension == ".txt") return Format::term;
    return std::nullopt;
}

Format format_from(const PlotArgs& args) {
    if (!args.format.empty()) {
        const Format asked = args.format == "svg"    ? Format::svg
                             : args.format == "html" ? Format::html
                             : args.format == "term" ? Format::term
                                                     : Format::gnuplot;
        // chart.svg holding HTML opens as a broken image: a file named for one format gets that one.
        if (const auto named = args.output.empty() || args.output == "-" ? std::nullopt : format_of_extension(args.output);
            named && *named != asked)
            throw UsageError(fmt::format("--format {} but -o {} names another format: give the file the extension of "
                                         "the format, or leave --format out",
                                         args.format, args.output));
        return asked;
    }
    if (args.output.empty() || args.output == "-") return Format::svg;
    if (const auto named = format_of_extension(args.output)) return *named;
    throw UsageError(fmt::format("cannot tell the chart format from '{}': use an extension .svg, .html, .gp or .txt, "
                                 "or --format svg|html|term|gnuplot",
                                 args.output));
}

std::string default_output(Format format) {
    switch (format) {
    case Format::svg: return "roofline.svg";
    case Format::html: return "roofline.html";
    case Format::gnuplot: return "roofline.gp";
    case Format::term: return "-";
    }
    return "-";
}

struct LoadedMachine {
    Roofline roofline;
    std::string source;
    MachineModel model;
};

// `elsewhere`: the point sets' provenances, and how many sets were combined, to say when the
// points were measured on another host or CPU than this model's.
using SetProvenances = std::vector<std::pair<std::string, Provenance>>;

LoadedMachine load_plot_machine(const StoredSource& source, const PlotArgs& args, const std::vector<Point>& points,
                                StoreAccess& access, const SetProvenances& provenances, std::size_t sets_combined) {
    const JudgingMachine judging = load_judging_machine(
        source, access,
        "run 'roofline bench' to measure this machine, "
        "or pass --machine FILE (a model from 'roofline bench -o' or a YAML spec sheet)",
        machine_of_sets(provenances));
    if (!args.quiet)
        for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
    const MachineFile& file = judging.file;
    if (const auto elsewhere = sets_measured_elsewhere(provenances, sets_combined, file.model); !elsewhere.empty())
        print_stderr("roofline: warning: {}\n", terminal_text(measured_elsewhere_text(elsewhere)));
    try {
        const auto selection = select_roofline(file.model, points, {args.precision, args.threads});
        const auto note = mixed_threads_note(file.model, points, {args.precision, args.threads}, selection);
        if (!note.empty() && !args.quiet) print_stderr("roofline: note: {}\n", note);
        if (const auto mixed = mixed_precision_note(points, {args.precision, args.threads}, selection);
            !mixed.empty() && !args.quiet)
            print_stderr("roofline: note: {}\n", mixed);
        if (const auto missing = missing_precision_note(file.model, points, {args.precision, args.threads}, selection);
            !missing.empty())
            print_stderr("roofline: warning: {}\n", missing);
        return {roofline_from_machine_file(file, selection), judging.display, file.model};
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(fmt::format("{}: {}", judging.display, e.what()));
    }
}

// The terminal chart's size in characters. Bounded: the layout's work grows with
// the area, and a typo (--width 2147483647) must not run for hours. Outside the
// range is a usage error rather than a silent clamp, so the chart is never
// quietly another size than asked; the terminal's own size is clamped.
constexpr int kMinWidth = 40, kMaxWidth = 1000;   // 40 x 12: the smallest chart that has room for its axes
constexpr int kMinHeight = 12, kMaxHeight = 500;

std::pair<int, int> terminal_size(const PlotArgs& args, bool to_terminal, bool to_standard_output) {
    int width = 100, height = 32;
    int rows = 0;  // the terminal's, when known
    bool sized = false;
    winsize size{};
    if (to_terminal && ioctl(standard_output_descriptor(), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
        width = size.ws_col;
        rows = size.ws_row;
        sized = true;
    }
    // COLUMNS set for the command (COLUMNS=60 roofline plot ... | less) is the width asked for, a
    // pipe's too; shells set it without exporting it, so an inherited one is rare.
    if (const auto columns = to_standard_output ? columns_from_environment() : std::nullopt) {
        width = *columns;
        sized = true;
    }
    if (sized) {
        width = std::clamp(width, kMinWidth, kMaxWidth);
        height = std::clamp(rows > 0 ? std::min(rows - 8, width / 3) : width / 3, 16, kMaxHeight);
    }
    if (args.width) width = *args.width;
    if (args.height) height = *args.height;
    return {width, height};
}

// The file the chart goes to ("-": standard output), once every option is checked and the file
// is known to be writable: nothing is loaded for a chart that could not be written.
std::string checked_output(const PlotArgs& args, Format format) {
    const std::string output = args.output.empty() ? default_output(format) : args.output;
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const auto& m : args.machines) inputs.emplace_back("--machine", m);
    for (const auto& p : args.points) inputs.emplace_back("--points", p);
    check_output_not_input(args.output.empty() ? "the chart" : "-o", output, inputs);
    if (output != "-") check_file_writable(output);
    return output;
}

struct PlotSources {
    std::vector<StoredSource> machines;
    std::vector<StoredSource> points;
    bool implicit_points = false;  // the latest stored set, not asked for: none stored is no error
};

PlotSources plot_sources(const PlotArgs& args) {
    PlotSources sources;
    for (const auto& text : args.machines.empty() ? std::vector<std::string>{kStored} : args.machines)
        sources.machines.push_back(parse_stored_source(text, "--machine"));
    for (const auto& text : args.points) sources.points.push_back(parse_stored_source(text, "--points"));
    // With the machine from the store, the latest stored points come along (if any).
    sources.implicit_points = args.points.empty() && args.machines.empty() && args.job.empty();
    if (sources.implicit_points) sources.points.push_back(parse_stored_source(kStored, "--points"));
    return sources;
}

// The chart's options, before anything is loaded.
ChartInput chart_options(const PlotArgs& args) {
    ChartInput input;
    input.view = parse_view(args.view).value_or(View::carm);
    input.show_ceilings = !args.no_ceilings;
    input.intensity_lines = args.intensity_lines;
    input.shade_regions = args.shade_regions;
    input.title = args.title;
    return input;
}

// The point sets and a monitored job's samples into the chart; a set an interrupted run left is
// said on the chart and on standard error.
SetProvenances load_chart_points(ChartInput& input, const PlotArgs& args, const PlotSources& sources,
                                 StoreAccess& access) {
    std::vector<std::string> interrupted;
    SetProvenances provenances;
    input.points = load_point_sets(sources.points, access, "pass --points FILE (schema roofline.points/1)",
                                   !sources.implicit_points, &interrupted, &provenances);
    if (!interrupted.empty()) {
        input.banner = "PARTIAL POINTS: from an interrupted run";
        print_stderr("roofline: warning: {}\n", partial_points_text(interrupted));
    }
    if (!args.job.empty()) {
        auto job = load_job_points(access, args.job);
        band_by_time(job, 5);  // colour by time: five bands, early to late
        for (auto& p : job) input.points.push_back(std::move(p));
    }
    // With --gpu each point is drawn on its own device's roofline; without, none may be a GPU's.
    if (args.gpus.empty()) require_points_on_their_device(input.points, Device::cpu);
    return provenances;
}

// A cluster model (bench --mpi) as the only --machine: every node's roofline, each node's share
// of the job's regions under its own, the job's totals under the sum of the nodes' roofs. The
// chart's points move into the view's parts. None when the machine is no cluster model.
std::optional<ClusterView> cluster_chart(ChartInput& input, const PlotArgs& args,
                                         const std::vector<StoredSource>& machine_sources) {
    if (machine_sources.size() > 1)
        for (const auto& source : machine_sources)
            if (cluster_model_path(source))
                throw UsageError(fmt::format("{} is a cluster model: it is drawn on its own (its nodes and their sum), "
                                             "as the only --machine", source.display()));
    if (machine_sources.size() != 1) return std::nullopt;
    const auto path = cluster_model_path(machine_sources.front());
    if (!path) return std::nullopt;
    if (!args.gpus.empty()) throw UsageError("--gpu draws one machine's GPU: pass that node's model, not a cluster model");
    auto cluster = cluster_view(*path, input.points, {args.precision, args.threads}, true);
    if (!args.quiet && !cluster.not_judged.empty())
        print_stderr("roofline: note: left out, not placed on the cluster model: {}\n", not_judged_text(cluster));
    input.points.clear();
    if (input.title.empty())
        input.title = fmt::format("{}: {} node(s){}", std::filesystem::path(*path).filename().string(), cluster.nodes,
                                  cluster.whole ? " and their sum" : "");
    return cluster;
}

// Each machine's roofline, then the GPUs of the first (--gpu): the CPU and GPU of one node on one
// chart. Two rooflines of one name (two runs of one CPU) are told apart by their source's file name.
// Returns which machine (index) draws each CUDA kernel, by name: the GPU roofline of its own
// precision of the first --gpu, as report judges it; a kernel no roof of the GPU bounds (tensor
// work without a tensor roof of its precision) is left out of the chart, and said.
std::map<std::string, std::size_t> load_chart_machines(ChartInput& input, const PlotArgs& args,
                                                       const std::vector<StoredSource>& machine_sources,
                                                       StoreAccess& access, const SetProvenances& provenances,
                                                       std::size_t sets_combined) {
    std::vector<std::string> sources;
    std::optional<MachineModel> first_model;
    for (const auto& source : machine_sources) {
        auto loaded = load_plot_machine(source, args, input.points, access, provenances, sets_combined);
        input.machines.push_back(std::move(loaded.roofline));
        sources.push_back(std::move(loaded.source));
        if (!first_model) first_model = std::move(loaded.model);
    }
    const std::string default_precision = gpu_precision(input.machines.front().precision).value_or("fp64");
    std::map<std::string, std::size_t> roofline_of;
    std::set<std::string> noted;  // --gpu 0:fp64 --gpu 0:fp32: the GPU's notes once
    for (std::size_t t = 0; t < args.gpus.size(); ++t) {
        // What the limit guard said of this GPU's roofs as the model was read (show lists it too).
        if (!args.quiet)
            for (const auto& note : gpu_limit_notes(*first_model, args.gpus[t]))
                if (noted.insert(note).second) print_stderr("roofline: note: {}\n", note);
        // CUDA kernels of several precisions and no precision asked: a roofline of each (a
        // DGEMM under the fp64 tensor roof, an SGEMM under the fp32 one), as report judges them.
        for (auto& part : gpu_judging_parts(*first_model, args.gpus[t], default_precision, sources.front(),
                                            input.points, args.precision.has_value())) {
            if (!part.roofline) {
                if (t > 0) continue;
                std::set<std::string> names;
                for (const auto& p : part.points) names.insert(p.name);
                std::erase_if(input.points, [&](const Point& p) { return names.count(p.name) > 0; });
                if (!args.quiet)
                    print_stderr("roofline: note: {} point(s) left out: {}: {}\n", part.points.size(), part.not_judged,
                                 terminal_text(fmt::to_string(fmt::join(names, ", "))));
                continue;
            }
            if (t == 0)
                for (const auto& p : part.points) roofline_of.emplace(p.name, input.machines.size());
            input.machines.push_back(std::move(*part.roofline));
            sources.push_back(sources.front());
        }
    }
    std::map<std::string, int> label_count;
    for (const auto& r : input.machines) ++label_count[r.label];
    for (std::size_t i = 0; i < input.machines.size(); ++i)
        if (label_count[input.machines[i].label] > 1)
            input.machines[i].label += " (" + std::filesystem::path(sources[i]).filename().string() + ")";
    return roofline_of;
}

// Leaves out of a chart's points what it cannot draw (another work unit than the roofline's; work
// not counted; above its roof beyond the roof's spread), warning as it goes; `print_totals` then
// says how many were left out or above their roof.
class PointScreen {
public:
    explicit PointScreen(std::string unit) : unit_(std::move(unit)) {}

    void screen(std::vector<Point>& points, const std::function<const Roofline&(const Point&)>& judge, View view) {
        // A GFLOP/s roofline cannot place exchanges or bit ops.
        std::erase_if(points, [&](const Point& p) {
            const bool differs = p.work_unit != unit_;
            if (differs && other_unit_++ == 0)
                print_stderr("roofline: warning: point '{}' counts {}, not {}: left out of the chart\n",
                             terminal_text(p.name), terminal_text(p.work_unit), unit_);
            return differs;
        });
        // A point measured for time only has no place on the chart (its work was not counted).
        uncounted_ += std::erase_if(points, [](const Point& p) { return !p.work_counted; });
        // Counted, no work, timed: it moved data (a transpose, a copy); report gives its bandwidth when it
        // has bytes at a level with a roof (ORM: DRAM), else names it not judged: counted apart.
        std::erase_if(points, [&](const Point& p) {
            if (p.work > 0 || !(p.seconds > 0)) return false;
            ++(data_movement(judge(p), p, view) ? moved_ : no_work_);
            return true;
        });
        // A point above its roof by more than the roof's spread cannot be true (a measurement
        // error): it is named and left out of the chart, never drawn; within the spread, noted.
        std::erase_if(points, [&](const Point& p) {
            if (p.seconds <= 0 || p.work <= 0) return false;
            const auto a = analyze(judge(p), p, view);
            if (!a.above_roof) return false;
            const bool refused = !a.above_roof->within_spread;
            refused_ += refused ? 1 : 0;
            if (++above_roof_ <= kMaxNamedAboveRoof)
                print_stderr("roofline: {}: point '{}' is {}{}\n", refused ? "warning" : "note", terminal_text(p.name),
                             above_roof_text(*a.above_roof), refused ? ": left out of the chart" : "");
            return refused;
        });
        // A point that ran more threads than its run was allowed CPUs is judged by the CPUs: said once each.
        for (const auto& p : points)
            if (p.work > 0 && p.seconds > 0)
                if (const auto judged = judged_threads_of(judge(p), p); judged && judged_threads_++ < kMaxNamedAboveRoof)
                    print_stderr("roofline: note: point '{}': {}\n", terminal_text(p.name), judged_threads_text(*judged));
        // A point whose region a signal cut off (core/cut_off_point) is drawn, its label saying it:
        // its rate is true of the part that ran, not of a whole run of the region.
        for (auto& p : points)
            if (const auto sig = cut_off_signal(p)) {
                p.label = fmt::format("{} (cut off by {})", p.label.empty() ? p.name : p.label, signal_text(*sig));
                if (cut_off_++ < kMaxNamedAboveRoof)
                    print_stderr("roofline: note: point '{}' is {}: drawn, labelled so\n", terminal_text(p.name),
                                 cut_off_text(*sig, true));
            }
    }

    // The same, for the chart's own notes: what a reader of the file alone must know is missing.
    std::vector<std::string> chart_notes() const {
        std::vector<std::string> notes;
        const auto plural = [](std::size_t n) { return n == 1 ? "" : "s"; };
        if (other_unit_ > 0) notes.push_back(fmt::format("{} point{} in other units left out", other_unit_, plural(other_unit_)));
        if (uncounted_ > 0)
            notes.push_back(fmt::format("{} point{} measured for time only left out", uncounted_, plural(uncounted_)));
        if (moved_ > 0)
            notes.push_back(fmt::format("{} point{} with no {} left out (roofline report gives {} bandwidth at each level)",
                                        moved_, plural(moved_), work_noun(), moved_ == 1 ? "its" : "their"));
        if (no_work_ > 0)
            notes.push_back(fmt::format("{} point{} with no {} and no bytes to judge left out", no_work_,
                                        plural(no_work_), work_noun()));
        if (refused_ > 0)
            notes.push_back(fmt::format("{} point{} above {} roof left out (a measurement error; roofline report says why)",
                                        refused_, plural(refused_), refused_ == 1 ? "its" : "their"));
        if (cut_off_ > 0)
            notes.push_back(fmt::format("{} point{} cut off by a signal, labelled so: {} time and counts are only the "
                                        "part that ran before it",
                                        cut_off_, plural(cut_off_), cut_off_ == 1 ? "its" : "their"));
        return notes;
    }

    void print_totals() const {
        if (other_unit_ > 1) print_stderr("roofline: warning: {} points in other units left out\n", other_unit_);
        if (uncounted_ > 0)
            print_stderr("roofline: note: {} point(s) left out: their work was not counted (measured for time only, "
                         "e.g. by the time engine)\n", uncounted_);
        if (moved_ > 0)
            print_stderr("roofline: note: {} point(s) with no {} left out of the chart (nothing to place on a roofline of "
                         "{}/s): 'roofline report' gives their bandwidth at each level against its roof\n",
                         moved_, work_noun(), unit_);
        if (no_work_ > 0)
            print_stderr("roofline: note: {} point(s) with no {} left out of the chart (nothing to place on a roofline of "
                         "{}/s), and no bytes at a level with a roof to judge their bandwidth by\n",
                         no_work_, work_noun(), unit_);
        if (above_roof_ > kMaxNamedAboveRoof)
            print_stderr("roofline: warning: {} more points above their roof, left out of the chart ('roofline "
                         "report' lists them all)\n",
                         above_roof_ - kMaxNamedAboveRoof);
    }

private:
    static constexpr std::size_t kMaxNamedAboveRoof = 20;  // 100,000 such points must not flood the terminal
    std::string unit_;
    std::size_t other_unit_ = 0, uncounted_ = 0, moved_ = 0, no_work_ = 0, above_roof_ = 0, refused_ = 0, cut_off_ = 0,
                judged_threads_ = 0;
    std::string work_noun() const { return unit_ == "FLOP" ? "FLOPs" : "work"; }
};

// Screens the chart's points, each judged against its cluster part's roofline, else the first
// machine's (a GPU kernel's: the first GPU drawn, which follows the `machine_count` machines).
// A cluster's parts join the chart here: their rooflines and their points.
void screen_chart_points(ChartInput& input, std::optional<ClusterView>& cluster, const PlotArgs& args,
                         std::size_t machine_count, const std::map<std::string, std::size_t>& gpu_roofline_of) {
    PointScreen screen(cluster ? cluster->parts.front().roofline.work_unit : input.machines.front().work_unit);
    if (cluster) {
        for (auto& part : cluster->parts) {
            screen.screen(part.points, [&](const Point&) -> const Roofline& { return part.roofline; }, input.view);
            input.machines.push_back(part.roofline);
            // Not joined by a line: one region's shares on different nodes (series "NAME per node")
            // sit under different rooflines, not along a sweep; each is labelled with its node.
            for (auto& p : part.points) {
                p.series.clear();
                input.points.push_back(std::move(p));
            }
        }
    } else {
        const std::size_t first_gpu = args.gpus.empty() ? 0 : machine_count;
        // A kernel on the GPU roofline of its own precision (load_chart_machines), else the first.
        screen.screen(input.points, [&](const Point& p) -> const Roofline& {
            if (point_device(p) != Device::gpu) return input.machines.front();
            if (const auto it = gpu_roofline_of.find(p.name); it != gpu_roofline_of.end()) return input.machines[it->second];
            return input.machines[first_gpu];
        }, input.view);
    }
    screen.print_totals();
    for (auto& note : screen.chart_notes()) input.notes.push_back(std::move(note));
}

std::string rendered_chart(Format format, const ChartInput& input, const PlotArgs& args, const std::string& output) {
    switch (format) {
    case Format::svg: return render_svg(input);
    case Format::html: return render_html(input);
    case Format::gnuplot: return render_gnuplot(input);
    case Format::term: {
        const bool to_terminal = is_standard_output_path(output) && isatty(standard_output_descriptor());
        const auto [width, height] = terminal_size(args, to_terminal, is_standard_output_path(output));
        const bool color = !args.no_color && (args.color || (to_terminal && wants_colour(standard_output_descriptor())));
        return render_term(input, width, height, color);
    }
    }
    return {};
}

int run_plot(const PlotArgs& args) {
    const Format format = format_from(args);
    const std::string output = checked_output(args, format);
    const PlotSources sources = plot_sources(args);
    StoreAccess access(args.db);
    ChartInput input = chart_options(args);
    const SetProvenances provenances = load_chart_points(input, args, sources, access);
    std::optional<ClusterView> cluster = cluster_chart(input, args, sources.machines);
    std::map<std::string, std::size_t> gpu_roofline_of;
    if (!cluster)
        gpu_roofline_of = load_chart_machines(input, args, sources.machines, access, provenances, sources.points.size());
    screen_chart_points(input, cluster, args, sources.machines.size(), gpu_roofline_of);

    const std::string chart = rendered_chart(format, input, args, output);
    write_text_file_atomic(output, chart);  // "-": standard output (io/text_file.hpp)
    if (!is_standard_output_path(output)) {
        if (!args.quiet)
            print_stderr("chart written to {} ({}, {})\n", message_name(output), count_of(input.machines.size(), "machine"),
                       count_of(input.points.size(), "point"));
    }
    return kExitOk;
}

} // namespace

void add_plot_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlotArgs>();
    auto* cmd = add_command(app, "plot", "Draw machines and points as a roofline chart (SVG, HTML, terminal, gnuplot)");
    cmd->description(fmt::format(
        "Draws one or more machines' rooflines (overlaid in distinct colours) with any number of point\n"
        "sets: roofs with their values, named ceilings (dashed), ridge points, labelled points, series\n"
        "joined by lines. CARM view: one marker per memory level a point has bytes for; ORM: DRAM only.\n"
        "A cluster model (bench --mpi -o cluster.json) as --machine draws every node's roofline and\n"
        "their sum, an MPI job's per-node shares and its totals (judged as 'roofline report' does).\n"
        "The format follows the extension of -o (.svg, .html, .gp, .txt) or --format.\n"
        "Input files are regular files or pipes of at most {} MiB.",
        kMaxInputFileBytes >> 20));
    add_machines_option(cmd, args->machines);
    add_points_option(cmd, args->points)
        ->description("Points: a JSON file (schema roofline.points/1), 'stored' (the latest set) or 'stored:ID'; "
                      "repeat to combine (default: the latest stored set when the machine comes from the store)");
    add_output_option(cmd, args->output,
                    "Chart file (default roofline.svg, roofline.html, roofline.gp; the terminal chart goes to "
                    "standard output)");
    cmd->add_option("--format", args->format, "svg (publication), html (interactive, offline), term, gnuplot")
        ->check(CLI::IsMember({"svg", "html", "term", "gnuplot"}));
    cmd->add_option("--view", args->view, "carm: every cache level; orm: DRAM only (original model)")
        ->check(CLI::IsMember(view_names()))
        ->capture_default_str();
    add_roofline_precision_option(cmd, args->precision);
    add_roofline_threads_option(cmd, args->threads);
    cmd->add_flag("--no-ceilings", args->no_ceilings, "Roofs only, no ceilings");
    cmd->add_option("--intensity-line", args->intensity_lines, "A vertical line at this intensity (FLOP/byte); repeatable")
        ->check(number_check([](double x, const std::string& text) {
            // The range every intensity read from a file must lie in (input_limits.hpp): a denormal or 1e300
            // cannot be drawn.
            return x > 0 && in_range(intensity_range, x)
                       ? std::string()
                       : fmt::format("expects a positive intensity from {:g} to {:g} (got {})", intensity_range.min,
                                     intensity_range.max, text);
        }));
    cmd->add_flag("--shade-regions", args->shade_regions,
                  "Shade where only memory, both, or only compute optimizations help (first machine)");
    cmd->add_option("--gpu", args->gpus,
                    "Also draw GPU N of the (first) machine, measured by 'bench --gpu': N, or N:PRECISION (fp64, "
                    "fp32, fp16, bf16, tf32, lop3, ...; default the chart's precision); repeatable")
        ->type_name("N[:PRECISION]")
        ->check(value_check(gpu_choice_problem));
    cmd->add_option("--job", args->job,
                    "Also draw the samples 'roofline monitor' stored for job ID, labelled by time, each node's in five "
                    "time bands (a series, and a colour, each)");
    cmd->add_option("--title", args->title, "Chart title (default: from the machines)");
    add_db_option(cmd, args->db);
    add_quiet_flag(cmd, args->quiet);
    cmd->add_option("--width", args->width,
                    fmt::format("Terminal chart width in characters, {} to {} (default: the terminal's, or 100)",
                                kMinWidth, kMaxWidth))
        ->check(whole_number_range(kMinWidth, kMaxWidth, " characters"));  // as parsed: a configured one too
    cmd->add_option("--height", args->height,
                    fmt::format("Terminal chart height in lines, {} to {} (default: fits the terminal, or 32)",
                                kMinHeight, kMaxHeight))
        ->check(whole_number_range(kMinHeight, kMaxHeight, " lines"));
    auto* color = cmd->add_flag("--color", args->color, "Terminal chart in colour even when not writing to a terminal");
    cmd->add_flag("--no-color", args->no_color, "Terminal chart in plain ASCII (also NO_COLOR=1, TERM=dumb, or standard output not a terminal)")->excludes(color);
    cmd->footer("Examples:\n"
                "  roofline plot                                  latest stored machine and points -> roofline.svg\n"
                "  roofline plot --machine m.json --points app.json -o chart.html\n"
                "  roofline plot --machine a.json --machine b.yaml --format term\n"
                "  roofline plot --points k.json --view orm --shade-regions -o chart.gp\n"
                "  roofline plot --machine cluster.json --points job.json --no-ceilings -o nodes.svg");
    cmd->callback([args, &exit_code] { exit_code = run_plot(*args); });
}

} // namespace roofline::cli
