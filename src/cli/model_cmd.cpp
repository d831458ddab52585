// roofline model: predict kernels described on paper (YAML specs) on a machine
// (measured, stored, or a hand-written spec sheet), or the one-line formula
// min(peak, bandwidth x intensity).
#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/common_options.hpp"
#include "cli/value_check.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/kernel_footprint.hpp"
#include "core/kernel_spec.hpp"
#include "core/kernel_spec_roofs.hpp"
#include "core/machine_roofline.hpp"
#include "core/precision.hpp"
#include "core/roofline.hpp"
#include "io/kernel_spec_yaml.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "render/model_report.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>

namespace roofline::cli {
namespace {

struct ModelArgs {
    std::vector<std::string> specs;
    std::string machine;
    std::string db;
    std::optional<std::string> precision;
    std::optional<int> threads;
    std::string view = "carm";
    ReportFormat format = ReportFormat::text;
    std::string format_name;
    std::optional<double> peak, bandwidth, intensity;
    std::string unit = "FLOP";
    std::string output;
    bool quiet = false;
};

// --- the one-liner -------------------------------------------------------------

int run_formula(const ModelArgs& a) {
    if (!a.peak || !a.bandwidth) throw UsageError("--intensity needs --peak and --bw");
    if (!a.specs.empty() || !a.machine.empty())
        throw UsageError("--intensity is the formula form: give no kernel specs and no --machine with it");
    FormulaResult f;
    f.work_unit = a.unit;
    f.peak = *a.peak;
    f.bandwidth = *a.bandwidth;
    f.intensity = *a.intensity;
    f.attainable = attainable(f.peak, f.bandwidth, f.intensity);
    f.ridge = ridge_point(f.peak, f.bandwidth);
    f.memory_bound = f.intensity < f.ridge;
    fmt::print("{}", render_formula(f, a.format));
    return kExitOk;
}

// --- which roofline -------------------------------------------------------------

Roofline roofline_from_figures(const ModelArgs& a, const std::string& precision) {
    Roofline r;
    r.label = fmt::format("peak {} {}, {} GB/s", format_count(*a.peak), rate_unit(a.unit), format_count(*a.bandwidth));
    r.work_unit = a.unit;
    r.precision = precision;
    r.threads = a.threads.value_or(0);
    r.compute = {"peak", "", *a.peak};
    r.bandwidth = {{"DRAM bandwidth", "DRAM", *a.bandwidth}};
    return r;
}

// The machine the kernels are judged on, read once, and its roofline per precision.
class Rooflines {
public:
    explicit Rooflines(const ModelArgs& a) : a_(a) {
        if (a.peak || a.bandwidth) {
            if (!a.peak || !a.bandwidth) throw UsageError("--peak and --bw go together (or give --machine)");
            if (!a.machine.empty()) throw UsageError("give either --machine or --peak/--bw, not both");
            return;
        }
        // The resolver plot and report use: a file, 'stored' or 'stored:ID'.
        const StoredSource source = parse_stored_source(a.machine.empty() ? kStored : a.machine, "--machine");
        StoreAccess access(a.db);
        JudgingMachine judging =
            load_judging_machine(source, access,
                                 fmt::format("run 'roofline bench' first, or pass --machine FILE (a model from "
                                             "'roofline bench -o' or a spec sheet such as examples/machines/*.yaml){}",
                                             a.machine.empty() ? ", or --peak and --bw" : ""));
        if (!a.quiet)
            for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
        judging_ = std::move(judging);
    }

    bool figures() const { return !judging_.has_value(); }

    // The machine file judging; null for --peak/--bw.
    const MachineFile* file() const { return judging_ ? &judging_->file : nullptr; }

    // What the machine's caches hold for `threads` threads, at the levels `r` has a
    // bandwidth roof for (a working set placed where no roof is would be bound by none).
    // Empty for --peak/--bw and machines that do not describe their caches.
    std::vector<CacheCapacity> capacities(const Roofline& r, bool with_roof_only) const {
        if (figures()) return {};
        std::vector<CacheCapacity> out;
        for (auto& c : cache_capacities(judging_->file.model.caches, r.threads))
            if (!with_roof_only || std::any_of(r.bandwidth.begin(), r.bandwidth.end(),
                                               [&](const Roof& b) { return b.level == c.level && b.value > 0; }))
                out.push_back(c);
        return out;
    }

    // The cache line strided and random operands move below L1: the machine's L1 line
    // where it describes one, else 64 B (the spec's default).
    std::optional<double> line_bytes() const {
        if (figures()) return std::nullopt;
        for (const auto& c : judging_->file.model.caches)
            if (c.level == 1 && c.line_bytes > 0) return static_cast<double>(c.line_bytes);
        return std::nullopt;
    }

