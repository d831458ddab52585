// `roofline measure [options] -- COMMAND ARGS...`: run a command, count its
// work per region with an engine (perf, instrument, time), time it natively,
// merge both into points, store them and place them on the machine's roofline.
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/roofline.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "measure/child_process.hpp"
#include "measure/engine.hpp"
#include "measure/merge.hpp"
#include "measure/sampling_profiler.hpp"
#include "render/measure_tables.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline::cli {
namespace {

struct MeasureArgs {
    std::vector<std::string> command;
    std::string output;
    std::string engine = "auto";
    bool functions = false;
    std::vector<std::string> region_functions;
    std::string machine;  // empty: the latest stored machine if there is one
    std::string db;
    bool no_store = false;
    bool quiet = false;
};

std::string self_executable() {
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string{} : p.string();
}

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// The machine to compare with: --machine, else the latest stored one if any.
std::optional<MachineFile> load_machine_for(const MeasureArgs& args, StoreAccess& access) {
    if (!args.machine.empty())
        return load_machine(parse_stored_source(args.machine, "--machine"), access,
                            "run 'roofline bench' to measure this machine");
    try {
        return load_machine(parse_stored_source(kStored, "--machine"), access, "");
    } catch (const std::exception&) {
        return std::nullopt;  // nothing stored: the summary has no roofline columns
    }
}

std::optional<Analysis> place(const MachineFile& machine, const Point& p) {
    if (p.work <= 0 || p.bytes.empty() || p.seconds <= 0) return std::nullopt;
    try {
        // The policy plot and report use: the point's own precision and thread count where measured.
        return analyze(roofline_from_machine_file(machine, select_roofline(machine.model, {p}, {})), p, View::carm);
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

void print_summary(const std::vector<Point>& points, const std::optional<MachineFile>& machine) {
    std::vector<MeasuredRow> rows;
    for (const auto& p : points) rows.push_back({p, machine ? place(*machine, p) : std::nullopt});
    fmt::print("{}", render_measured_points(rows, machine.has_value()));
}

// Sampled self CPU time of function NAME; nullopt without sampling or without samples.
using Sampling = std::optional<measure::SamplingResult>;
const measure::FunctionTime* sampled(const Sampling& sampling, const std::string& name) {
    if (!sampling) return nullptr;
    const auto it = sampling->functions.find(name);
    return it == sampling->functions.end() || it->second.samples == 0 ? nullptr : &it->second;
}

std::optional<double> cpu_seconds(const Sampling& sampling, const std::string& name) {
    if (!sampling) return std::nullopt;
    const auto* t = sampled(sampling, name);
    return t ? t->seconds : 0.0;
}

// "<function dot>" -> "dot"
std::string function_of_region(const std::string& region) {
    const std::string prefix = "<function ";
    if (region.rfind(prefix, 0) != 0 || region.size() <= prefix.size() || region.back() != '>') return {};
    return region.substr(prefix.size(), region.size() - prefix.size() - 1);
}

FunctionRow function_row(const measure::RegionCounts& c, const std::string& name, const Sampling& sampling,
                         bool with_calls) {
    FunctionRow row{name, std::nullopt, c.total_flops(), static_cast<double>(c.bytes_loaded + c.bytes_stored),
                    cpu_seconds(sampling, function_of_region(c.name).empty() ? c.name : function_of_region(c.name))};
    if (with_calls) row.calls = static_cast<long long>(c.calls);
    return row;
}

std::vector<measure::RegionCounts> top_functions(const std::vector<measure::RegionCounts>& functions) {
    auto sorted = functions;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        const double fa = a.total_flops(), fb = b.total_flops();
        if (fa != fb) return fa > fb;
        return a.bytes_loaded + a.bytes_stored > b.bytes_loaded + b.bytes_stored;
    });
    if (sorted.size() > 20) sorted.resize(20);
    return sorted;
}

void print_functions(const std::vector<measure::RegionCounts>& functions, const Sampling& sampling) {
    std::vector<FunctionRow> rows;
    for (const auto& f : top_functions(functions)) rows.push_back(function_row(f, f.name, sampling, false));
    fmt::print("\n{}", render_function_table(
                           fmt::format("top functions by FLOPs, then bytes (exclusive counts from the instrument "
                                       "engine; CPU s: self CPU time from sampling a native run, summed over "
                                       "threads{}):",
                                       sampling ? "" : ", unavailable"),
                           "function", rows));
}

// Functions measured as regions: counts (inclusive of callees) from the instrument engine, time = the
// function's self CPU time from sampling (no markers time them).
void print_function_regions(const std::vector<measure::RegionCounts>& counts, const Sampling& sampling) {
    std::vector<FunctionRow> rows;
    for (const auto& c : counts)
        if (!function_of_region(c.name).empty()) rows.push_back(function_row(c, c.name, sampling, true));
    fmt::print("\n{}", render_function_table(
                           fmt::format("functions measured as regions (counts from the instrument engine, inclusive "
                                       "of callees; CPU s: self CPU time from sampling{}):",
                                       sampling ? "" : ", unavailable, so not placed on the roofline"),
                           "region", rows));
}

// A function's counts + its sampled self CPU time as a point; nullopt without samples.
std::optional<Point> sampled_point(const std::string& name, const std::string& function,
                                   const measure::RegionCounts& counts, const Sampling& sampling) {
    const auto* t = sampled(sampling, function);
    if (!t) return std::nullopt;
    Point p;
    p.name = name;
    measure::apply_counts(p, counts);
    p.seconds = t->seconds;
    p.threads = 1;  // CPU time summed over threads: compare with one thread's roofline
    p.source = "instrument+sampling";
    p.details["samples"] = static_cast<double>(t->samples);
    p.details["sample_period_seconds"] = sampling->period_seconds;
    return p;
}

int run_measure(const MeasureArgs& args) {
    if (args.command.empty())
        throw UsageError("no command to measure: put it after '--', e.g. roofline measure -- ./my_app");
    measure::MeasureRequest request;
    try {
        request.engine = measure::parse_engine(args.engine);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if ((args.functions || !args.region_functions.empty()) && request.engine != measure::EngineKind::instrument &&
        request.engine != measure::EngineKind::automatic)
        throw UsageError("--functions and --region-function need the instrument engine (--engine instrument)");
    const bool per_function = args.functions || !args.region_functions.empty();
    if (per_function) request.engine = measure::EngineKind::instrument;
    if (!args.output.empty()) check_writable(args.output);
    request.argv = args.command;
    request.functions = args.functions;
    request.region_functions = args.region_functions;
    request.self_exe = self_executable();

    measure::MeasureResult result;
    Sampling sampling;
    std::string sampling_warning;
    try {
        result = measure::run_measurement(request);
        if (per_function) {
            auto s = measure::sample_functions(request.argv, request.env);
            if (s.ok)
                sampling = std::move(s);
            else
                sampling_warning = s.error;
        }
    } catch (const measure::CommandNotFound& e) {
        fmt::print(stderr, "roofline: error: {}\n", e.what());
        return 127;
    }

    auto note = [&](const std::string& text) {
        if (!args.quiet) fmt::print(stderr, "roofline: {}\n", text);
    };
    note(fmt::format("engine: {} ({})", measure::engine_name(result.engine),
                     per_function && args.engine == "auto" ? "--functions / --region-function need it"
                                                           : result.engine_reason));
    note(fmt::format("timing comes from a native run (instrumentation distorts time); counts from the {} engine; "
                     "merged per region by name",
                     measure::engine_name(result.engine)));
    for (const auto& n : result.notes) note(n);
    for (const auto& w : result.warnings) fmt::print(stderr, "roofline: warning: {}\n", w);
    if (!result.status.exited)
        fmt::print(stderr, "roofline: the command was {}; what was measured up to then follows\n",
                   result.status.describe());

    if (per_function && sampling) {
        note(fmt::format("sampling run (per-function time): {:.3f} s, {} samples every {:.0f} us of task-clock "
                         "CPU time{}; a function's time is its self CPU time summed over threads (IP samples, no "
                         "call stacks: callees not included)",
                         sampling->wall_seconds, sampling->samples, sampling->period_seconds * 1e6,
                         sampling->lost ? fmt::format(", {} lost", sampling->lost) : std::string{}));
        if (sampling->lost)
            fmt::print(stderr, "roofline: warning: the kernel dropped {} samples: per-function times are low\n",
                       sampling->lost);
    } else if (per_function) {
        fmt::print(stderr,
                   "roofline: warning: no per-function time: sampling the native run failed ({}); functions keep "
                   "their counts but are not placed on the roofline\n",
                   sampling_warning);
    }

    std::vector<std::string> skipped;
    auto points = measure::merge_points(result, &skipped);
    std::set<std::string> placed;
    for (const auto& c : result.counts) {
        const auto fn = function_of_region(c.name);
        if (fn.empty()) continue;
        if (auto p = sampled_point(c.name, fn, c, sampling)) {
            points.push_back(std::move(*p));
            placed.insert(c.name);
        }
    }
    if (args.functions && sampling) {
        for (const auto& f : top_functions(result.functions)) {
            if (std::any_of(points.begin(), points.end(), [&](const Point& p) { return p.name == f.name; })) continue;
            if (auto p = sampled_point(f.name, f.name, f, sampling)) points.push_back(std::move(*p));
        }
    }
    for (const auto& s : skipped) {
        const auto name = s.substr(0, s.rfind(" ("));
        if (placed.count(name)) continue;
        note("not placed: " + (sampling && !function_of_region(name).empty() ? name + " (no samples in it)" : s));
    }

    StoreAccess access(args.db);
    const auto machine = load_machine_for(args, access);
    if (!args.quiet) {
        print_summary(points, machine);
        if (!machine) note("no machine model: run 'roofline bench' (or pass --machine) to see each point against the roofline");
        if (!args.region_functions.empty()) print_function_regions(result.counts, sampling);
        if (args.functions) print_functions(result.functions, sampling);
    }
    if (!args.output.empty() && !points.empty()) {
        write_points_file(args.output, points);
        note(fmt::format("points written to {}", args.output));
    }
    if (!args.no_store && !points.empty()) {
        const auto store = ResultsStore::open_db_option(args.db);
        const auto id = store->save_points(join(args.command), points);
        note(fmt::format("stored as point set #{} in {}", id, store->path()));
    }
    return result.status.pass_through_code();
}

} // namespace

void add_measure_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<MeasureArgs>();
    auto* cmd = app.add_subcommand("measure", "Run a command and place its regions on the roofline");
    cmd->description(
        "Runs COMMAND, collects per region (marker library) and for the whole program the time, FLOPs by\n"
        "precision / kind / vector width and bytes, writes points (schema roofline.points/1) and prints\n"
        "intensity, performance and, with a machine model, each point's binding roof and % of attainable.\n"
        "Timing always comes from a native run; counts from the engine; both are merged per region.\n"
        "The command's exit status is passed through (128 + N when killed by signal N; 127 when not found).");
    add_output_option(cmd, args->output, "Write the points to FILE (schema roofline.points/1)");
    cmd->add_option("--engine", args->engine,
                    "auto: perf when hardware counters are available, else instrument (Valgrind tool), else time; "
                    "perf: hardware counters; instrument: Valgrind tool; time: timing only")
        ->check(CLI::IsMember({"auto", "instrument", "perf", "time"}))
        ->capture_default_str();
    cmd->add_flag("--functions", args->functions,
                  "List the top functions by FLOPs and bytes with their self CPU time (instrument engine + a "
                  "sampled native run, no markers needed); each with samples becomes a point");
    cmd->add_option("--region-function", args->region_functions,
                    "Measure every call of function NAME as a region (repeatable; no recompiling); its time is "
                    "the function's self CPU time from sampling");
    add_machine_option(cmd, args->machine)
        ->description("Machine model to compare with: a file, 'stored' or 'stored:ID' (default: the latest stored "
                      "one, if any)");
    add_db_option(cmd, args->db);
    cmd->add_flag("--no-store", args->no_store, "Do not save the points in the results store");
    add_quiet_flag(cmd, args->quiet);
    cmd->add_option("command", args->command, "The command to measure and its arguments, after '--'");
    cmd->footer("Examples:\n"
                "  roofline measure -- ./my_app input.dat\n"
                "  roofline measure --engine instrument --functions -- ./my_app\n"
                "  roofline measure --region-function daxpy -o pts.json -- ./my_app");
    cmd->callback([args, &exit_code] { exit_code = run_measure(*args); });
}

} // namespace roofline::cli
