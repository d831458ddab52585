// `roofline history`: one machine's roofs, or named points, across the runs the
// results store holds, oldest first, with every change beyond the recorded spread
// flagged (regression detection for CI: --fail-on-slower).
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/value_check.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/comparison.hpp"
#include "core/machine_roofline.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/comparison_text.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <limits>
#include <memory>

namespace roofline::cli {
namespace {

struct HistoryArgs {
    std::vector<std::string> point_names;  // empty: the machine's roofs
    std::string host;                      // machines: default that of the latest stored machine
    std::string cpu;
    int last = 0;                          // 0: every run
    std::string format = "text";
    std::string output;
    std::string db;
    bool fail_on_slower = false;
};

std::string run_label(std::int64_t id, const std::string& created, const std::string& what) {
    return fmt::format("#{} {}{}{}", id, created, what.empty() ? "" : " ", what);
}

template <typename T>
void keep_last(std::vector<T>& v, int last) {
    if (last > 0 && v.size() > static_cast<std::size_t>(last)) v.erase(v.begin(), v.end() - last);
}

HistoryInput machine_history(const HistoryArgs& args, ResultsStore& store) {
    auto machines = store.list_machines();
    if (machines.empty()) throw std::runtime_error(fmt::format("no machine model in the results store {}: run 'roofline bench'", store.path()));
    const std::string host = args.host.empty() ? machines.back().hostname : args.host;
    const std::string cpu = args.cpu.empty() ? machines.back().cpu_model : args.cpu;
    std::erase_if(machines, [&](const StoredMachine& m) { return m.hostname != host || m.cpu_model != cpu; });
    if (machines.empty())
        throw std::runtime_error(fmt::format("no stored machine of host '{}' with CPU '{}' ('roofline list' shows "
                                             "what is stored)", host, cpu));
    keep_last(machines, args.last);
    std::vector<MachineModel> models;
    std::vector<std::string> runs;
    for (const auto& m : machines) {
        auto model = store.machine(m.id);
        if (!model) continue;
        models.push_back(std::move(*model));
        runs.push_back(run_label(m.id, m.created, m.mode + (m.partial ? " (interrupted)" : "")));
    }
    return HistoryInput{fmt::format("the roofs of {} on host {}", cpu, host), roof_histories(models, runs)};
}

HistoryInput point_history(const HistoryArgs& args, ResultsStore& store) {
    auto sets = store.list_point_sets();
    std::vector<FigureHistory> figures;
    std::vector<std::string> runs;
    std::vector<std::vector<Point>> contents;
    for (const auto& set : sets) {
        auto points = store.points(set.id);
        if (!points) continue;
        const bool has = std::any_of(points->begin(), points->end(), [&](const Point& p) {
            return std::find(args.point_names.begin(), args.point_names.end(), p.name) != args.point_names.end();
        });
        if (!has) continue;
        runs.push_back(run_label(set.id, set.created, set.name));
        contents.push_back(std::move(*points));
    }
    keep_last(runs, args.last);
    keep_last(contents, args.last);
    for (const auto& name : args.point_names) {
        FigureHistory h;
        h.key = name;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            HistoryRun r{runs[i], std::nullopt};
            for (const auto& p : contents[i])
                if (p.name == name && p.work_counted && p.seconds > 0) {
                    r.figure = point_figure(p);
                    h.unit = rate_unit(p.work_unit);
                }
            h.runs.push_back(std::move(r));
        }
        if (h.unit.empty()) {
            print_stderr("roofline: note: no stored point set holds a timed point named '{}'\n", terminal_text(name));
            continue;
        }
        find_changes(h);
        figures.push_back(std::move(h));
    }
    if (figures.empty())
        throw std::runtime_error("none of the points named is in the results store ('roofline show stored:ID' lists a "
                                 "set's points)");
    std::string what = "point";
    what += args.point_names.size() == 1 ? " '" + args.point_names.front() + "'" : "s";
    return HistoryInput{what, std::move(figures)};
}

int run_history(const HistoryArgs& args) {
    if (args.last < 0) throw UsageError("--last expects a count of runs (0: all)");
    if (!args.point_names.empty() && (!args.host.empty() || !args.cpu.empty()))
        throw UsageError("--host and --cpu pick a machine's runs; --point follows points across every stored set");
    if (!args.output.empty()) check_file_writable(args.output);
    StoreAccess access(args.db);
    ResultsStore* store = access.store();
    if (!store) throw std::runtime_error(fmt::format("no results store at {}", access.display()));
    const HistoryInput input = args.point_names.empty() ? machine_history(args, *store) : point_history(args, *store);
    write_result(args.output, render_history(input, args.format == "json"));
    if (args.fail_on_slower)
        for (const auto& f : input.figures)
            for (const auto& c : f.changes)
                if (c.run + 1 == f.runs.size() && c.ratio < 1) return kExitSlower;
    return kExitOk;
}

} // namespace

void add_history_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<HistoryArgs>();
    auto* cmd = add_command(app, "history", "A machine's roofs, or named points, over the stored runs");
    cmd->description(
        "Follows figures across the runs in the results store, oldest first: every roof of one machine\n"
        "(host and CPU; default: those of the latest stored model), or with --point the performance of\n"
        "points of that name (a kernel at one size, a measured region). A step from one run to the next\n"
        "is flagged when it exceeds the spread the runs recorded (the range of their samples; at least\n"
        "2%, 5% where none was recorded). --fail-on-slower makes the latest run's slowdowns exit 3.");
    cmd->add_option("--point", args->point_names, "Follow the point of this name (repeatable)")->type_name("NAME");
    cmd->add_option("--host", args->host, "The machine's host name (default: that of the latest stored model)");
    cmd->add_option("--cpu", args->cpu, "The machine's CPU model string (default: that of the latest stored model)");
    cmd->add_option("--last", args->last, "Only the last N runs (default: all)")
        ->type_name("N")
        ->check(whole_number_check(0, std::numeric_limits<long long>::max(), "--last expects a count of runs (0: all)"));
    add_format_option(cmd, args->format, {"text", "json"});
    add_output_option(cmd, args->output, "Write the history to FILE instead of standard output");
    add_db_option(cmd, args->db);
    cmd->add_flag("--fail-on-slower", args->fail_on_slower,
                  "Exit 3 when the latest run is slower than the one before beyond the spread (for CI)");
    cmd->footer("Examples:\n"
                "  roofline history\n"
                "  roofline history --last 10 --format json\n"
                "  roofline history --point 'stream_triad 1 GiB' --fail-on-slower");
    cmd->callback([args, &exit_code] { exit_code = run_history(*args); });
}

} // namespace roofline::cli
