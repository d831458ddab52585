// `roofline history`: one machine's roofs, or named points, across the runs the
// results store holds, oldest first, with every change beyond the recorded spread
// flagged (regression detection for CI: --fail-on-slower).
#include "bench/bench_runner.hpp"
#include "bench/burst_sampler.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/messages.hpp"
#include "cli/value_check.hpp"
#include "cli/stored_source.hpp"
#include "cli/usage_error.hpp"
#include "core/command_series.hpp"
#include "core/comparison.hpp"
#include "core/cut_off_point.hpp"
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
    std::string host;                      // machines: default that of the latest stored machine (of --cpu's)
    std::string cpu;                       // default that of the latest stored machine (of --host's)
    int last = 0;                          // 0: every run
    std::string format = "text";
    std::string output;
    std::string db;
    bool fail_on_slower = false;
    bool quiet = false;
    std::string command = "latest";  // --command: which command line's series of a --point
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
    // What is not given comes from the latest stored model that matches what is (--host alone:
    // that host's CPU, not the CPU of the newest model, which may be another host's).
    const auto machine = history_machine(machines, args.host, args.cpu);
    if (!machine) {
        const std::string what = !args.host.empty() && !args.cpu.empty()
                                     ? fmt::format("of host '{}' with CPU '{}'", args.host, args.cpu)
                                 : !args.host.empty() ? fmt::format("of host '{}'", args.host)
                                                      : fmt::format("with CPU '{}'", args.cpu);
        throw std::runtime_error(fmt::format("no stored machine {} ('roofline list' shows what is stored)", what));
    }
    const std::string host = machine->host;
    const std::string cpu = machine->cpu;
    std::erase_if(machines, [&](const StoredMachine& m) { return m.hostname != host || m.cpu_model != cpu; });
    keep_last(machines, args.last);
    std::vector<MachineModel> models;
    std::vector<std::string> runs;
    for (const auto& m : machines) {
        auto model = store.machine(m.id);
        if (!model) continue;
        // Figures bench warned are likely low are not judged (models stored before it recorded so).
        mark_per_core_shortfalls_unstable(*model, BurstPolicy{}.scaling_shortfall);
        models.push_back(std::move(*model));
        runs.push_back(run_label(m.id, m.created, m.mode + (m.partial ? " (interrupted)" : "")));
    }
    return HistoryInput{fmt::format("the roofs of {} on host {}", cpu, host), roof_histories(models, runs)};
}

// One stored set holding a point asked for: its label, its points, the command line it ran.
struct SetRun {
    std::string label;
    std::vector<Point> points;
    std::vector<std::string> command;
};

// The timed point of `name` in a set (the last of that name, as before series); nullptr when none.
const Point* timed_point(const SetRun& set, const std::string& name) {
    const Point* found = nullptr;
    for (const auto& p : set.points)
        if (p.name == name && p.work_counted && p.seconds > 0) found = &p;
    return found;
}

// A series of one point: its name, the sets (indexes into the sets) and their command line.
struct PointSeries {
    std::string name;
    CommandSeries series;
    std::string command;  // as run in the series' latest set; empty when the name alone is the series
};

// Says which sets a point's chosen series leaves out, and how to see them.
void note_left_out(const std::string& name, const std::vector<PointSeries>& others, const std::vector<SetRun>& sets) {
    std::size_t count = 0;
    std::vector<std::string> which;
    for (const auto& o : others) {
        count += o.series.runs.size();
        std::vector<std::string> ids;
        for (const auto i : o.series.runs) ids.push_back(sets[i].label.substr(0, sets[i].label.find(' ')));
        if (which.size() < 3)
            which.push_back(fmt::format("'{}' in {}", o.command.empty() ? "(no command recorded)" : o.command,
                                        fmt::join(ids, ", ")));
    }
    print_stderr("roofline: note: point '{}': {} other stored point set{} measured it with another command line ({}{}): "
                 "left out, a run of another program or input is no step of this one; --command all shows each "
                 "command line as its own series, --command 'LINE' one of them\n",
                 terminal_text(name), count, count == 1 ? "" : "s", terminal_text(fmt::to_string(fmt::join(which, "; "))),
                 others.size() > which.size() ? "; ..." : "");
}