    // The roofline of `precision` (nullopt: as the model's policy chooses without points).
    // What the machine lacks is not a malformed command line: exit 1, as report and plot do.
    Roofline of(const std::optional<std::string>& precision) const {
        if (figures()) return roofline_from_figures(a_, precision.value_or(a_.precision.value_or("dp")));
        try {
            return build(precision);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(
                fmt::format("{}: {} (choose another --precision or --threads)", judging_->display, e.what()));
        }
    }

    // nullopt when the machine has no compute roof of `precision` at the thread count.
    std::optional<Roofline> find(const std::string& precision) const {
        try {
            return build(precision);
        } catch (const std::invalid_argument&) {
            return std::nullopt;
        }
    }

    // The lower of the dp and sp peaks the machine has (what a kernel that does not say
    // which FLOPs it does is sure not to beat); nullopt when it has neither.
    std::optional<Roofline> lower_peak() const {
        std::optional<Roofline> out;
        for (const char* p : {"dp", "sp"})
            if (auto r = find(p); r && (!out || r->compute.value < out->compute.value)) out = std::move(r);
        return out;
    }

private:
    Roofline build(const std::optional<std::string>& precision) const {
        RooflineRequest request;
        request.precision = precision;
        request.threads = a_.threads;
        return roofline_from_machine_file(judging_->file, select_roofline(judging_->file.model, {}, request));
    }

