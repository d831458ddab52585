// `roofline report`: place points on a machine's roofline and explain, per
// point, what binds it and what to try next (text, Markdown, CSV or JSON).
#include "core/gpu_kernel_points.hpp"
#include "cli/cluster_view.hpp"
#include "cli/commands.hpp"
#include "cli/gpu_selection.hpp"
#include "cli/value_check.hpp"
#include "cli/job_view.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/cut_off_point.hpp"
#include "core/machine_roofline.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/precision.hpp"
#include "core/roofline.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/report.hpp"
#include "render/text_escape.hpp"
#include "core/message_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::cli {
namespace {

struct ReportArgs {
    std::string machine = kStored;
    std::vector<std::string> points;  // empty: the latest stored set
    std::string format = "text";
    std::string view = "carm";
    std::optional<std::string> precision;  // default: the points' own, else dp
    std::optional<int> threads;  // unset: chosen from the points, see select_roofline
    std::string output;
    std::string db;
    bool quiet = false;
    std::string gpu;  // --gpu N[:PRECISION]: judge against GPU N of the machine instead of its CPU
    std::string job;  // --job ID: a monitored job's samples over time (job_view.hpp)
};

// The points that can be placed on `roofline`, analysed; those with no work that moved data in
// `moved`, their bandwidth against each level's roof; the others named in notes and, with why,
// in `not_judged` (the report lists them too).
std::vector<Analysis> judge_points(const Roofline& roofline, const std::vector<Point>& points, View view, bool quiet,
                                   std::vector<NotJudged>& not_judged, std::vector<MovedData>& moved) {
    // A roofline in GFLOP/s cannot place exchanges or bit ops: say so instead of plotting nonsense.
    for (const auto& point : points) {
        if (point.work_unit != roofline.work_unit) {
            throw std::runtime_error(fmt::format(
                "point '{}' counts its work in {} but the machine's roofline is in {}: report it against a "
                "machine model measured in {}",
                point.name, point.work_unit, roofline.work_unit, point.work_unit));
        }
    }
    // Only a point with work and bytes at a level the roofline has a roof for can be judged: one whose work
    // was not counted (time engine), is zero, or that has no such bytes (ORM: no DRAM bytes) is named
    // instead of being shown at 0% or called compute-bound.
    std::vector<Analysis> analyses;
    analyses.reserve(points.size());
    std::vector<std::string> uncounted, unknown_flops, no_work, no_bytes;
    // The points cut off by a signal (core/cut_off_point), by the name they are listed under.
    std::map<std::string, int> cut_off;
    const auto listed = [&](std::vector<std::string>& list, const Point& point, std::string name) {
        if (const auto sig = cut_off_signal(point)) cut_off[name] = *sig;
        list.push_back(std::move(name));
    };
    for (const auto& point : points) {
        if (!point.work_counted && point.source == PointOrigin::ncu) listed(unknown_flops, point, point.name);
        else if (!point.work_counted) listed(uncounted, point, point.name);
        else if (!(point.work > 0)) {
            if (auto movement = data_movement(roofline, point, view)) moved.push_back({point.name, std::move(*movement)});
            else listed(no_work, point, point.name);
        }
        else if (bounding_levels(roofline, point, view).empty()) {
            std::vector<std::string> levels;
            for (const auto& [level, bytes] : point.bytes)
                if (bytes > 0) levels.push_back(level);
            listed(no_bytes, point, fmt::format("{} ({})", point.name,
                                           levels.empty() ? "no bytes" : "bytes at " + fmt::to_string(fmt::join(levels, ", "))));
        }
        else analyses.push_back(analyze(roofline, point, view));
    }
    const std::string work = roofline.work_unit == "FLOP" ? "FLOPs" : "work";
    auto name = [&](const std::vector<std::string>& names, const std::string& why) {
        if (names.empty() || quiet) return;
        print_stderr("roofline: note: {} point(s) not judged: {}: {}{}\n", names.size(), why,
                     fmt::join(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 10), ", "),
                     names.size() > 10 ? ", ..." : "");
    };
    const auto both = [&](const std::vector<std::string>& names, const std::string& why) {
        name(names, why);
        for (const auto& n : names) {
            const auto cut = cut_off.find(n);
            not_judged.push_back({n, why, cut == cut_off.end() ? std::nullopt : std::optional<int>(cut->second)});
        }
    };
    both(uncounted, fmt::format("their {} not counted (measured for time only, e.g. by the time engine; measure "
                                "them with --engine instrument or perf)", work));
    both(unknown_flops, "CUDA kernels whose FLOPs are unknown (tensor-core work not counted, or FLOP counters n/a: "
                        "measure's table says which)");
    both(no_work, fmt::format("no {} (nothing to place on a roofline of {}/s)", work, roofline.work_unit));
    both(no_bytes, roofline.bandwidth.empty()
                       ? "the machine model has no bandwidth roof of a memory level (a compute-only model: 'roofline "
                         "bench' without --only measures both)"
                   : view == View::orm ? "no DRAM bytes, which the ORM view places points by (--view carm uses every "
                                         "level measured)"
                                       : "no bytes at a level the machine has a roof for");

