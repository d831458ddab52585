#include "cli/terminal.hpp"

#include <cstdlib>
#include <cstring>

#include <sys/ioctl.h>
#include <unistd.h>

namespace roofline::cli {

bool understands_escapes(int fd) {
    if (::isatty(fd) != 1) return false;
    const char* term = std::getenv("TERM");
    return term != nullptr && *term != '\0' && std::strcmp(term, "dumb") != 0;
}

bool wants_colour(int fd) {
    const char* no_colour = std::getenv("NO_COLOR");
    return understands_escapes(fd) && (no_colour == nullptr || *no_colour == '\0');
}

std::optional<int> columns_from_environment() {
    const char* text = std::getenv("COLUMNS");
    if (text == nullptr || *text == '\0') return std::nullopt;
    char* end = nullptr;
    const long columns = std::strtol(text, &end, 10);
    if (*end != '\0' || columns < 1 || columns > 100000) return std::nullopt;
    return static_cast<int>(columns);
}

std::optional<int> terminal_width(int fd) {
    if (::isatty(fd) != 1) return std::nullopt;
    if (const auto columns = columns_from_environment()) return columns;
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return static_cast<int>(size.ws_col);
    return std::nullopt;
}

} // namespace roofline::cli