    const ModelArgs& a_;
    std::optional<JudgingMachine> judging_;
};

// The roofline a kernel is judged on: its own precision's (declared, or its operands'
// one floating-point type), --precision when asked, and when the spec cannot say, or
// the machine has no roof of its precision, the lower peak (a prediction is a bound
// the kernel should not beat; the higher peak could promise what it cannot do).
std::pair<Roofline, PrecisionChoice> judging_roofline(const KernelSpec& spec, const SpecPrecision& own,
                                                      const Rooflines& rooflines, const ModelArgs& a) {
    if (spec.work_unit != "FLOP") return {rooflines.of(a.precision), PrecisionChoice::not_flop};
    if (a.precision) return {rooflines.of(a.precision), PrecisionChoice::asked};
    if (rooflines.figures())
        return {rooflines.of(own.precision.empty() ? std::nullopt : std::optional(own.precision)),
                PrecisionChoice::figures};
    if (!own.precision.empty())
        if (auto r = rooflines.find(own.precision)) return {std::move(*r), PrecisionChoice::own};
    if (auto r = rooflines.lower_peak())
        return {std::move(*r), own.precision.empty() ? PrecisionChoice::lower_peak : PrecisionChoice::own_missing};
    return {rooflines.of(std::nullopt), PrecisionChoice::not_flop};  // a sheet whose peaks are in other units
}

int run_specs(const ModelArgs& a) {
    if (a.specs.empty())
        throw UsageError("give kernel spec files (e.g. examples/kernels/stream_triad.yaml), or --peak, --bw and --intensity");
    // Parse everything before printing anything: a bad file fails the whole run cleanly.
    std::vector<std::pair<std::string, std::vector<KernelSpec>>> files;
    for (const auto& path : a.specs) files.emplace_back(path, read_kernel_spec_file(path));

    const Rooflines rooflines(a);
    const View view = parse_view(a.view).value_or(View::carm);

    {
        std::vector<std::pair<std::string, std::string>> inputs{{"--machine", a.machine}};
        for (const auto& s : a.specs) inputs.emplace_back("a kernel spec model reads", s);
        check_output_not_input("-o", a.output, inputs);
    }
    if (!a.output.empty()) check_writable(a.output);
    std::vector<KernelModelResult> results;
    std::vector<Point> predicted;
    std::vector<std::string> unpredicted;
    std::string last_label;
    bool all_for_roofs = true;  // every kernel left out lacked a bandwidth roof (else their reasons are above)
    for (const auto& [path, specs] : files) {
        for (KernelSpec spec : specs) {
            if (const auto line = rooflines.line_bytes()) spec.line_bytes = *line;
            const SpecPrecision own = spec_precision(spec);
            auto [r, choice] = judging_roofline(spec, own, rooflines, a);
            last_label = r.label;
            // Residences the caches cannot hold: refused when the sizes given say so, else warned.
            std::vector<std::string> warnings;
            std::string refused;
            for (const auto& problem : residency_problems(spec, rooflines.capacities(r, false))) {
                const std::string text = residency_problem_text(spec, problem, r.threads);
                if (problem.kind == ResidencyProblem::Kind::too_small) refused += (refused.empty() ? "" : "; ") + text;
                else warnings.push_back(text);
            }
            if (!refused.empty()) {
                unpredicted.push_back(spec.name);
                all_for_roofs = false;
                print_stderr("roofline: error: {}: no prediction: {}\n", terminal_text(spec.name), terminal_text(refused));
                continue;
            }
            if (const MachineFile* file = rooflines.file()) {
                if (const std::string why = spec_isa_problem(spec, file->model); !why.empty()) {
                    unpredicted.push_back(spec.name);
                    all_for_roofs = false;
                    print_stderr("roofline: error: {}: no prediction: {}\n", terminal_text(spec.name), terminal_text(why));
                    continue;
                }
            }
            for (const auto& w : warnings)
                print_stderr("roofline: warning: {}: {}\n", terminal_text(spec.name), terminal_text(w));
            // A working set that fits a cache is predicted from it (the loop run again over
            // its data, as it is timed); the spec as written, from memory, beside it.
            // The ORM view bounds by DRAM alone: data placed in a cache would be bound by nothing but
            // the peak (a triad "compute-bound"), so it is predicted as written, from memory.
            std::optional<CacheFit> fit;
            if (view != View::orm) fit = fit_in_cache(spec, rooflines.capacities(r, true));
            if (fit && !unpredictable_reason(fit->placed, r, view).empty()) fit.reset();
            const KernelSpec& judged = fit ? fit->placed : spec;
            // A cache that holds the working set but has no roof at this thread count cannot bound it:
            // the prediction from further out is then no upper bound for the warm loop, said.
            if (const auto held = fit_in_cache(spec, rooflines.capacities(r, false));
                held && (!fit || held->level < fit->level)) {
                warnings.push_back(unroofed_fit_text(*held, r.threads, fit ? fit->level : "", view));
                print_stderr("roofline: warning: {}: {}\n", terminal_text(spec.name), terminal_text(warnings.back()));
            }
            // An operand reused more than once per element whose own size fits a cache inner to the
            // level it is counted from (a 256-bin histogram's 1 KiB, counted from memory at 132 B an
            // update): the prediction may be far too slow, said, not changed.
            for (const auto& reused : reused_outside_their_cache(judged, rooflines.capacities(r, true))) {
                warnings.push_back(reused_operand_text(reused, r.threads));
                print_stderr("roofline: warning: {}: {}\n", terminal_text(spec.name), terminal_text(warnings.back()));
            }
            if (const std::string why = unpredictable_reason(judged, r, view); !why.empty()) {
                unpredicted.push_back(spec.name);
                print_stderr("roofline: error: {}: no prediction: {}\n", terminal_text(spec.name), terminal_text(why));
                continue;
            }
            if (spec.work_unit != r.work_unit && spec.work_per_iteration > 0)
                print_stderr("roofline: warning: {} counts {} but the roofline's peak is in {}\n",
                           terminal_text(spec.name), terminal_text(spec.work_unit), rate_unit(r.work_unit));
            // The roofs of this loop's own mix of loads and stores, and of its ISA when it names one.
            const SpecRoofline roofs = spec_roofline(judged, rooflines.file(), r);
            KernelModelResult result{judged,   path,        predict(judged, roofs.roofline, view),
                                     roofs.roofline, own,   choice,
                                     fit,      std::nullopt, warnings,
                                     roofs.compute,  roofs.levels, r.bandwidth};
            if (fit && unpredictable_reason(spec, r, view).empty())
                result.from_memory = predict(spec, spec_roofline(spec, rooflines.file(), r).roofline, view);
            predicted.push_back(result.prediction.point);
            predicted.back().source = PointOrigin::model;
            predicted.back().threads = std::max(1, r.threads);
            results.push_back(std::move(result));
        }
    }
    if (results.empty())
        throw std::runtime_error(
            all_for_roofs ? fmt::format("no kernel could be predicted on {}: give a machine model with bandwidth "
                                        "roofs ('roofline bench' without --only measures both), or --peak with --bw",
                                        last_label)
                          : fmt::format("no kernel could be predicted on {} (each one's reason is above)", last_label));
    fmt::print("{}", render_kernel_models(view, results, a.format));
    // Predicted points (time = the model's time) for `roofline plot --points` and `report`.
    if (!a.output.empty()) write_points_file(a.output, predicted);
    // Some kernels were left out: the output is not the whole answer, and a script must see that.
    return unpredicted.empty() ? kExitOk : kExitFailure;
}

int run(ModelArgs a) {
    a.format = parse_report_format(a.format_name);  // --peak, --bw and --intensity are checked when parsed
    if (a.intensity) return run_formula(a);
    return run_specs(a);
}

} // namespace

void add_model_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ModelArgs>();
    auto* cmd = add_command(app, "model", "Predict kernels described on paper on a machine, or evaluate min(peak, bw x I)");
    cmd->description(
        "Places loops described in YAML kernel specs (work and bytes per iteration, write-allocate,\n"
        "operands kept in registers or caches) on a machine's roofline and prints, per kernel: the\n"
        "intensity at each memory level, the predicted performance, the roof that binds it, the time\n"
        "for the given size and what would lift it. The machine is the latest stored model\n"
        "(roofline bench), a model file, a hand-written spec sheet (YAML), or --peak with --bw.\n"
        "Threads: a spec's 'iterations' and each operand's 'elements' are the whole loop's, the same\n"
        "at any --threads N: its work, bytes and time are the team's, on the roofs of N threads, and\n"
        "the caches are checked with the data split evenly among the N threads (a cache shared by k\n"
        "of them holds their k shares); an operand with 'per_thread: true' has 'elements' for each\n"
        "thread (x of a matrix-vector product every thread reads, a thread's own tile).\n"
        "The formula form --peak G --bw B --intensity I prints min(G, B x I).\n"
        "Formats: examples/README.md; specs in examples/kernels, spec sheets in examples/machines.");
    cmd->add_option("specs", args->specs, "Kernel spec files (YAML)")
        ->check(value_check([](const std::string& path) -> std::string {
            return path.empty() ? "model: a kernel spec file name given is empty (''): give the YAML file's name" : "";
        }));
    add_machine_option(cmd, args->machine);
    add_db_option(cmd, args->db);
    // 'DP', 'double', 'fp64' are dp as everywhere (a sheet's peak so written is dp too): it said
    // "this model has no DP compute roof; it has DP". Another work unit is taken as written.
    add_roofline_precision_option(cmd, args->precision, " (or a spec sheet's work unit)")
        ->transform(CLI::Validator(
            [](std::string& text) {
                if (const auto canonical = canonical_precision(text); canonical && is_flop_precision(*canonical))
                    text = *canonical;
                return std::string();
            },
            ""));
    add_roofline_threads_option(cmd, args->threads);
    cmd->add_option("--view", args->view, "carm: every memory level bounds; orm: DRAM only")
        ->check(CLI::IsMember(view_names()))
        ->capture_default_str();
    add_output_option(cmd, args->output,
                      "Also write the predicted points (schema roofline.points/1) for plot and report");
    cmd->add_option("--points-out", args->output, "Same as -o (kept for old scripts)")
        // A whole message: CLI11 names a hidden option '' in its own.
        ->check(value_check([](const std::string& path) -> std::string {
            return path.empty() ? "--points-out: the name given is empty (''): give a file name, or '-' for standard "
                                  "output"
                                : "";
        }))
        ->group("");
    add_format_option(cmd, args->format_name, {"text", "json"}, true);
    add_quiet_flag(cmd, args->quiet);
    cmd->add_option("--peak", args->peak, "Peak in G<unit>/s (with --bw: a roofline without a machine file)")
        ->check(figure_check(rate_range));
    cmd->add_option("--bw", args->bandwidth, "Memory bandwidth in GB/s")->check(figure_check(rate_range));
    cmd->add_option("--intensity", args->intensity, "Intensity in <unit>/byte: print min(peak, bw x intensity)")
        ->check(figure_check(intensity_range));
    cmd->add_option("--unit", args->unit, "Work unit with --peak: FLOP, IOP, exchange, ...")
        ->check(CLI::Validator(
            [](const std::string& unit) {
                return is_valid_work_unit_name(unit)
                           ? std::string()
                           : std::string("expected a unit name such as FLOP, IOP or exchange (a letter, then letters, "
                                         "digits, '_', '-', '.' or spaces, at most 32)");
            },
            "UNIT"))
        ->capture_default_str();
    cmd->footer("Examples:\n"
                "  roofline model --peak 85.8 --bw 29 --intensity 0.05\n"
                "  roofline model examples/kernels/stream_triad.yaml --machine examples/machines/example_85_8.yaml\n"
                "  roofline model examples/kernels/*.yaml                (on the latest stored machine)\n"
                "  roofline model examples/kernels/dmvm.yaml --peak 100 --bw 32 --format json");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

} // namespace roofline::cli
