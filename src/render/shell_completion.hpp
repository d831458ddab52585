// Shell completion scripts from the command-line definition, so they offer
// exactly the commands, options and fixed values that --help lists.
#pragma once

#include "core/command_doc.hpp"

#include <string>

namespace roofline {

// bash: defines _roofline and registers it (complete -F _roofline roofline).
// Completes commands (nested ones too), each command's options, an option's
// fixed values, file names for values and arguments that are files or free
// text, directories for directories; after `--`, a command and its files.
std::string bash_completion(const CommandDoc& root);

// zsh (#compdef roofline, file _roofline in $fpath): commands and options with
// their descriptions, fixed values, files.
std::string zsh_completion(const CommandDoc& root);

// `text` in single quotes for a POSIX shell ('\'' for a quote).
std::string shell_quote(const std::string& text);

} // namespace roofline
