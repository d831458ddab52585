// roofline model: predict kernels described on paper (YAML specs) on a machine
// (measured, stored, or a hand-written spec sheet), or the one-line formula
// min(peak, bandwidth x intensity).
#include "cli/commands.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/kernel_spec.hpp"
#include "core/machine_roofline.hpp"
#include "core/roofline.hpp"
#include "io/kernel_spec_yaml.hpp"
#include "io/machine_json.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>

namespace roofline::cli {
namespace {

using nlohmann::json;

struct ModelArgs {
    std::vector<std::string> specs;
    std::string machine;
    std::string db;
    std::string precision = "dp";
    int threads = 0;
    std::string view = "carm";
    bool json_output = false;
    std::optional<double> peak, bandwidth, intensity;
    std::string unit = "FLOP";
    std::string points_out;
};

// Three significant digits without exponents in the everyday range: 1.45, 29.0, 104, 0.0625.
std::string figure(double v) {
    if (v == 0 || !std::isfinite(v)) return fmt::format("{}", v);
    const double magnitude = std::fabs(v);
    if (magnitude >= 1e6 || magnitude < 1e-4) return fmt::format("{:.3g}", v);
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(magnitude))));
    return fmt::format("{:.{}f}", v, decimals);
}

// Counts as written: 2, 40, 0.25, 1e+07.
std::string count(double v) { return fmt::format("{:.4g}", v); }

std::string seconds_text(double s) {
    if (s >= 1) return figure(s) + " s";
    if (s >= 1e-3) return figure(s * 1e3) + " ms";
    if (s >= 1e-6) return figure(s * 1e6) + " us";
    return figure(s * 1e9) + " ns";
}

void require_positive(const std::optional<double>& v, const char* option) {
    if (v && !(*v > 0)) throw UsageError(fmt::format("{} must be positive (got {})", option, *v));
}

// --- the one-liner -------------------------------------------------------------

int run_formula(const ModelArgs& a) {
    if (!a.peak || !a.bandwidth) throw UsageError("--intensity needs --peak and --bw");
    if (!a.specs.empty() || !a.machine.empty())
        throw UsageError("--intensity is the formula form: give no kernel specs and no --machine with it");
    const double value = attainable(*a.peak, *a.bandwidth, *a.intensity);
    const double ridge = ridge_point(*a.peak, *a.bandwidth);
    const bool memory_bound = *a.intensity < ridge;
    if (a.json_output) {
        json out = {{"schema", "roofline.model/1"},
                    {"work_unit", a.unit},
                    {"peak", *a.peak},
                    {"bandwidth_gbs", *a.bandwidth},
                    {"intensity", *a.intensity},
                    {"attainable", value},
                    {"ridge_point", ridge},
                    {"bound", memory_bound ? "memory" : "compute"}};
        fmt::print("{}\n", out.dump(2));
        return kExitOk;
    }
    fmt::print("attainable: {} G{}/s\n", figure(value), a.unit);
    if (memory_bound)
        fmt::print("  memory-bound: {} GB/s x {} {}/B (below the ridge point {} {}/B; peak {} G{}/s)\n",
                   count(*a.bandwidth), count(*a.intensity), a.unit, figure(ridge), a.unit, count(*a.peak), a.unit);
    else
        fmt::print("  compute-bound: the peak {} G{}/s (at or above the ridge point {} {}/B)\n", count(*a.peak), a.unit,
                   figure(ridge), a.unit);
    return kExitOk;
}

// --- which roofline -------------------------------------------------------------

Roofline roofline_from_figures(const ModelArgs& a) {
    Roofline r;
    r.label = fmt::format("peak {} G{}/s, {} GB/s", count(*a.peak), a.unit, count(*a.bandwidth));
    r.work_unit = a.unit;
    r.precision = a.precision;
    r.threads = a.threads;
    r.compute = {"peak", "", *a.peak};
    r.bandwidth = {{"DRAM bandwidth", "DRAM", *a.bandwidth}};
    return r;
}

