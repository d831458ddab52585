// The roofline command line, defined once: main() parses with it, and
// generate-docs reads the same objects back for the man pages and completions.
#pragma once

#include "core/command_doc.hpp"

#include <CLI/CLI.hpp>

#include <vector>

namespace roofline::cli {

class LayeredConfig;

// Gives `app` (named "roofline") its description, version flag and examples, and
// adds every command, generate-docs (hidden) included. The commands report their
// exit code through `exit_code`; `config show` prints `config`, loaded by the
// caller after this.
void define_app(CLI::App& app, int& exit_code, const LayeredConfig& config);

// What each exit status means, the same for every command: --help's last
// paragraph ("Exit status:") and the man page's EXIT STATUS section.
std::vector<ExitStatusDoc> exit_statuses();

// The hidden command that writes the manual pages and completions; main() skips
// the configuration layers for it, so what it writes never depends on who builds.
inline constexpr const char* kGenerateDocsCommand = "generate-docs";

} // namespace roofline::cli
