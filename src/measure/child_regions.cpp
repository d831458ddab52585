#include "measure/child_regions.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <set>

namespace roofline::measure::detail {

namespace {

std::vector<std::string> quoted(const std::set<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& n : names) out.push_back("'" + n + "'");
    return out;
}

} // namespace

void warn_child_regions(const std::string& text, std::vector<std::string>& warnings) {
    std::set<std::string> forked_pids, forked_names, started_pids, started_names, programs;
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const auto tab = line.find('\t');
        if (tab == std::string::npos || tab == 0) continue;
        const auto tab2 = line.find('\t', tab + 1);
        const std::string pid = line.substr(0, tab);
        if (tab2 == std::string::npos) {
            forked_pids.insert(pid);
            forked_names.insert(line.substr(tab + 1));
        } else {
            started_pids.insert(pid);
            started_names.insert(line.substr(tab + 1, tab2 - tab - 1));
            programs.insert(line.substr(tab2 + 1));
        }
    }
    if (!forked_names.empty())
        warnings.push_back(fmt::format(
            "{} forked child process{} of the command opened marker regions ({}): the marker library keeps the "
            "regions of the process roofline started only, so these have no points, while the whole program's time "
            "covers every process. Open the regions in that process, or measure the child's work as a program of "
            "its own (roofline measure -- ./app args)",
            forked_pids.size(), forked_pids.size() == 1 ? "" : "es", fmt::join(quoted(forked_names), ", ")));
    if (!started_names.empty()) {
        const bool one = programs.size() == 1;
        warnings.push_back(fmt::format(
            "{} process{} that the command started running {} (system(), popen, or fork and exec) opened marker "
            "regions ({}): only the regions of the process roofline started (and of the programs it execs in its "
            "place) are kept, so these have no points and do not replace its own, while the whole program's time "
            "covers every process. Measure {} on {} own (roofline measure -- {} ARGS)",
            started_pids.size(), started_pids.size() == 1 ? "" : "es", fmt::join(programs, ", "),
            fmt::join(quoted(started_names), ", "), one ? *programs.begin() : std::string("each"),
            one ? "its" : "their", one ? *programs.begin() : std::string("PROGRAM")));
    }
}

} // namespace roofline::measure::detail