Roofline choose_roofline(const ModelArgs& a) {
    if (a.peak || a.bandwidth) {
        if (!a.peak || !a.bandwidth) throw UsageError("--peak and --bw go together (or give --machine)");
        if (!a.machine.empty()) throw UsageError("give either --machine or --peak/--bw, not both");
        return roofline_from_figures(a);
    }
    // The resolver plot and report use: a file, 'stored' or 'stored:ID'.
    const StoredSource source = parse_stored_source(a.machine.empty() ? kStored : a.machine, "--machine");
    StoreAccess access(a.db);
    const MachineFile machine =
        load_machine(source, access,
                     fmt::format("run 'roofline bench' first, or pass --machine FILE (a model from 'roofline bench "
                                 "-o' or a spec sheet such as examples/machines/*.yaml){}",
                                 a.machine.empty() ? ", or --peak and --bw" : ""));
    try {
        RooflineRequest request;
        request.precision = a.precision;
        request.threads = a.threads;
        return roofline_from_machine_file(machine, select_roofline(machine.model, {}, request));
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("{}: {} (choose another --precision or --threads)", source.display(), e.what()));
    }
}

// --- output -------------------------------------------------------------------

std::string bytes_list(const std::map<std::string, double>& per_level) {
    std::string out;
    for (const auto& level : spec_levels())
        if (auto it = per_level.find(level); it != per_level.end())
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", level, count(it->second));
    return out.empty() ? "none (everything in registers)" : out;
}

std::string rate(const Roofline& r) { return "G" + r.work_unit + "/s"; }

void print_kernel(const KernelSpec& k, const std::string& file, const KernelPrediction& p, const Roofline& r) {
    fmt::print("{}  ({})\n", k.name, file);
    if (!k.description.empty()) fmt::print("  {}\n", k.description);
    const auto bytes = bytes_per_iteration(k);
    const auto nominal = nominal_bytes_per_iteration(k);
    fmt::print("  per iteration   {} {}; bytes {}\n", count(k.work_per_iteration), k.work_unit, bytes_list(bytes));
    if (bytes != nominal) fmt::print("                  (nominal, without write-allocate: {})\n", bytes_list(nominal));
    if (k.work_per_iteration > 0) {
        std::string intensities;
        for (const auto& level : spec_levels())
            if (auto it = p.intensity.find(level); it != p.intensity.end())
                intensities += fmt::format("{}{} {}", intensities.empty() ? "" : ", ", level, figure(it->second));
        fmt::print("  intensity       {} {}/B\n", intensities.empty() ? "-" : intensities, k.work_unit);
    }
    if (p.binding_level.empty()) {
        fmt::print("  predicted       {} {}, compute-bound ({} {})\n", figure(p.performance), rate(r), p.binding_roof,
                   count(r.compute.value));
    } else {
        const Roof* roof = nullptr;
        for (const auto& b : r.bandwidth)
            if (b.level == p.binding_level) roof = &b;
        fmt::print("  predicted       {} {}, bound by {} ({} GB/s", figure(p.performance), rate(r), p.binding_roof,
                   count(roof ? roof->value : p.binding_bandwidth_gbs));
        if (k.work_per_iteration > 0)
            fmt::print(" x {} {}/B", figure(p.intensity.at(p.binding_level)), k.work_unit);
        fmt::print(")\n");
    }
    if (p.seconds)
        fmt::print("  time            {} for {} iterations{}\n", seconds_text(*p.seconds), count(*k.iterations),
                   k.iterations_text.empty() || k.iterations_text == fmt::format("{}", *k.iterations)
                       ? ""
                       : " (" + k.iterations_text + ")");
    else
        fmt::print("  time            {} per iteration (no 'iterations' in the spec)\n", seconds_text(p.seconds_per_iteration));
    if (!p.lifts.empty() || !p.analysis.next_steps.empty()) {
        fmt::print("  would lift it\n");
        for (const auto& lift : p.lifts) fmt::print("    - {}: {} {}\n", lift.what, figure(lift.performance), rate(r));
        if (p.lifts.empty())
            for (const auto& step : p.analysis.next_steps) fmt::print("    - {}\n", step);
    }
    if (!p.must_beat.empty()) {
        std::string names;
        for (const auto& c : p.must_beat) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", c.name, count(c.value));
        fmt::print("  reaching it needs the code above: {}\n", names);
    }
}

