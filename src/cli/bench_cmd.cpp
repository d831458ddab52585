#include "cli/commands.hpp"
// Placeholder until the bench command lands.
namespace roofline::cli {
void add_bench_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("bench", "Measure compute and bandwidth roofs");
    cmd->callback([&exit_code] { exit_code = kExitFailure; });
}
} // namespace roofline::cli
