// The command-line definition read back as data (core/command_doc.hpp): the
// same CLI11 objects --help prints, so the man pages and shell completions made
// from it (generate-docs) say what --help says.
#pragma once

#include "core/command_doc.hpp"

#include <CLI/CLI.hpp>

namespace roofline::cli {

// `app` and its visible commands (hidden ones, group "", are left out, as
// --help leaves them out), with their visible options. Not const: CLI11 hands
// out an option's checks only through a mutable option.
CommandDoc describe_command(CLI::App& app);

} // namespace roofline::cli