json kernel_json(const KernelSpec& k, const std::string& file, const KernelPrediction& p) {
    json lifts = json::array();
    for (const auto& l : p.lifts) lifts.push_back({{"what", l.what}, {"performance", l.performance}});
    json headroom = json::array();
    for (const auto& h : p.analysis.headroom) headroom.push_back({{"roof", h.roof}, {"attainable", h.attainable}});
    json must_beat = json::array();
    for (const auto& c : p.must_beat)
        must_beat.push_back({{"name", c.name}, {"kind", c.kind}, {"level", c.level}, {"value", c.value}, {"advice", c.advice}});
    json out = {{"name", k.name},
                {"file", file},
                {"description", k.description},
                {"work_unit", k.work_unit},
                {"work_per_iteration", k.work_per_iteration},
                {"iterations", k.iterations ? json(*k.iterations) : json(nullptr)},
                {"bytes_per_iteration", bytes_per_iteration(k)},
                {"nominal_bytes_per_iteration", nominal_bytes_per_iteration(k)},
                {"intensity", p.intensity},
                {"performance", p.performance},
                {"binding_roof", p.binding_roof},
                {"binding_level", p.binding_level},
                {"memory_bound", !p.binding_level.empty()},
                {"seconds", p.seconds ? json(*p.seconds) : json(nullptr)},
                {"seconds_per_iteration", p.seconds_per_iteration},
                {"lifts", lifts},
                {"next_steps", p.analysis.next_steps},
                {"headroom", headroom},
                {"must_beat", must_beat}};
    return out;
}

int run_specs(const ModelArgs& a) {
    if (a.specs.empty())
        throw UsageError("give kernel spec files (e.g. examples/kernels/stream_triad.yaml), or --peak, --bw and --intensity");
    // Parse everything before printing anything: a bad file fails the whole run cleanly.
    std::vector<std::pair<std::string, std::vector<KernelSpec>>> files;
    for (const auto& path : a.specs) files.emplace_back(path, read_kernel_spec_file(path));

    const Roofline r = choose_roofline(a);
    const View view = a.view == "orm" ? View::orm : View::carm;

    if (!a.points_out.empty()) check_writable(a.points_out);
    json kernels = json::array();
    std::vector<Point> predicted;
    bool first = true;
    if (!a.json_output) {
        std::string roofs;
        for (const auto& b : r.bandwidth) roofs += fmt::format(", {} {} GB/s", b.level, count(b.value));
        fmt::print("machine: {} ({}{}, {} view)\n  roofs: {} {} {}{}\n\n", r.label,
                   r.precision.empty() ? r.work_unit : r.precision,
                   r.threads > 0 ? fmt::format(", {} thread{}", r.threads, r.threads == 1 ? "" : "s") : "",
                   view_name(view), r.compute.name, count(r.compute.value), rate(r), roofs);
    }
    for (const auto& [path, specs] : files) {
        for (const auto& spec : specs) {
            if (spec.work_unit != r.work_unit && spec.work_per_iteration > 0)
                fmt::print(stderr, "roofline: warning: {} counts {} but the roofline's peak is in {}\n", spec.name,
                           spec.work_unit, rate(r));
            const KernelPrediction p = predict(spec, r, view);
            predicted.push_back(p.point);
            predicted.back().source = "model";
            predicted.back().threads = std::max(1, r.threads);
            if (a.json_output) {
                kernels.push_back(kernel_json(spec, path, p));
            } else {
                if (!first) fmt::print("\n");
                print_kernel(spec, path, p, r);
            }
            first = false;
        }
    }
    if (a.json_output) {
        json roofs = json::array();
        for (const auto& b : r.bandwidth) roofs.push_back({{"name", b.name}, {"level", b.level}, {"gbs", b.value}});
        json out = {{"schema", "roofline.model/1"},
                    {"machine", r.label},
                    {"precision", r.precision},
                    {"threads", r.threads},
                    {"view", view_name(view)},
                    {"work_unit", r.work_unit},
                    {"compute_roof", {{"name", r.compute.name}, {"value", r.compute.value}}},
                    {"bandwidth_roofs", roofs},
                    {"kernels", kernels}};
        fmt::print("{}\n", out.dump(2));
    }
    // Predicted points (time = the model's time) for `roofline plot --points` and `report`.
    if (!a.points_out.empty()) write_points_file(a.points_out, predicted);
    return kExitOk;
}