    return analyses;
}

// --gpu N: each CUDA kernel judged on the GPU roofline of its own precision, tensor-core work on
// that precision's tensor roof alone (a DGEMM on the fp64 tensor roof, an SGEMM beside it on the
// fp32 FMA roof); a section each when there are several. Kernels the GPU has no roof for are
// named, not judged on another roof (an HGEMM on the half2 FMA roof would read 760%).
int gpu_report(const ReportArgs& args, const MachineModel& model, const std::string& display,
               const std::vector<Point>& points, View view, ReportFormat format,
               const std::vector<std::string>& interrupted, const std::function<int(const std::string&)>& deliver) {
    const std::string default_precision = args.precision ? gpu_precision(*args.precision).value_or("fp64") : "fp64";
    // What the limit guard said of this GPU's roofs as the model was read (show lists it too).
    if (!args.quiet)
        for (const auto& note : gpu_limit_notes(model, args.gpu)) print_stderr("roofline: note: {}\n", note);
    std::vector<ReportSection> sections;
    std::vector<std::string> reasons;
    const auto parts = gpu_judging_parts(model, args.gpu, default_precision, display, points, args.precision.has_value());
    for (const auto& part : parts) {
        if (part.roofline) {
            if (part.points.empty()) continue;  // the default roofline, drawn by plot; nothing to judge here
            ReportSection section{part.title, *part.roofline, {}};
            section.analyses = judge_points(*part.roofline, part.points, view, args.quiet, section.not_judged, section.moved);
            sections.push_back(std::move(section));
            continue;
        }
        std::vector<std::string> names;
        for (const auto& p : part.points) names.push_back(p.name);
        reasons.push_back(part.not_judged);
        if (!args.quiet)
            print_stderr("roofline: note: {} point(s) not judged: {}: {}{}\n", names.size(), part.not_judged,
                         fmt::join(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 10), ", "),
                         names.size() > 10 ? ", ..." : "");
    }
    if (sections.empty() && reasons.empty())  // no point at all: the GPU's roofline, with nothing on it
        return deliver(render_report({}, *parts.back().roofline, format, view, interrupted));
    if (sections.empty())
        throw std::runtime_error(fmt::format("no point can be judged on GPU {}: {}", args.gpu, fmt::join(reasons, "; ")));
    if (sections.size() == 1)
        return deliver(render_report(sections[0].analyses, sections[0].roofline, format, view, interrupted,
                                     sections[0].not_judged, sections[0].moved));
    return deliver(render_sectioned_report(sections, format, view, interrupted));
}

