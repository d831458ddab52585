// `roofline compare A B`: two machine models or two point sets (files or stored)
// side by side: roofs with ratios, points matched by name with their ratio and
// whether the roof moved or the efficiency did; a chart overlaying both.
#include "bench/bench_runner.hpp"
#include "bench/burst_sampler.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/result_output.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "cli/value_check.hpp"
#include "core/command_series.hpp"
#include "core/comparison.hpp"
#include "core/machine_file.hpp"
#include "core/machine_roofline.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/message_name.hpp"
#include "core/spec_comparison.hpp"
#include "io/json_node.hpp"
#include "io/machine_spec_yaml.hpp"
#include "io/text_file.hpp"
#include "render/chart.hpp"
#include "render/comparison_text.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
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
    bool quiet = false;
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

// What A and B are, as given: files sorted by their schema, and --machine / --points; with
// how each was given, for messages ("--machine", or "A, the first file compared").
struct CompareTexts {
    std::vector<std::string> machines, points;
    std::vector<std::string> machines_given_as, points_given_as;
};

// How the i-th file given positionally is named in a message: it has no option to name.
std::string positional_name(std::size_t i) {
    if (i == 0) return "A, the first file compared";
    if (i == 1) return "B, the second file compared";
    return fmt::format("file {} compared", i + 1);
}

// Stored runs given where files go: machines and point sets are numbered apart, so it cannot
// be told which they are; the options that can, said with the IDs given (never others).
std::string stored_positional_problem(const std::vector<std::string>& texts) {
    std::vector<std::string> stored, names;
    for (const auto& t : texts)
        if (t == kStored || t.rfind(std::string(kStored) + ":", 0) == 0) stored.push_back(t);
    for (const auto& t : stored) names.push_back(message_name(t));
    const std::string given = names.size() == 1 ? names[0] : fmt::format("{}", fmt::join(names, " and "));
    std::string machines, points;
    for (const auto& t : stored) {
        machines += " --machine " + message_name(t);
        points += " --points " + message_name(t);
    }
    return fmt::format("compare: {} {} stored run{}, but A and B given alone are files: the store numbers machines "
                       "and point sets apart, so {} may name a machine or a point set; say which: "
                       "'roofline compare{}' or 'roofline compare{}'",
                       given, stored.size() == 1 ? "is a" : "are", stored.size() == 1 ? "" : "s",
                       stored.size() == 1 ? "its ID" : "each ID", machines, points);
}

