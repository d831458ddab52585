#include "cli/app_definition.hpp"

#include "cli/commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <string>

namespace roofline::cli {

std::vector<ExitStatusDoc> exit_statuses() {
    return {
        {kExitOk, "Success."},
        {kExitFailure, "The work failed: a file could not be read or written, a measurement or the results store "
                       "failed, a figure was refused."},
        {kExitUsage, "Bad arguments or settings: an unknown option or command, a value out of range, a bad "
                     "configuration file or ROOFLINE_* variable."},
        {kExitSlower, "compare and history with --fail-on-slower: a slowdown beyond the recorded spread."},
        {kExitNothingCompared, "compare and history with --fail-on-slower: nothing could be compared (compare: no "
                               "roof or point in both A and B, or every one in both unstable or without a rate; "
                               "history: no figure of the latest run judged against a run before it), so no "
                               "slowdown could be ruled out."},
        {128 + SIGHUP, "Stopped by SIGHUP; bench, kernels, measure and monitor keep what they measured."},
        {kExitInterrupted, "Interrupted (Ctrl-C), the same way."},
        {128 + SIGPIPE, "The reader of the output left (SIGPIPE), the same way."},
        {128 + SIGTERM, "Stopped by SIGTERM, the same way."},
    };
}

namespace {
// --help's last paragraph, from the same list as the man page's EXIT STATUS.
std::string exit_status_help() {
    std::string out = "Exit status (every command; measure passes its command's own status through once it ran):\n";
    constexpr std::size_t width = 94, indent = 6;  // as the rest of --help, about 95 columns
    for (const auto& status : exit_statuses()) {
        std::string line = fmt::format("  {:<4}", status.code);
        std::size_t start = 0;
        while (start < status.meaning.size()) {  // wrapped at words, continued under the meaning
            const auto end = std::min(status.meaning.find(' ', start), status.meaning.size());
            const auto word = status.meaning.substr(start, end - start);
            if (line.size() > indent && line.size() + 1 + word.size() > width) {
                out += line + "\n";
                line = std::string(indent, ' ');
            } else if (line.size() > indent) {
                line += ' ';
            }
            line += word;
            start = end + 1;
        }
        out += line + "\n";
    }
    return out;
}
} // namespace

void define_app(CLI::App& app, int& exit_code, const LayeredConfig& config) {
    app.description("roofline: how fast can code run on this machine, and what holds it back?\n"
                    "Characterize the machine (topology, bench), put work on its roofline (measure, model),\n"
                    "and explain it (plot, report); list and show what the results store holds.");
    list_commands_by_one_line(app);  // before the commands are added: they take the formatter
    app.set_version_flag("--version", fmt::format("roofline {}", ROOFLINE_VERSION));
    app.require_subcommand(0, 1);  // checked by main, so unknown arguments are named first
    app.footer("Examples:\n"
               "  roofline topology              caches, cores, ISA and measured clock\n"
               "  roofline bench --quick         the roofs a chart needs (about 20 s)\n"
               "  roofline bench --full          every ceiling and sweep\n"
               "  roofline measure -- ./my_app   put an application (and its marked regions) on the chart\n"
               "  roofline kernels --list        reference kernels with known FLOPs and bytes\n"
               "  roofline model examples/kernels/stream_triad.yaml   predict a loop on this machine\n"
               "  roofline model --peak 85.8 --bw 29 --intensity 0.05\n"
               "  roofline plot --points pts.json -o chart.html      interactive chart\n"
               "  roofline report --points pts.json --format markdown\n"
               "  roofline list                  what the results store holds (ids for stored:ID)\n"
               "  roofline remove --machine 4    delete a stored run (a test, a loaded machine)\n"
               "  roofline compare old.json new.json   two machines or point sets: ratios and what moved\n"
               "  roofline history               a machine's roofs over its stored runs, changes flagged\n"
               "  roofline monitor --job ID      sample a running job into the store (counters, or --counts)\n"
               "  roofline config show           settings from config files and ROOFLINE_* variables\n"
               "Run 'roofline <command> --help' for a command's options.\n"
               "Output: the result on standard output (-o FILE instead; -o - is standard output for every\n"
               "command, which then prints its tables on standard error); notes, warnings and progress on\n"
               "standard error (-q: warnings and errors only); --format json where a command has it, each\n"
               "document named by its \"schema\" (roofline.NAME/1).\n" +
               exit_status_help());

    add_topology_command(app, exit_code);
    add_bench_command(app, exit_code);
    add_model_command(app, exit_code);
    add_report_command(app, exit_code);
    add_plot_command(app, exit_code);
    add_measure_command(app, exit_code);
    add_list_command(app, exit_code);
    add_remove_command(app, exit_code);
    add_show_command(app, exit_code);
    add_kernels_command(app, exit_code);
    add_compare_command(app, exit_code);
    add_history_command(app, exit_code);
    add_monitor_command(app, exit_code);
    add_config_command(app, exit_code, config);
    add_generate_docs_command(app, exit_code);
}

} // namespace roofline::cli