int run_report(const ReportArgs& args) {
    if (!args.job.empty()) {
        if (!args.points.empty() || !args.gpu.empty()) throw UsageError("--job takes the job's samples from the store: no --points or --gpu with it");
        return run_job_report({args.job, args.machine, args.format, args.view, args.precision, args.threads,
                               args.output, args.db, args.quiet});
    }
    const auto format = parse_report_format(args.format);
    const View view = parse_view(args.view).value_or(View::carm);
    const auto machine_choice = parse_stored_source(args.machine, "--machine");
    std::vector<StoredSource> point_choices;
    for (const auto& text : args.points.empty() ? std::vector<std::string>{kStored} : args.points)
        point_choices.push_back(parse_stored_source(text, "--points"));
    {
        std::vector<std::pair<std::string, std::string>> inputs{{"--machine", args.machine}};
        for (const auto& p : args.points) inputs.emplace_back("--points", p);
        check_output_not_input("-o", args.output, inputs);
    }
    if (!args.output.empty()) check_writable(args.output);

    StoreAccess access(args.db);
    const auto cluster = cluster_model_path(machine_choice);  // a cluster model: judged per node
    std::vector<std::string> interrupted;  // sets from a run a signal stopped: the report says they are partial
    std::vector<std::pair<std::string, Provenance>> provenances;
    const std::vector<Point> points = load_point_sets(point_choices, access,
                                                      "run 'roofline measure -- ./your_app' to measure some, "
                                                      "or pass --points FILE (schema roofline.points/1)",
                                                      true, &interrupted, &provenances);
    // The latest stored model of the points' host, in a store other machines share too.
    const JudgingMachine judging = cluster ? JudgingMachine{} : load_judging_machine(
        machine_choice, access,
        "run 'roofline bench' to measure this machine, or pass --machine FILE (a model written by 'roofline bench -o')",
        machine_of_sets(provenances));
    if (!args.quiet)
        for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
    const MachineFile& machine = judging.file;
    // CSV has no place for it; the other formats say it in the report, and on stderr when it goes to a file.
    if (!interrupted.empty() && (format == ReportFormat::csv || (!args.output.empty() && !args.quiet)))
        print_stderr("roofline: warning: {}\n", partial_points_text(interrupted));
    // The same for each point whose region a signal cut off (core/cut_off_point): the others say it per point.
    if (format == ReportFormat::csv)
        for (const auto& p : points)
            if (const auto sig = cut_off_signal(p))
                print_stderr("roofline: warning: point '{}' is {}\n", terminal_text(p.name), cut_off_text(*sig, p.work_counted));
    // Points of another host or CPU judged on this model's roofs: said, not refused (comparing machines
    // is a use). A cluster model's nodes are each their own host.
    const auto elsewhere =
        cluster ? std::vector<MeasuredElsewhere>{} : sets_measured_elsewhere(provenances, point_choices.size(), machine.model);
    if (!elsewhere.empty() && (format == ReportFormat::csv || !args.gpu.empty() || (!args.output.empty() && !args.quiet)))
        print_stderr("roofline: warning: {}\n", terminal_text(measured_elsewhere_text(elsewhere)));

    require_points_on_their_device(points, args.gpu.empty() ? Device::cpu : Device::gpu);
    if (!args.gpu.empty() && !args.quiet) {
        // Their FLOPs leave out any tensor-core work: a verdict on them may judge a fraction of the kernel.
        std::vector<std::string> unrecorded;
        for (const auto& p : points)
            if (p.details.count("tensor_not_recorded") && p.work_counted) unrecorded.push_back(p.name);
        if (!unrecorded.empty())
            print_stderr("roofline: warning: {} kernel(s) measured without tensor-core metrics (no "
                         "sm__ops_path_tensor_src_* nor sm__inst_executed_pipe_tensor): their FLOPs leave out any "
                         "tensor-core work, so one that used the tensor cores is judged far below its truth: {}{}\n",
                         unrecorded.size(),
                         fmt::join(unrecorded.begin(), unrecorded.begin() + std::min<std::size_t>(unrecorded.size(), 5), ", "),
                         unrecorded.size() > 5 ? ", ..." : "");
    }
    const auto deliver = [&](const std::string& report) {
        write_result(args.output, report);
        if (!args.output.empty() && !is_standard_output_path(args.output) && !args.quiet)
            print_stderr("report written to {}\n", message_name(args.output));
        return kExitOk;
    };
    if (cluster) {
        if (!args.gpu.empty()) throw UsageError("--gpu judges against one machine's GPU: pass that node's model, not a cluster model");
        const auto view_of_cluster = cluster_view(*cluster, points, {args.precision, args.threads}, false);
        if (!args.quiet && !view_of_cluster.not_judged.empty())
            print_stderr("roofline: note: not judged against the cluster model: {}\n", not_judged_text(view_of_cluster));
        if (view_of_cluster.parts.empty())
            throw std::runtime_error(fmt::format("no point to judge against the cluster model {}: its nodes' shares of an "
                                                 "MPI job (NAME [node H], from mpirun roofline measure) or the job's "
                                                 "totals over all its nodes", *cluster));
        std::vector<ReportSection> sections;
        for (const auto& part : view_of_cluster.parts)
        {
            ReportSection section{part.name, part.roofline, {}};
            section.analyses = judge_points(part.roofline, part.points, view, args.quiet, section.not_judged, section.moved);
            sections.push_back(std::move(section));
        }
        return deliver(render_sectioned_report(sections, format, view, interrupted));
    }
    if (!args.gpu.empty() && args.threads) throw UsageError("--threads picks a CPU roofline; --gpu judges against a GPU's");
    if (!args.gpu.empty()) return gpu_report(args, machine.model, judging.display, points, view, format, interrupted, deliver);
    const Roofline roofline = [&] {
        try {
            const auto selection = select_roofline(machine.model, points, {args.precision, args.threads});
            const auto note = mixed_threads_note(machine.model, points, {args.precision, args.threads}, selection);
            if (!note.empty() && !args.quiet) print_stderr("roofline: note: {}\n", note);
            if (const auto mixed = mixed_precision_note(points, {args.precision, args.threads}, selection);
                !mixed.empty() && !args.quiet)
                print_stderr("roofline: note: {}\n", mixed);
            if (const auto missing = missing_precision_note(machine.model, points, {args.precision, args.threads}, selection);
                !missing.empty())
                print_stderr("roofline: warning: {}\n", missing);
            return roofline_from_machine_file(machine, selection);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(fmt::format("{}: {}", judging.display, e.what()));
        }
    }();
    std::vector<NotJudged> not_judged;
    std::vector<MovedData> moved;
    const auto analyses = judge_points(roofline, points, view, args.quiet, not_judged, moved);
    return deliver(render_report(analyses, roofline, format, view, interrupted, not_judged, moved, elsewhere));
}

} // namespace