HistoryInput point_history(const HistoryArgs& args, ResultsStore& store) {
    std::vector<SetRun> sets;  // oldest first
    for (const auto& set : store.list_point_sets()) {
        auto doc = store.point_set(set.id);
        if (!doc) continue;
        const bool has = std::any_of(doc->points.begin(), doc->points.end(), [&](const Point& p) {
            return std::find(args.point_names.begin(), args.point_names.end(), p.name) != args.point_names.end();
        });
        if (!has) continue;
        sets.push_back({run_label(set.id, set.created, set.name), std::move(doc->points),
                        doc->provenance ? doc->provenance->command : std::vector<std::string>{}});
    }
    // Each name's series: its sets grouped by the command line they ran (core/command_series).
    std::vector<PointSeries> chosen;
    std::vector<std::string> command_lines;  // every series' line, for the error of a --command no series has
    for (const auto& name : args.point_names) {
        std::vector<std::size_t> holding;
        std::vector<std::string> keys;
        for (std::size_t i = 0; i < sets.size(); ++i)
            if (const Point* p = timed_point(sets[i], name)) {
                holding.push_back(i);
                keys.push_back(command_series_key(sets[i].command, p->source.origin()));
            }
        if (holding.empty()) {
            if (!args.quiet) print_stderr("roofline: note: no stored point set holds a timed point named '{}'\n", terminal_text(name));
            continue;
        }
        std::vector<PointSeries> series;
        for (auto& s : group_by_command(keys)) {
            for (auto& run : s.runs) run = holding[run];  // indexes into `sets`
            const auto& latest = sets[s.runs.back()];
            series.push_back({name, s, s.key.empty() ? std::string() : command_line_text(latest.command)});
            command_lines.push_back(series.back().command.empty() ? "(no command line recorded)" : series.back().command);
        }
        if (args.command == "all") {
            chosen.insert(chosen.end(), series.begin(), series.end());
        } else if (args.command == "latest") {
            if (series.size() > 1 && !args.quiet) note_left_out(name, {series.begin() + 1, series.end()}, sets);
            chosen.push_back(series.front());
        } else {
            for (const auto& s : series)
                if (s.series.key == args.command || s.command == args.command) chosen.push_back(s);
        }
    }
    if (chosen.empty() && !command_lines.empty() && args.command != "all" && args.command != "latest")
        throw UsageError(fmt::format("--command '{}': no stored point set of the points named ran that command line; "
                                     "they ran: {}",
                                     args.command, fmt::join(command_lines, "; ")));
    if (chosen.empty())
        throw std::runtime_error("none of the points named is in the results store ('roofline list' gives the point "
                                 "sets, 'roofline show --points stored:ID' a set's points)");
    // The runs shown: the chosen series' sets, oldest first, the last N of them.
    std::vector<std::size_t> shown;
    for (const auto& c : chosen) shown.insert(shown.end(), c.series.runs.begin(), c.series.runs.end());
    std::sort(shown.begin(), shown.end());
    shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
    keep_last(shown, args.last);
    std::vector<FigureHistory> figures;
    for (const auto& c : chosen) {
        FigureHistory h;
        h.key = c.name;
        h.command = c.command;
        for (const auto i : shown) {
            HistoryRun r{sets[i].label, std::nullopt};
            const bool in_series = std::find(c.series.runs.begin(), c.series.runs.end(), i) != c.series.runs.end();
            if (const Point* p = in_series ? timed_point(sets[i], c.name) : nullptr) {
                r.figure = point_figure(*p);
                r.cut_off = cut_off_signal(*p);  // its figure only the part that ran: not judged
                h.unit = rate_unit(p->work_unit);
            }
            h.runs.push_back(std::move(r));
        }
        if (h.unit.empty()) continue;  // its runs are older than the last N shown
        find_changes(h);
        figures.push_back(std::move(h));
    }
    if (figures.empty())
        throw std::runtime_error("none of the points named is in the last runs asked for (--last)");
    std::string what = "point";
    what += args.point_names.size() == 1 ? " '" + args.point_names.front() + "'" : "s";
    return HistoryInput{what, std::move(figures)};
}