// A or B that is not there, or a directory: a file that cannot be read, exit 1 as in every
// command (show, report, plot), said with what A and B may be.
void require_compared_file(const std::string& text) {
    std::error_code ec;
    const auto type = std::filesystem::status(text, ec).type();
    if (type == std::filesystem::file_type::directory)
        throw std::runtime_error(fmt::format(
            "cannot read {}: it is a directory; A and B are files (machine models or point sets)", message_name(text)));
    if (ec || type == std::filesystem::file_type::not_found)
        throw std::runtime_error(fmt::format(
            "cannot read {}: {}; A and B are files, and a stored run is given with --machine stored:ID or --points "
            "stored:ID (see 'roofline list')",
            message_name(text), ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file"));
}

// A and B sorted into machines and point sets; refused unless they make two machines, two point
// sets, or both (one machine judging both sets).
CompareTexts compare_texts(const CompareArgs& args) {
    CompareTexts texts{args.machines, args.points, std::vector<std::string>(args.machines.size(), "--machine"),
                       std::vector<std::string>(args.points.size(), "--points")};
    for (std::size_t i = 0; i < args.files.size(); ++i) {
        const auto& f = args.files[i];
        if (f == kStored || f.rfind(std::string(kStored) + ":", 0) == 0)
            throw UsageError(stored_positional_problem(args.files));
        require_compared_file(f);
        const bool points = is_points_file(f);
        (points ? texts.points : texts.machines).push_back(f);
        (points ? texts.points_given_as : texts.machines_given_as).push_back(positional_name(i));
    }
    const std::size_t machines = texts.machines.size(), points = texts.points.size();
    const bool sorted_well =
        !(machines > 2 || points > 2 || (machines == 0 && points == 0) || (machines == 1 && points != 2) || points == 1);
    // A file whose schema could not be read was sorted as a machine: when that spoils the count,
    // what is wrong is the file (truncated, empty, not JSON), not the command line. Say that.
    if (!sorted_well)
        for (const auto& f : args.files)
            if (!is_points_file(f)) load_machine_file(f);  // throws the file's own error (exit 1)
    if (!sorted_well)
        throw UsageError(fmt::format(
            "compare takes two machines, two point sets, or both (got {} machine(s), {} point set(s)); with one "
            "machine, both point sets are judged on it",
            machines, points));
    if (!args.chart.empty() && texts.machines.empty())
        throw UsageError("--chart needs the machines (--machine A --machine B, or one for both)");
    return texts;
}

// -o and --chart: neither an input nor each other, their formats known and their files writable,
// before anything is loaded.
void check_compare_outputs(const CompareArgs& args, const CompareTexts& texts) {
    // The chart is written after the comparison: the same file would lose it.
    check_outputs_differ("-o", args.output, "--chart", args.chart, "the chart would overwrite the comparison");
    std::vector<std::pair<std::string, std::string>> inputs;
    for (std::size_t i = 0; i < texts.machines.size(); ++i) inputs.emplace_back(texts.machines_given_as[i], texts.machines[i]);
    for (std::size_t i = 0; i < texts.points.size(); ++i) inputs.emplace_back(texts.points_given_as[i], texts.points[i]);
    check_output_not_input("-o", args.output, inputs);
    check_output_not_input("--chart", args.chart, inputs);
    if (!args.chart.empty()) chart_format(args.chart);  // a name we would write the wrong format into: refused now
    if (!args.output.empty()) check_file_writable(args.output);
    if (!args.chart.empty()) check_file_writable(args.chart);
}

// A and B as loaded: none, one (judging both point sets) or two machines; none or two point sets.
struct CompareSides {
    std::vector<MachineFile> machines;
    std::vector<std::string> machine_names;  // as the labels name them
    bool machine_chosen_here = false;  // not asked for: when it cannot judge these points, they go unjudged
    std::vector<StoredSource> point_sources;
    std::vector<std::vector<Point>> point_sets;
    std::vector<std::vector<std::string>> commands;  // each set's command line as recorded (empty: none)
    std::vector<std::optional<Provenance>> provenances;  // each set's, where it has one
};

CompareSides load_sides(const CompareTexts& texts, StoreAccess& access, bool quiet) {
    CompareSides sides;
    std::vector<StoredSource> machine_sources;
    for (const auto& t : texts.machines) machine_sources.push_back(parse_stored_source(t, "--machine"));
    for (const auto& t : texts.points) sides.point_sources.push_back(parse_stored_source(t, "--points"));
    for (const auto& s : machine_sources) sides.machines.push_back(load_machine(s, access, "run 'roofline bench' first"));
    for (const auto& s : sides.point_sources) {
        auto document = load_points_document(s, access, "run 'roofline kernels' first");
        sides.commands.push_back(document.provenance ? document.provenance->command : std::vector<std::string>{});
        sides.provenances.push_back(document.provenance);
        sides.point_sets.push_back(std::move(document.points));
    }
    for (const auto& s : machine_sources) sides.machine_names.push_back(s.display());
    // Two point sets and no machine: judged on the latest complete stored model when the store
    // has one (as report and plot do), so WHY can tell a moved roof from a changed efficiency;
    // without one they are compared by performance alone, and the table says so.
    if (sides.machines.empty() && sides.point_sets.size() == 2 && access.store()) {
        try {
            auto judging = load_judging_machine(parse_stored_source(kStored, "--machine"), access,
                                                "give --machine, or store one with 'roofline bench'");
            if (!quiet)
                for (const auto& note : judging.notes) print_stderr("roofline: note: {}\n", note);
            sides.machine_names.push_back(judging.display + "; --machine chooses another");
            sides.machines.push_back(std::move(judging.file));
            sides.machine_chosen_here = true;
        } catch (const std::exception& e) {
            if (!quiet) print_stderr("roofline: note: the points are compared unjudged: {}\n", terminal_text(e.what()));
        }
    }
    return sides;
}

// Each side's roofline, for judging its points and for the chart (none without machines). A
// machine the user did not choose that cannot judge these points is dropped with a note, and
// the points go unjudged; one the user chose is an error.
std::vector<Roofline> side_rooflines(CompareSides& sides, const CompareArgs& args) {
    std::vector<Roofline> rooflines;
    // What judging each side's points on its roofline means, as report says it: once when both
    // sides say the same, else with the side's letter.
    std::vector<std::pair<std::string, std::string>> precision_notes;  // (kind, text) per side
    for (std::size_t i = 0; i < 2 && !sides.machines.empty(); ++i) {
        const std::size_t m = std::min(i, sides.machines.size() - 1);
        const auto& machine = sides.machines[m];
        const std::vector<Point> none;
        const auto& pts = sides.point_sets.size() == 2 ? sides.point_sets[i] : none;
        try {
            const RooflineRequest request{args.precision, args.threads};
            const auto selection = select_roofline(machine.model, pts, request);
            rooflines.push_back(roofline_from_machine_file(machine, selection));
            if (auto missing = missing_precision_note(machine.model, pts, request, selection); !missing.empty())
                precision_notes.emplace_back("warning", std::move(missing));
            else if (auto mixed = mixed_precision_note(pts, request, selection); !mixed.empty())
                precision_notes.emplace_back("note", std::move(mixed));
            else
                precision_notes.emplace_back();
        } catch (const std::invalid_argument& e) {
            const std::string why = fmt::format("{}: {}", sides.machine_names[m], e.what());
            if (!sides.machine_chosen_here) throw std::runtime_error(why);
            if (!args.quiet) print_stderr("roofline: note: the points are compared unjudged: {}\n", terminal_text(why));
            rooflines.clear();
            sides.machines.clear();
            sides.machine_names.clear();
            return rooflines;
        }
    }
    if (sides.point_sets.size() == 2 && precision_notes.size() == 2) {
        const bool same = precision_notes[0] == precision_notes[1];
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& [kind, text] = precision_notes[i];
            if (text.empty() || (same && i == 1) || (kind == "note" && args.quiet)) continue;
            print_stderr("roofline: {}: {}{}\n", kind, same ? "" : (i == 0 ? "A: " : "B: "), terminal_text(text));
        }
    }
    return rooflines;
}

// "points P on MACHINE (NAME, TIMESTAMP)", or either part alone, for side i (0: A, 1: B).
std::string side_label(const CompareSides& sides, std::size_t i) {
    std::string machine;
    if (!sides.machines.empty()) {
        const std::size_t m = std::min(i, sides.machines.size() - 1);
        const auto& model = sides.machines[m].model;
        machine = fmt::format("{} ({}{})", machine_label(model), sides.machine_names[m],
                              model.environment.timestamp.empty() ? "" : ", " + model.environment.timestamp);
    }
    if (sides.point_sets.empty()) return machine;
    const std::string points = fmt::format("points {}", sides.point_sources[i].display());
    return machine.empty() ? points : points + " on " + machine;
}

// The two point sets matched by name, judged on their sides' rooflines when there are any; the
// command lines said when the two sets' programs ran different ones.
void compare_point_sets(ComparisonInput& input, const CompareSides& sides, const std::vector<Roofline>& rooflines,
                        View view) {
    const auto& sets = sides.point_sets;
    input.have_points = true;
    input.judged = !rooflines.empty();
    input.points = compare_points(sets[0], rooflines.empty() ? nullptr : &rooflines[0], sets[1],
                                  rooflines.empty() ? nullptr : &rooflines[1], view);
    if (!sets[0].empty()) input.work_unit = sets[0].front().work_unit;
    // Two sets of measured programs (their series keys) that ran different command lines.
    const auto key = [&](std::size_t i) {
        return sets[i].empty() ? std::string() : command_series_key(sides.commands[i], sets[i].front().source.origin());
    };
    const auto a = key(0), b = key(1);
    if (!a.empty() && !b.empty() && a != b) {
        input.command_a = command_line_text(sides.commands[0]);
        input.command_b = command_line_text(sides.commands[1]);
    }
    // One measured program and input doing other work: its time is what it takes. Sets without a
    // command line (written by hand, models, kernels) keep their rates judged, the work said in WHY.
    if (!a.empty() && a == b) judge_work_changes_on_time(input.points);
    // A side's points judged on a machine they were not measured on (the other side's, or a third).
    for (std::size_t i = 0; i < 2 && !rooflines.empty(); ++i) {
        if (!sides.provenances[i]) continue;
        const auto& model = sides.machines[std::min(i, sides.machines.size() - 1)].model;
        if (auto e = measured_elsewhere(sides.point_sources[i].display(), *sides.provenances[i], model))
            input.elsewhere.emplace_back(i == 0 ? "A" : "B", std::move(*e));
    }
}

// --chart: both rooflines (one, when one machine judges both sets) and both point sets, each
// point's series and label marked with its side.
void write_compare_chart(const std::string& path, View view, const std::vector<Roofline>& rooflines,
                         const CompareSides& sides) {
    ChartInput chart;
    chart.view = view;
    chart.title = "A vs B";
    for (std::size_t i = 0; i < rooflines.size(); ++i) {
        if (i == 1 && sides.machines.size() == 1) break;  // one machine: drawn once
        Roofline r = rooflines[i];
        r.label = fmt::format("{}: {}", i == 0 ? "A" : "B", r.label);
        chart.machines.push_back(std::move(r));
    }
    for (std::size_t i = 0; i < sides.point_sets.size(); ++i)
        for (Point p : sides.point_sets[i]) {
            if (!p.work_counted || p.work_unit != chart.machines.front().work_unit) continue;
            const std::string side = i == 0 ? "A" : "B";
            p.series = (p.series.empty() ? p.name : p.series) + " (" + side + ")";
            p.label = (p.label.empty() ? p.name : p.label) + " (" + side + ")";
            chart.points.push_back(std::move(p));
        }
    write_text_file_atomic(path, chart_format(path) == ChartFormat::html ? render_html(chart) : render_svg(chart));
}

// --fail-on-slower: whether a roof or point of B is slower than A's beyond the spread.
bool b_is_slower(const ComparisonInput& input) {
    for (const auto& r : input.roofs)
        if (r.significant && r.ratio < 1) return true;
    for (const auto& p : input.points)
        if (p.slower()) return true;
    return false;
}

int run_compare(const CompareArgs& args) {
    const CompareTexts texts = compare_texts(args);
    check_compare_outputs(args, texts);
    const View view = parse_view(args.view).value_or(View::carm);

    StoreAccess access(args.db);
    CompareSides sides = load_sides(texts, access, args.quiet);
    ComparisonInput input;
    if (sides.machines.size() == 2) {
        // A figure bench warned is likely low (a team or one thread short on per-core resources) is
        // not judged, in models written before bench recorded that as not stable too.
        MachineModel a = sides.machines[0].model, b = sides.machines[1].model;
        for (auto* m : {&a, &b}) mark_per_core_shortfalls_unstable(*m, BurstPolicy{}.scaling_shortfall);
        const bool sheet_a = sides.machines[0].spec_sheet, sheet_b = sides.machines[1].spec_sheet;
        if (sheet_a != sheet_b) {
            // A model beside a spec sheet: no roof keys in common, so each figure of the sheet is
            // matched to the measured roof that answers it (core/spec_comparison.hpp).
            input.spec = compare_with_spec(sheet_a ? b : a, sides.machines[sheet_a ? 0 : 1], sheet_a);
        } else {
            input.have_roofs = true;
            input.roofs = compare_roofs(a, b);
        }
    }
    // Rooflines judge points and draw the chart: two machines' roofs alone need none (a memory-only
    // model, bench --only memory, has roofs to compare but no roofline).
    const bool need_rooflines = sides.point_sets.size() == 2 || !args.chart.empty();
    const std::vector<Roofline> rooflines = need_rooflines ? side_rooflines(sides, args) : std::vector<Roofline>{};
    input.label_a = side_label(sides, 0);  // after the rooflines: a machine that could not judge is not named
    input.label_b = side_label(sides, 1);
    if (sides.point_sets.size() == 2) compare_point_sets(input, sides, rooflines, view);
    write_result(args.output, render_comparison(input, args.format == "json"));

    if (!args.chart.empty()) {
        write_compare_chart(args.chart, view, rooflines, sides);
        if (!args.quiet) print_stderr("chart written to {}\n", output_name(args.chart));
    }
    // Nothing compared (an empty baseline, no roof in common) or nothing judged: said plainly, and
    // for CI a failure of its own, since no slowdown was ruled out.
    if (const std::string none = nothing_compared_text(input); !none.empty()) {
        if (args.fail_on_slower) {
            print_stderr("roofline: error: --fail-on-slower: {}; nothing to pass (exit {})\n", none,
                         kExitNothingCompared);
            return kExitNothingCompared;
        }
    }
    if (args.fail_on_slower && b_is_slower(input)) return kExitSlower;
    return kExitOk;
}

} // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<CompareArgs>();
    auto* cmd = add_command(app, "compare", "Compare two machines or two point sets: ratios, and what moved");
    cmd->description(
        "Two machine models (bench -o files, spec sheets, or stored): every roof side by side with B/A\n"
        "and whether it changed beyond the spread its samples recorded; a measured model beside a spec\n"
        "sheet: each peak and bandwidth of the sheet against the measured roof that answers it. Two\n"
        "point sets (measure or kernels -o files, or stored): points matched by name with their\n"
        "performance ratio (points of one name, NAME #k, matched by their order in each run: every\n"
        "pair is compared); judged on the machines given (A's points on A, B's on B, or both on\n"
        "one), each change is put down to the roof (the roofline allows more or less at the point's\n"
        "intensity) or the efficiency.\n"
        "Point sets that 'roofline measure' made from different command lines (another program by file\n"
        "name, or other arguments) are compared all the same, with a line saying so and 'other command\n"
        "line' in the WHY of every point that changed: the input may be what changed.");
    // A stored run given here is refused when the command runs (compare_texts), with A and B both
    // named: a check of one value at a time could speak of only one of them.
    cmd->add_option("files", args->files, "A and B as files; a point set is told from a machine by its schema")
        ->type_name("FILE")
        ->check(value_check([](const std::string& path) -> std::string {
            return path.empty() ? "compare: a file name given is empty (''): give A and B as files, or a stored run "
                                  "with --machine stored:ID or --points stored:ID (see 'roofline list')"
                                : "";
        }));
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
    add_quiet_flag(cmd, args->quiet);
    cmd->add_option("--chart", args->chart,
                    "Also draw both rooflines and both point sets on one chart: FILE.svg (SVG) or FILE.html "
                    "(HTML); other names are refused")
        ->type_name("FILE")
        ->check(value_check([](const std::string& path) -> std::string {  // as parsed: a configured one too
            // '' drew no chart, unsaid: leaving --chart out is how to ask for none.
            if (path.empty()) return "--chart: the name given is empty (''): give FILE.svg or FILE.html, or leave --chart out for no chart";
            try {
                (void)chart_format(path);
            } catch (const UsageError& e) {
                return e.what();
            }
            return "";
        }));
    add_db_option(cmd, args->db);
    cmd->add_flag("--fail-on-slower", args->fail_on_slower,
                  "Exit 3 when a roof or point of B is slower than A's beyond the spread, 4 when nothing could "
                  "be compared (no roof or point in both, or none judged: roofs unstable, points without FLOPs) (for CI)");
    cmd->footer("Examples:\n"
                "  roofline compare old-machine.json new-machine.json\n"
                "  roofline compare --machine stored:3 --machine stored:7 --chart both.html\n"
                "  roofline compare baseline.json pts.json --machine stored --fail-on-slower\n"
                "  roofline compare --points stored:4 --points stored:9 --machine a.json --machine b.json");
    cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

} // namespace roofline::cli
