// What the terminal a descriptor writes to understands, from the descriptor and
// the environment: escape sequences (not on a file, a pipe or TERM=dumb), colour
// (not with NO_COLOR set, https://no-color.org), and the width COLUMNS asks for.
#pragma once

#include <optional>

namespace roofline::cli {

// A terminal that takes escape sequences (cursor moves, colour): `fd` is a
// terminal and TERM names one other than "dumb" (an unset TERM is taken as dumb:
// Emacs' shell, a serial console, cron's environment).
bool understands_escapes(int fd);

// understands_escapes, and NO_COLOR not set to a non-empty value.
bool wants_colour(int fd);

// COLUMNS as a width in characters, when it is set to a whole number from 1 to
// 100000; otherwise none (unset, empty, garbage, 0).
std::optional<int> columns_from_environment();

// The width of the terminal `fd` writes to: COLUMNS where set (as above), else the terminal's
// own (TIOCGWINSZ); none when `fd` is no terminal (a pipe or file: lines stay whole for scripts).
std::optional<int> terminal_width(int fd);

} // namespace roofline::cli
