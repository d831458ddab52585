#include "topo/cgroup_limits.hpp"

#include "topo/environment.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace roofline {
namespace {

std::optional<double> number(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return std::nullopt;
    return v;
}

// "/a/b" -> "/a/b", "/a", "" (the root's own directory).
std::vector<std::string> self_and_ancestors(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    if (path == "/") path.clear();
    std::vector<std::string> out{path};
    while (!path.empty()) {
        const auto slash = path.rfind('/');
        path = slash == std::string::npos ? std::string{} : path.substr(0, slash);
        out.push_back(path);
    }
    return out;
}

void keep_tightest(std::optional<CpuQuota>& best, double cpus, std::string where) {
    if (!(cpus > 0)) return;
    if (!best || cpus < best->cpus) best = CpuQuota{cpus, std::move(where)};
}

struct CgroupDir {
    std::string path;
    bool v2 = false;
};

// The directories of the process's cgroup and its ancestors where `controller`'s files are: in the
// v2 hierarchy (the "0::PATH" line), and in the v1 hierarchy whose line names the controller
// ("ID:CONTROLLERS:PATH", mounted as its controllers' names, or as the controller alone).
std::vector<CgroupDir> cgroup_dirs(std::string_view proc_self_cgroup, const std::string& root,
                                   const std::string& controller) {
    std::vector<CgroupDir> out;
    std::istringstream lines{std::string(proc_self_cgroup)};
    for (std::string line; std::getline(lines, line);) {
        const auto first = line.find(':');
        const auto second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            for (const auto& dir : self_and_ancestors(path)) out.push_back({root + dir, true});
            continue;
        }
        bool named = false;
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');) named = named || name == controller;
        if (!named) continue;
        for (const std::string& mount : {root + "/" + controllers, root + "/" + controller})
            for (const auto& dir : self_and_ancestors(path)) out.push_back({mount + dir, false});
    }
    return out;
}

} // namespace

std::optional<CpuQuota> cgroup_cpu_quota(std::string_view proc_self_cgroup,
                                         const std::function<std::optional<std::string>(const std::string&)>& read,
                                         const std::string& root) {
    std::optional<CpuQuota> best;
    for (const auto& dir : cgroup_dirs(proc_self_cgroup, root, "cpu")) {
        if (dir.v2) {  // cpu.max: "QUOTA PERIOD" or "max PERIOD"
            const std::string file = dir.path + "/cpu.max";
            const auto text = read(file);
            if (!text) continue;
            std::istringstream fields(*text);
            std::string quota, period;
            fields >> quota >> period;
            const auto q = number(quota), p = number(period);
            if (quota != "max" && q && p && *p > 0) keep_tightest(best, *q / *p, fmt::format("{}: {}", file, *text));
            continue;
        }
        const auto quota = read(dir.path + "/cpu.cfs_quota_us");  // -1: none
        const auto period = read(dir.path + "/cpu.cfs_period_us");
        if (!quota || !period) continue;
        const auto q = number(*quota), p = number(*period);
        if (q && p && *q > 0 && *p > 0)
            keep_tightest(best, *q / *p, fmt::format("{}/cpu.cfs_quota_us: {} per {} us", dir.path, *quota, *period));
    }
    return best;
}

namespace {

std::string proc_self_cgroup() {
    std::ifstream in("/proc/self/cgroup");
    std::stringstream text;
    if (in) text << in.rdbuf();
    return text.str();
}

std::optional<std::string> read_file_line(const std::string& path) { return read_first_line(path); }

} // namespace

std::optional<CpuQuota> cgroup_cpu_quota() { return cgroup_cpu_quota(proc_self_cgroup(), read_file_line); }

std::optional<double> cgroup_memory_room(std::string_view proc_self_cgroup_text,
                                         const std::function<std::optional<std::string>(const std::string&)>& read,
                                         const std::string& root) {
    // v1 writes "no limit" as the largest page-aligned 64-bit count (9223372036854771712).
    constexpr double kNoLimit = 0x1p62;
    std::optional<double> room;
    const auto keep = [&](const std::optional<std::string>& limit_text, const std::optional<std::string>& usage_text) {
        if (!limit_text || !usage_text || *limit_text == "max") return;
        const auto limit = number(*limit_text), usage = number(*usage_text);
        if (!limit || !usage || !(*limit > 0) || *limit >= kNoLimit) return;
        const double left = std::max(0.0, *limit - *usage);
        if (!room || left < *room) room = left;
    };
    for (const auto& dir : cgroup_dirs(proc_self_cgroup_text, root, "memory"))
        if (dir.v2) keep(read(dir.path + "/memory.max"), read(dir.path + "/memory.current"));
        else keep(read(dir.path + "/memory.limit_in_bytes"), read(dir.path + "/memory.usage_in_bytes"));
    return room;
}

std::optional<double> cgroup_memory_room() { return cgroup_memory_room(proc_self_cgroup(), read_file_line); }

} // namespace roofline
