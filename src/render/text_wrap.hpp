// Long lines broken at spaces to fit a terminal's width: a message of 300 characters
// wrapped by the terminal splits words and loses its indentation. Only for output to a
// terminal: a pipe or file keeps each message on its line, for scripts and grep.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace roofline {

// Each line of `text` wider than `width` characters (UTF-8 characters, not bytes) broken at
// spaces, each continuation indented two spaces past the line's own indentation. A word wider
// than the room (a path, a command) stays whole on a line of its own. width < 20: unchanged.
std::string wrap_lines(std::string_view text, std::size_t width);

} // namespace roofline
