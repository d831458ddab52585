// A command's one line, kept beside its long description: `roofline --help` lists the commands
// by their one lines (the long text is for `roofline CMD --help`), and the man pages' NAME and
// the completions use the same line. CLI11 keeps one description per command, so the one
// lines are registered here when the commands are made.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace roofline::cli {

// parent.add_subcommand(name, summary), with `summary` registered as the command's one line;
// a later description() call sets the long text --help shows on the command's own page.
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& summary);

// The registered one line of `command`; empty when it has none.
std::string command_one_line(const CLI::App& command);

// Makes `app` (and the commands added to it afterwards) list its commands by their one lines.
void list_commands_by_one_line(CLI::App& app);

} // namespace roofline::cli
