#include "measure/marker_presence.hpp"

#include "measure/child_process.hpp"
#include "measure/command_output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <unistd.h>

namespace roofline::measure {
namespace {

bool names_marker_library(std::string_view path) {
    const auto slash = path.rfind('/');
    const auto file = slash == std::string_view::npos ? path : path.substr(slash + 1);
    return file.starts_with("libroofline_marker");
}

} // namespace

std::optional<bool> marker_library_in_ldd_output(std::string_view text) {
    bool listed = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        const auto arrow = line.find("=> ");
        std::string_view path = arrow != std::string_view::npos ? line.substr(arrow + 3) : line;
        const auto first = path.find_first_not_of(" \t");
        if (first == std::string_view::npos) continue;
        path.remove_prefix(first);
        if (const auto paren = path.find(" ("); paren != std::string_view::npos) path = path.substr(0, paren);
        // "libfoo.so => not found": the name is the part before the arrow.
        const std::string_view name =
            arrow != std::string_view::npos && path.starts_with("not found") ? line.substr(0, arrow) : path;
        if (!path.starts_with("/") && !path.starts_with("not found")) continue;  // linux-vdso.so.1
        listed = true;
        std::string_view trimmed = name;
        while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
        while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.remove_suffix(1);
        if (names_marker_library(trimmed)) return true;
    }
    if (!listed) return std::nullopt;
    return false;
}

std::optional<bool> loads_marker_library(const std::string& program,
                                         const std::vector<std::pair<std::string, std::string>>& env) {
    std::string preload;
    if (const char* ours = std::getenv("LD_PRELOAD")) preload = ours;
    for (const auto& [key, value] : env)
        if (key == "LD_PRELOAD") preload = value;
    if (preload.find("libroofline_marker") != std::string::npos) return true;
    const std::string exe = find_executable(program);
    const std::string ldd = find_executable("ldd");
    if (exe.empty() || ldd.empty()) return std::nullopt;
    const auto text = command_output({ldd, exe});
    if (!text) return std::nullopt;
    return marker_library_in_ldd_output(*text);
}

} // namespace roofline::measure
