// Each subcommand lives in its own file and registers itself here. A command
// parses its options into a plain struct and calls the library; it returns the
// process exit code through the callback's `exit_code`.
#pragma once

#include "cli/command_summary.hpp"

#include <CLI/CLI.hpp>

namespace roofline::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the work failed (I/O, measurement)
inline constexpr int kExitUsage = 2;     // bad arguments
inline constexpr int kExitInterrupted = 130;
inline constexpr int kExitSlower = 3;      // compare / history --fail-on-slower: a slowdown beyond the spread
inline constexpr int kExitNothingCompared = 4;  // compare / history --fail-on-slower: nothing judged (history: in the latest run)

void add_topology_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_model_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_plot_command(CLI::App& app, int& exit_code);
void add_measure_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
void add_remove_command(CLI::App& app, int& exit_code);
void add_show_command(CLI::App& app, int& exit_code);
void add_kernels_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_history_command(CLI::App& app, int& exit_code);
void add_monitor_command(CLI::App& app, int& exit_code);

class LayeredConfig;
// Added last: `config show` prints what `config` (loaded after every command is added) found.
void add_config_command(CLI::App& app, int& exit_code, const LayeredConfig& config);

// Hidden (not in --help): writes the man pages and shell completions from this
// command line (the build runs it; see cmake/docs.cmake).
void add_generate_docs_command(CLI::App& app, int& exit_code);

} // namespace roofline::cli