int run(const ModelArgs& a) {
    require_positive(a.peak, "--peak");
    require_positive(a.bandwidth, "--bw");
    require_positive(a.intensity, "--intensity");
    if (a.threads < 0) throw UsageError(fmt::format("--threads must not be negative (got {})", a.threads));
    if (a.intensity) return run_formula(a);
    return run_specs(a);
}

} // namespace

void add_model_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ModelArgs>();
    auto* cmd = app.add_subcommand("model", "Predict kernels described on paper on a machine, or evaluate min(peak, bw x I)");
    cmd->description(
        "Places loops described in YAML kernel specs (work and bytes per iteration, write-allocate,\n"
        "operands kept in registers or caches) on a machine's roofline and prints, per kernel: the\n"
        "intensity at each memory level, the predicted performance, the roof that binds it, the time\n"
        "for the given size and what would lift it. The machine is the latest stored model\n"
        "(roofline bench), a model file, a hand-written spec sheet (YAML), or --peak with --bw.\n"
        "The formula form --peak G --bw B --intensity I prints min(G, B x I).\n"
        "Formats: examples/README.md; specs in examples/kernels, spec sheets in examples/machines.");
    cmd->add_option("specs", args->specs, "Kernel spec files (YAML)");
    cmd->add_option("--machine", args->machine, "Machine model JSON, spec-sheet YAML, 'stored' (the latest in the results store; the default) or 'stored:ID'");
    cmd->add_option("--db", args->db, "Results database (default $ROOFLINE_DB or ~/.local/share/roofline/results.db)");
    cmd->add_option("--precision", args->precision, "Precision of the compute roof: dp, sp (or a spec sheet's unit)")->capture_default_str();
    cmd->add_option("--threads", args->threads, "Thread count of the roofline (default: the most in the model)");
    cmd->add_option("--view", args->view, "carm: every memory level bounds; orm: DRAM only")
        ->check(CLI::IsMember({"carm", "orm"}))
        ->capture_default_str();
    cmd->add_option("--points-out", args->points_out, "Also write the predicted points (schema roofline.points/1) for plot and report");
    cmd->add_flag("--json", args->json_output, "Machine-readable output (schema roofline.model/1)");
    cmd->add_option("--peak", args->peak, "Peak in G<unit>/s (with --bw: a roofline without a machine file)");
    cmd->add_option("--bw", args->bandwidth, "Memory bandwidth in GB/s");
    cmd->add_option("--intensity", args->intensity, "Intensity in <unit>/byte: print min(peak, bw x intensity)");
    cmd->add_option("--unit", args->unit, "Work unit with --peak: FLOP, IOP, exchange, ...")->capture_default_str();
    cmd->footer("Examples:\n"
                "  roofline model --peak 85.8 --bw 29 --intensity 0.05\n"
                "  roofline model examples/kernels/stream_triad.yaml --machine examples/machines/example_85_8.yaml\n"
                "  roofline model examples/kernels/*.yaml                (on the latest stored machine)\n"
                "  roofline model examples/kernels/dmvm.yaml --peak 100 --bw 32 --json");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

} // namespace roofline::cli
