#include "cli/commands.hpp"
// Placeholder until the topology command lands.
namespace roofline::cli {
void add_topology_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("topology", "Show packages, cores, caches, ISA and the measured clock");
    cmd->callback([&exit_code] { exit_code = kExitFailure; });
}
} // namespace roofline::cli
