#include "core/level.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace roofline {
namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// Caches by number, then DRAM, then everything else.
int rank(std::string_view level) {
    if (auto n = cache_level_number(level)) return *n;
    if (same_ignoring_case(level, "DRAM")) return 1000;
    return 2000;
}

} // namespace

std::optional<int> cache_level_number(std::string_view level) {
    if (level.size() < 2 || level.size() > 4 || (level[0] != 'L' && level[0] != 'l')) return std::nullopt;
    int n = 0;
    for (char c : level.substr(1)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

std::string canonical_level(std::string_view level) {
    if (auto n = cache_level_number(level)) return "L" + std::to_string(*n);
    if (same_ignoring_case(level, "DRAM")) return "DRAM";
    return std::string(level);
}

bool level_before(std::string_view a, std::string_view b) {
    return std::make_tuple(rank(a), a) < std::make_tuple(rank(b), b);
}

bool is_bus_level(std::string_view level) { return level == "PCIe" || level == "NVLink" || level == "network"; }

bool is_numa_pair(std::string_view level) { return level.rfind("NUMA", 0) == 0; }

bool is_custom_working_set(std::string_view level) { return level == kCustomWorkingSetLevel; }

namespace {

// "<digits>" in full, nothing else.
bool is_number_text(std::string_view text) {
    return !text.empty() && text.size() <= 4 &&
           std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

} // namespace

bool is_known_level(std::string_view level) {
    if (const auto n = cache_level_number(level)) return *n >= 1 && *n <= 4;
    for (const char* name : {"DRAM", "HBM", "PCIe", "NVLink", "network"})
        if (same_ignoring_case(level, name)) return true;
    if (!is_numa_pair(level)) return false;
    const auto arrow = level.find("->");
    return arrow != std::string_view::npos && is_number_text(level.substr(4, arrow - 4)) &&
           is_number_text(level.substr(arrow + 2));
}

bool is_memory_level(std::string_view level) {
    if (const auto n = cache_level_number(level)) return *n >= 1 && *n <= 4;
    return same_ignoring_case(level, "DRAM") || same_ignoring_case(level, "HBM");
}

const char* known_levels_text() { return "L1, L2, L3, L4, DRAM, HBM, PCIe, NVLink, network or NUMA<i>-><j>"; }

} // namespace roofline
