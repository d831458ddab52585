// What a command says on stderr. Messages quote names from files, symbols, the
// store and the command line (paths, region names, units), so every one goes
// through terminal_block: a name cannot retitle, clear or recolour the terminal.
// Progress lines (progress_line.cpp) draw with control characters of their own
// and print directly.
#pragma once

#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <utility>

namespace roofline::cli {

template <typename... Args>
void print_stderr(fmt::format_string<Args...> format, Args&&... args) {
    const std::string text = terminal_block(fmt::format(format, std::forward<Args>(args)...));
    std::fwrite(text.data(), 1, text.size(), stderr);
}

} // namespace roofline::cli