int run_history(const HistoryArgs& args) {
    if (args.last < 0) throw UsageError("--last expects a count of runs (0: all)");
    if (!args.point_names.empty() && (!args.host.empty() || !args.cpu.empty()))
        throw UsageError("--host and --cpu pick a machine's runs; --point follows points across every stored set");
    if (args.point_names.empty() && args.command != "latest")
        throw UsageError("--command picks which command line's runs of a --point are followed; a machine's roofs "
                         "have none");
    if (!args.output.empty()) check_file_writable(args.output);
    StoreAccess access(args.db);
    ResultsStore* store = access.store();
    if (!store) throw std::runtime_error(fmt::format("no results store at {}", access.display()));
    const HistoryInput input = args.point_names.empty() ? machine_history(args, *store) : point_history(args, *store);
    write_result(args.output, render_history(input, args.format == "json"));
    // No figure of the latest run judged against a run before it (each unstable, without a rate,
    // or the first of its series): no slowdown was ruled out, a failure of its own as in compare.
    if (args.fail_on_slower)
        if (const std::string none = nothing_judged_in_latest_run_text(input); !none.empty()) {
            print_stderr("roofline: error: --fail-on-slower: {}; nothing to pass (exit {})\n", none,
                         kExitNothingCompared);
            return kExitNothingCompared;
        }
    if (args.fail_on_slower)
        for (const auto& f : input.figures)
            for (const auto& c : f.changes)
                if (c.run + 1 == f.runs.size() && c.slower()) return kExitSlower;
    return kExitOk;
}

} // namespace

void add_history_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<HistoryArgs>();
    auto* cmd = add_command(app, "history", "A machine's roofs, or named points, over the stored runs");
    cmd->description(
        "Follows figures across the runs in the results store, oldest first: every roof of one machine\n"
        "(host and CPU: --host alone takes the CPU of that host's latest stored model, --cpu alone its\n"
        "host, neither those of the latest stored model), or with --point the performance of points of\n"
        "that name (a kernel at one size, a measured region). A step from one run to the next is flagged\n"
        "when its ratio leaves 1/(1+s) to 1+s, s the larger spread the two runs recorded (a roof's: how\n"
        "far apart its best bursts landed; a point's: the range of its timed runs), at least 5% for a\n"
        "roof and 2% for a point, 5% where none was recorded: a slowdown counts as soon as the speedup\n"
        "by the same factor would. A memory roof measured at working sets another run did not measure\n"
        "(bench --working-set, --dram-size) is a series of its own, named with its working sets.\n"
        "--fail-on-slower judges the latest run: exit 3 on a slowdown in it, exit 4 when none of its\n"
        "figures could be judged against a run before it (each unstable, without a rate or cut off by\n"
        "a signal in it, or with no judged run before it, as with one run alone), so no slowdown was\n"
        "ruled out. A point's run whose region a signal cut off is marked '*' and not judged.\n"
        "A point measured from a program (measure) is followed across the runs of one command line,\n"
        "the program (by its file name) and its arguments: another input size or another program with\n"
        "a region of that name is another series, never a step of this one (--command).");
    cmd->add_option("--point", args->point_names, "Follow the point of this name (repeatable)")->type_name("NAME");
    cmd->add_option("--command", args->command,
                    "Which command line's runs of a --point measured by 'roofline measure' are followed: latest "
                    "(the command line of the latest set holding it; a note says how many sets of other command "
                    "lines were left out), all (each command line its own series, labelled with it), or the "
                    "command line itself as shown ('./dot 1000'; the program may be given by its file name)")
        ->type_name("latest|all|LINE")
        ->capture_default_str();
    cmd->add_option("--host", args->host,
                    "The machine's host name (default: that of the latest stored model, of --cpu's if given)");
    cmd->add_option("--cpu", args->cpu,
                    "The machine's CPU model string (default: that of the latest stored model, of --host's if given)");
    // 0 is "all", as the range check has always said (" runs, 0 for all"): kept, and said here.
    cmd->add_option("--last", args->last, "Only the last N runs (0, the default: all)")
        ->type_name("N")
        ->check(whole_number_range(0, std::numeric_limits<int>::max(), " runs, 0 for all"));
    add_format_option(cmd, args->format, {"text", "json"});
    add_output_option(cmd, args->output, "Write the history to FILE instead of standard output");
    add_quiet_flag(cmd, args->quiet);
    add_db_option(cmd, args->db);
    cmd->add_flag("--fail-on-slower", args->fail_on_slower,
                  "Exit 3 when the latest run is slower than the one before beyond the spread, 4 when nothing "
                  "in the latest run could be judged (every figure unstable, without a rate or cut off by a signal in "
                  "it, or no run "
                  "before it to judge it against) (for CI)");
    cmd->footer("Examples:\n"
                "  roofline history\n"
                "  roofline history --last 10 --format json\n"
                "  roofline history --point 'stream_triad 1 GiB' --fail-on-slower\n"
                "  roofline history --point dot --command all        (every command line that measured 'dot')\n"
                "  roofline history --point dot --command './dot 1000'");
    cmd->callback([args, &exit_code] { exit_code = run_history(*args); });
}

} // namespace roofline::cli
