#include "measure/cache_hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace roofline::measure {
namespace {

// The simulator's limits (rl_cachesim.h: RL_CS_MAX_LEVELS, RL_CS_MAX_ASSOC).
constexpr std::size_t max_levels = 4;
constexpr int max_ways = 64;
constexpr int assumed_ways = 8;   // when the topology or a spec sheet does not say
constexpr int assumed_line = 64;  // the line of every x86 and most other CPUs today
constexpr std::uint64_t max_level_bytes = 4ull << 30;  // rl_cachesim.h: RL_CS_MAX_LEVEL_BYTES
constexpr int max_cores = 1024;                        // RL_CS_MAX_CORES
constexpr std::uint64_t max_tag_bytes = 4ull << 30;    // the tool's memory for tags, every instance used

std::string size_text(std::uint64_t bytes) {
    if (bytes % (1ull << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
    if (bytes % (1ull << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
    if (bytes % (1ull << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
    return fmt::format("{} B", bytes);
}

} // namespace

SimulatedHierarchy simulated_hierarchy(const std::vector<CacheLevel>& caches, const std::string& vendor, int cores) {
    SimulatedHierarchy out;
    std::uint64_t tag_bytes = 0;
    const bool amd = vendor.find("AMD") != std::string::npos;
    std::vector<CacheLevel> levels;
    for (const auto& c : caches)
        if (c.size_bytes > 0) levels.push_back(c);
    if (levels.empty()) throw std::invalid_argument("no data cache with a size to simulate");
    std::sort(levels.begin(), levels.end(), [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
    // The tool names the bytes by position (L2, L3, ..., DRAM below the last): the levels must be L1, L2, ... in turn.
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].level != static_cast<int>(i) + 1)
            throw std::invalid_argument(fmt::format(
                "the caches must be L1, L2, ... each once (found {}): the bytes of each level are named by its place",
                [&] {
                    std::string names;
                    for (const auto& c : levels) names += fmt::format("{}L{}", names.empty() ? "" : ", ", c.level);
                    return names;
                }()));
    if (levels.size() > max_levels)
        throw std::invalid_argument(fmt::format("{} cache levels: the simulator takes at most {}", levels.size(), max_levels));
    if (levels.front().line_bytes <= 0) {
        out.notes.push_back(fmt::format("line size unknown: {} B assumed", assumed_line));
        for (auto& c : levels)
            if (c.line_bytes <= 0) c.line_bytes = assumed_line;
    }
    const int line = levels.front().line_bytes;
    if (line < 8 || line > 4096 || (line & (line - 1)) != 0)
        throw std::invalid_argument(fmt::format("L1 line of {} B: the simulator takes a power of two from 8 to 4096", line));
    for (std::size_t i = 0; i < levels.size(); ++i) {
        auto& c = levels[i];
        const std::string name = fmt::format("L{}", c.level > 0 ? c.level : static_cast<int>(i) + 1);
        if (c.line_bytes != line) {
            out.notes.push_back(fmt::format("{} line of {} B simulated as {} B (L1's)", name, c.line_bytes, line));
            c.line_bytes = line;
        }
        if (c.size_bytes > max_level_bytes)
            throw std::invalid_argument(fmt::format("{} of {}: the simulator takes levels of at most 4 GiB", name,
                                                    size_text(c.size_bytes)));
        int ways = c.associativity;
        if (ways == 0) {
            ways = assumed_ways;
            out.notes.push_back(fmt::format("{} associativity unknown: {} ways assumed", name, assumed_ways));
        }
        const std::uint64_t lines = c.size_bytes / static_cast<std::uint64_t>(line);
        if (lines == 0)
            throw std::invalid_argument(fmt::format("{} of {} is smaller than one {}-byte line", name,
                                                    size_text(c.size_bytes), line));
        if (ways < 0 || ways > max_ways || static_cast<std::uint64_t>(ways) > lines) {
            const int capped = static_cast<int>(std::min<std::uint64_t>(lines, max_ways));
            out.notes.push_back(fmt::format("{} {}: simulated with {} ways", name,
                                            ways < 0 ? "fully associative" : fmt::format("{} ways", ways), capped));
            ways = std::max(1, capped);
        }
        const std::uint64_t set_bytes = static_cast<std::uint64_t>(ways) * static_cast<std::uint64_t>(line);
        const std::uint64_t size = c.size_bytes / set_bytes * set_bytes;
        if (size != c.size_bytes)
            out.notes.push_back(fmt::format("{} of {} simulated as {} (whole sets of {} ways)", name,
                                            size_text(c.size_bytes), size_text(size), ways));
        const bool victim = amd && i > 0 && i + 1 == levels.size() && c.level >= 3;
        const int shared = std::clamp(c.shared_by_cores, 1, max_cores);
        // The tool keeps 8 bytes per line (L1: 16, with its time stamp) of every instance a thread touches:
        // with one thread per core, all of them.
        const std::uint64_t instances = (static_cast<std::uint64_t>(std::clamp(cores, 1, max_cores)) + shared - 1) / shared;
        tag_bytes += size / static_cast<std::uint64_t>(line) * (i == 0 ? 16 : 8) * instances;
        out.option += fmt::format("{}{}:{}:{}:{}{}", out.option.empty() ? "" : ",", size, ways, line, shared,
                                  victim ? ":victim" : "");
        out.description += fmt::format("{}{} {} {}-way{}{}", out.description.empty() ? "" : ", ", name,
                                       size_text(size), ways, victim ? " victim" : "",
                                       shared > 1 ? fmt::format(" (shared by {})", shared) : "");
    }
    if (tag_bytes > max_tag_bytes)
        throw std::invalid_argument(fmt::format(
            "simulating these caches on {} cores would take {} of memory for the tool's tags (at most {}): a model "
            "with fewer cores or smaller private levels", cores, size_text(tag_bytes / (1ull << 20) << 20),
            size_text(max_tag_bytes)));
    return out;
}

std::string cpu_core_map(const std::vector<CoreDetail>& topology_cores, int cores) {
    constexpr int max_cpus = 8192;  // the tool's limit
    std::vector<int> core_of;
    for (const auto& core : topology_cores) {
        if (core.index < 0 || core.index >= cores) continue;
        for (const int pu : core.pu_os_indices) {
            if (pu < 0 || pu >= max_cpus) continue;
            if (static_cast<int>(core_of.size()) <= pu) core_of.resize(static_cast<std::size_t>(pu) + 1, -1);
            core_of[static_cast<std::size_t>(pu)] = core.index;
        }
    }
    std::string out;
    for (std::size_t cpu = 0; cpu < core_of.size(); ++cpu) {
        if (cpu) out += ',';
        if (core_of[cpu] >= 0) out += std::to_string(core_of[cpu]);
    }
    return out;
}

} // namespace roofline::measure
