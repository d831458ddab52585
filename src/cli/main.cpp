#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "cli/layered_config.hpp"
#include "cli/usage_error.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>

namespace {
// Output lost on a full disk is a failure, not a success with nothing printed.
int stdout_written(int exit_code) {
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return exit_code;
    fmt::print(stderr, "roofline: error: cannot write to standard output: {}\n", std::strerror(errno));
    return exit_code == roofline::cli::kExitOk ? roofline::cli::kExitFailure : exit_code;
}
} // namespace

int main(int argc, char** argv) {
    CLI::App app{"roofline: how fast can code run on this machine, and what holds it back?\n"
                 "Characterize the machine (topology, bench), put work on its roofline (measure, model),\n"
                 "and explain it (plot, report); list and show what the results store holds.",
                 "roofline"};
    app.set_version_flag("--version", fmt::format("roofline {}", ROOFLINE_VERSION));
    app.require_subcommand(0, 1);  // checked below, so unknown arguments are named first
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
               "  roofline compare old.json new.json   two machines or point sets: ratios and what moved\n"
               "  roofline history               a machine's roofs over its stored runs, changes flagged\n"
               "  roofline monitor --counts c.json --dir DIR   sample a running job into the store\n"
               "  roofline config show           settings from config files and ROOFLINE_* variables\n"
               "Run 'roofline <command> --help' for a command's options.");

    int exit_code = roofline::cli::kExitOk;
    roofline::cli::add_topology_command(app, exit_code);
    roofline::cli::add_bench_command(app, exit_code);
    roofline::cli::add_model_command(app, exit_code);
    roofline::cli::add_report_command(app, exit_code);
    roofline::cli::add_plot_command(app, exit_code);
    roofline::cli::add_measure_command(app, exit_code);
    roofline::cli::add_list_command(app, exit_code);
    roofline::cli::add_show_command(app, exit_code);
    roofline::cli::add_kernels_command(app, exit_code);
    roofline::cli::add_compare_command(app, exit_code);
    roofline::cli::add_history_command(app, exit_code);
    roofline::cli::add_monitor_command(app, exit_code);
    roofline::cli::LayeredConfig config;
    roofline::cli::add_config_command(app, exit_code, config);

    try {
        config.load(app, roofline::cli::default_config_paths([](const char* name) { return std::getenv(name); }),
                    roofline::cli::roofline_environment());
        roofline::cli::set_invocation(argc, argv, &config);
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::CallForAllHelp& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::CallForVersion& e) {
        return stdout_written(app.exit(e));
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return roofline::cli::kExitUsage;
    } catch (const roofline::cli::UsageError& e) {
        fmt::print(stderr, "roofline: error: {}\n", roofline::terminal_block(e.what()));  // messages quote names
        return roofline::cli::kExitUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "roofline: error: {}\n", roofline::terminal_block(e.what()));  // messages quote names
        return roofline::cli::kExitFailure;
    }
    if (app.get_subcommands().empty()) {
        fmt::print(stderr, "{}\nroofline: error: a command is required (topology, bench, measure, kernels, model, plot, report, list, show, compare, history, monitor, config)\n", app.help());
        return roofline::cli::kExitUsage;
    }
    return stdout_written(exit_code);
}
