// What a command says on stderr. Messages quote names from files, symbols, the
// store and the command line (paths, region names, units), so every one goes
// through terminal_block: a name cannot retitle, clear or recolour the terminal.
// On a terminal, lines wider than it are broken at spaces (render/text_wrap); to a
// pipe or file each message keeps its line. Progress lines (progress_line.cpp) draw
// with control characters of their own and print directly.
#pragma once

#include "cli/terminal.hpp"
#include "render/text_escape.hpp"
#include "render/text_wrap.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <utility>

namespace roofline::cli {

template <typename... Args>
void print_stderr(fmt::format_string<Args...> format, Args&&... args) {
    std::string text = terminal_block(fmt::format(format, std::forward<Args>(args)...));
    if (const auto width = terminal_width(2)) text = wrap_lines(text, static_cast<std::size_t>(*width));
    std::fwrite(text.data(), 1, text.size(), stderr);
}

} // namespace roofline::cli
