// `roofline compare A B`: two machine models or two point sets (files or stored)
// side by side: roofs with ratios, points matched by name with their ratio and
// whether the roof moved or the efficiency did; a chart overlaying both.
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/command_series.hpp"
#include "core/comparison.hpp"
#include "core/machine_file.hpp"
#include "core/machine_roofline.hpp"
#include "io/json_node.hpp"
#include "io/text_file.hpp"
#include "render/chart.hpp"
#include "render/comparison_text.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <optional>

namespace roofline::cli {
namespace {

struct CompareArgs {
    std::vector<std::string> files;     // A B: files, each a machine or a point set
    std::vector<std::string> machines;  // --machine A --machine B (or one for both point sets)
    std::vector<std::string> points;    // --points A --points B
    std::string view = "carm";
    std::optional<std::string> precision;
    std::optional<int> threads;
    std::string format = "text";
    std::string output;
    std::string chart;
    std::string db;
    bool fail_on_slower = false;
};

// A file is a point set when its JSON says so; anything else is read as a machine.
bool is_points_file(const std::string& path) {
    try {
        const auto j = parse_json_bounded(read_text_file(path), path);  // too deep: its SchemaError says so
        return j.is_object() && j.contains("schema") && j["schema"].is_string() &&
               j["schema"].get<std::string>().rfind("roofline.points", 0) == 0;
    } catch (const nlohmann::json::exception&) {
        return false;  // YAML spec sheets, or a broken file the machine reader will describe
    }
}

enum class ChartFormat { svg, html };

// What --chart writes, from its extension: .svg, or .html/.htm. A device or FIFO (/dev/stdout)
// takes SVG whatever its name; any other name is refused (x.png would get SVG inside).
ChartFormat chart_format(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".svg") return ChartFormat::svg;
    if (ext == ".html" || ext == ".htm") return ChartFormat::html;
    std::error_code ec;
    const auto kind = std::filesystem::status(path, ec).type();
    if (!ec && (kind == std::filesystem::file_type::character || kind == std::filesystem::file_type::fifo))
        return ChartFormat::svg;
    throw UsageError(fmt::format("--chart {}: compare draws its chart as SVG (.svg) or HTML (.html, .htm), not {}; "
                                 "name the file so (for a PNG, convert the SVG)",
                                 path, ext.empty() ? std::string("a file without an extension") : ext));
}

int run_compare(const CompareArgs& args) {
    std::vector<std::string> machine_texts = args.machines, point_texts = args.points;
    for (const auto& f : args.files) {
        if (f.rfind(kStored, 0) == 0)
            throw UsageError(fmt::format("'{}': say which kind with --machine {} or --points {} (the store numbers "
                                         "machines and point sets apart)", f, f, f));
        (is_points_file(f) ? point_texts : machine_texts).push_back(f);
    }
    if (machine_texts.size() > 2 || point_texts.size() > 2 || (machine_texts.empty() && point_texts.empty()) ||
        (machine_texts.size() == 1 && point_texts.size() != 2) || point_texts.size() == 1)
        throw UsageError(fmt::format(
            "compare takes two machines, two point sets, or both (got {} machine(s), {} point set(s)); with one "
            "machine, both point sets are judged on it",
            machine_texts.size(), point_texts.size()));
    if (!args.chart.empty() && machine_texts.empty())
        throw UsageError("--chart needs the machines (--machine A --machine B, or one for both)");
    // The chart is written after the comparison: the same file would lose it.
    check_outputs_differ("-o", args.output, "--chart", args.chart, "the chart would overwrite the comparison");
    {
        std::vector<std::pair<std::string, std::string>> inputs;
        for (const auto& t : machine_texts) inputs.emplace_back("--machine", t);
        for (const auto& t : point_texts) inputs.emplace_back("--points", t);
        check_output_not_input("-o", args.output, inputs);
        check_output_not_input("--chart", args.chart, inputs);
    }
    if (!args.chart.empty()) chart_format(args.chart);  // a name we would write the wrong format into: refused now
    if (!args.output.empty()) check_file_writable(args.output);
    if (!args.chart.empty()) check_file_writable(args.chart);
    const View view = parse_view(args.view).value_or(View::carm);

    StoreAccess access(args.db);
    std::vector<StoredSource> machine_sources, point_sources;
    for (const auto& t : machine_texts) machine_sources.push_back(parse_stored_source(t, "--machine"));
    for (const auto& t : point_texts) point_sources.push_back(parse_stored_source(t, "--points"));
    std::vector<MachineFile> machines;
    for (const auto& s : machine_sources) machines.push_back(load_machine(s, access, "run 'roofline bench' first"));
    std::vector<std::vector<Point>> point_sets;
    std::vector<std::vector<std::string>> commands;  // each set's command line as recorded (empty: none)
    for (const auto& s : point_sources) {
        auto document = load_points_document(s, access, "run 'roofline kernels' first");
        commands.push_back(document.provenance ? document.provenance->command : std::vector<std::string>{});
        point_sets.push_back(std::move(document.points));
    }
    // Two point sets and no machine: judged on the latest complete stored model when the store
    // has one (as report and plot do), so WHY can tell a moved roof from a changed efficiency;
    // without one they are compared by performance alone, and the table says so.
    std::vector<std::string> machine_names;
    bool machine_chosen_here = false;  // not asked for: when it cannot judge these points, they go unjudged
    for (const auto& s : machine_sources) machine_names.push_back(s.display());
    if (machines.empty() && point_sets.size() == 2 && access.store()) {
        try {
            auto judging = load_judging_machine(parse_stored_source(kStored, "--machine"), access,
                                                "give --machine, or store one with 'roofline bench'");
            for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
            machine_names.push_back(judging.display + "; --machine chooses another");
            machines.push_back(std::move(judging.file));
            machine_chosen_here = true;
        } catch (const std::exception& e) {
            print_stderr("roofline: note: the points are compared unjudged: {}\n", terminal_text(e.what()));
        }
    }

    ComparisonInput input;
    const auto label = [&](std::size_t i) {
        std::string machine;
        if (!machines.empty()) {
            const std::size_t m = std::min(i, machines.size() - 1);
            const auto& model = machines[m].model;
            machine = fmt::format("{} ({}{})", machine_label(model), machine_names[m],
                                  model.environment.timestamp.empty() ? "" : ", " + model.environment.timestamp);
        }
        if (point_sets.empty()) return machine;
        const std::string points = fmt::format("points {}", point_sources[i].display());
        return machine.empty() ? points : points + " on " + machine;
    };
    if (machines.size() == 2) {
        input.have_roofs = true;
        input.roofs = compare_roofs(machines[0].model, machines[1].model);
    }
    // Each side's roofline for judging its points and for the chart.
    std::vector<Roofline> rooflines;
    for (std::size_t i = 0; i < 2 && !machines.empty(); ++i) {
        const auto& machine = machines[std::min(i, machines.size() - 1)];
        const std::vector<Point> none;
        const auto& pts = point_sets.size() == 2 ? point_sets[i] : none;
        try {
            rooflines.push_back(roofline_from_machine_file(machine, select_roofline(machine.model, pts,
                                                                                    {args.precision, args.threads})));
        } catch (const std::invalid_argument& e) {
            const std::string why = fmt::format("{}: {}", machine_names[std::min(i, machines.size() - 1)], e.what());
            if (!machine_chosen_here) throw std::runtime_error(why);
            print_stderr("roofline: note: the points are compared unjudged: {}\n", terminal_text(why));
            rooflines.clear();
            machines.clear();
            machine_names.clear();
            break;
        }
    }
    input.label_a = label(0);  // after the rooflines: a machine that could not judge is not named
    input.label_b = label(1);
    if (point_sets.size() == 2) {
        input.have_points = true;
        input.judged = !rooflines.empty();
        input.points = compare_points(point_sets[0], rooflines.empty() ? nullptr : &rooflines[0], point_sets[1],
                                      rooflines.empty() ? nullptr : &rooflines[1], view);
        if (!point_sets[0].empty()) input.work_unit = point_sets[0].front().work_unit;
        // Two sets of measured programs (their series keys) that ran different command lines.
        const auto key = [&](std::size_t i) {
            return point_sets[i].empty() ? std::string()
                                         : command_series_key(commands[i], point_sets[i].front().source.origin());
        };
        if (const auto a = key(0), b = key(1); !a.empty() && !b.empty() && a != b) {
            input.command_a = command_line_text(commands[0]);
            input.command_b = command_line_text(commands[1]);
        }
    }
    write_result(args.output, render_comparison(input, args.format == "json"));

    if (!args.chart.empty()) {
        ChartInput chart;
        chart.view = view;
        chart.title = "A vs B";
        for (std::size_t i = 0; i < rooflines.size(); ++i) {
            if (i == 1 && machines.size() == 1) break;  // one machine: drawn once
            Roofline r = rooflines[i];
            r.label = fmt::format("{}: {}", i == 0 ? "A" : "B", r.label);
            chart.machines.push_back(std::move(r));
        }
        for (std::size_t i = 0; i < point_sets.size(); ++i)
            for (Point p : point_sets[i]) {
                if (!p.work_counted || p.work_unit != chart.machines.front().work_unit) continue;
                const std::string side = i == 0 ? "A" : "B";
                p.series = (p.series.empty() ? p.name : p.series) + " (" + side + ")";
                p.label = (p.label.empty() ? p.name : p.label) + " (" + side + ")";
                chart.points.push_back(std::move(p));
            }
        write_text_file_atomic(args.chart,
                               chart_format(args.chart) == ChartFormat::html ? render_html(chart) : render_svg(chart));
        print_stderr("chart written to {}\n", terminal_text(args.chart));
    }

    if (args.fail_on_slower) {
        bool slower = false;
        for (const auto& r : input.roofs) slower = slower || (r.significant && r.ratio < 1);
        for (const auto& p : input.points) slower = slower || (p.significant && p.ratio < 1);
        if (slower) return kExitSlower;
    }
    return kExitOk;
}

} // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<CompareArgs>();
    auto* cmd = add_command(app, "compare", "Compare two machines or two point sets: ratios, and what moved");
    cmd->description(
        "Two machine models (bench -o files, spec sheets, or stored): every roof side by side with B/A\n"
        "and whether it changed beyond the spread its samples recorded. Two point sets (measure or\n"
        "kernels -o files, or stored): points matched by name with their performance ratio (points of\n"
        "one name, NAME #k, matched by their order in each run: every pair is compared); judged\n"
        "on the machines given (A's points on A, B's on B, or both on one), each change is put down to\n"
        "the roof (the roofline allows more or less at the point's intensity) or the efficiency.\n"
        "Point sets that 'roofline measure' made from different command lines (another program by file\n"
        "name, or other arguments) are compared all the same, with a line saying so and 'other command\n"
        "line' in the WHY of every point that changed: the input may be what changed.");
    cmd->add_option("files", args->files, "A and B as files; a point set is told from a machine by its schema")
        ->check(CLI::ExistingFile)
        ->type_name("FILE");
    add_machines_option(cmd, args->machines)
        ->description("A machine: a file, or stored[:ID]; give two (A then B), or one to judge both point sets on");
    add_points_option(cmd, args->points)->description("A point set: a file, or stored[:ID]; give two (A then B)");
    cmd->add_option("--view", args->view, "carm: every cache level bounds a point; orm: DRAM only")
        ->check(CLI::IsMember(view_names()))
        ->capture_default_str();
    add_roofline_precision_option(cmd, args->precision);
    add_roofline_threads_option(cmd, args->threads);
    add_format_option(cmd, args->format, {"text", "json"});
    add_output_option(cmd, args->output, "Write the comparison to FILE instead of standard output");
    cmd->add_option("--chart", args->chart,
                    "Also draw both rooflines and both point sets on one chart: FILE.svg (SVG) or FILE.html "
                    "(HTML); other names are refused")
        ->type_name("FILE");
    add_db_option(cmd, args->db);
    cmd->add_flag("--fail-on-slower", args->fail_on_slower,
                  "Exit 3 when a roof or point of B is slower than A's beyond the spread (for CI)");
    cmd->footer("Examples:\n"
                "  roofline compare old-machine.json new-machine.json\n"
                "  roofline compare --machine stored:3 --machine stored:7 --chart both.html\n"
                "  roofline compare baseline.json pts.json --machine stored --fail-on-slower\n"
                "  roofline compare --points stored:4 --points stored:9 --machine a.json --machine b.json");
    cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

} // namespace roofline::cli
