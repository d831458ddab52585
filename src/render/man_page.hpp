// Manual pages (roff, man macros) from the command-line definition: roofline(1)
// for the top command and roofline-<command>(1) for every command, nested ones
// included (roofline-config-show(1)), so `man` says what `--help` says.
#pragma once

#include "core/command_doc.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct ManPage {
    std::string file_name;  // roofline-config-show.1
    std::string text;
};

// One page per command of the tree, the top one first.
std::vector<ManPage> man_pages(const CommandDoc& root, const ManualDoc& manual);

// `text` safe on a roff text line: backslashes, hyphens (as \- so option names
// stay copyable), non-ASCII characters (as \[uXXXX]: groff reads Latin-1), and a
// leading '.' or '\'' that would make the line a request.
std::string roff_escape(std::string_view text);

} // namespace roofline