void add_report_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ReportArgs>();
    auto* cmd = add_command(app, "report", "Explain what bounds each point and what to try next");
    cmd->description(
        "Places points (measured regions, reference kernels, modelled loops) on a machine's roofline\n"
        "and reports, per point: achieved performance and intensity, the roof that binds it, the\n"
        "ceilings just above and below it and the limiting metric, efficiency, headroom to the\n"
        "compute roof and to each bandwidth roof under it at the point's intensity, and the\n"
        "optimizations to try next in the order the ceilings suggest.\n"
        "With a cluster model (bench --mpi -o cluster.json) as --machine, an MPI job's points are judged\n"
        "per node: each node's share (NAME [node H]) against that node's roofline, the job's total over\n"
        "all the nodes against the sum of their roofs; one section each.");
    add_machine_option(cmd, args->machine);
    add_points_option(cmd, args->points)
        ->description("Points: a JSON file (schema roofline.points/1), 'stored' (the latest set) or 'stored:ID'; "
                      "repeat to combine (default: the latest stored set)");
    add_format_option(cmd, args->format, {"text", "markdown", "csv", "json"});
    cmd->add_option("--view", args->view, "carm: every cache level bounds a point; orm: DRAM only (original model)")
        ->check(CLI::IsMember(view_names()))
        ->capture_default_str();
    add_roofline_precision_option(cmd, args->precision);
    add_roofline_threads_option(cmd, args->threads);
    cmd->add_option("--gpu", args->gpu,
                    "Judge the points against GPU N of the machine (measured by 'bench --gpu'): N or N:PRECISION "
                    "(fp64, fp32, fp16, bf16, tf32, lop3, ...; default fp64, fp32 with --precision sp)")
        ->type_name("N[:PRECISION]")
        ->check(value_check(gpu_choice_problem));
    cmd->add_option("--job", args->job,
                    "A job sampled by 'roofline monitor': time memory- vs compute-bound and efficiency over time "
                    "(text or json)");
    add_output_option(cmd, args->output, "Write the report to FILE instead of standard output");
    add_db_option(cmd, args->db);
    add_quiet_flag(cmd, args->quiet);
    cmd->footer("Examples:\n"
                "  roofline report                                    latest stored machine and points\n"
                "  roofline report --machine m.json --points app.json --format markdown\n"
                "  roofline report --machine cluster.json --points job.json   an MPI job, node by node\n"
                "  roofline report --points a.json --points b.json --view orm --format csv -o bounds.csv");
    cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

} // namespace roofline::cli
