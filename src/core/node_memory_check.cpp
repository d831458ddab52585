#include "core/node_memory_check.hpp"

#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <numeric>

namespace roofline {

std::string node_memory_shortfall(const std::vector<std::uint64_t>& node_bytes, std::uint64_t kernel_total_bytes) {
    const std::uint64_t nodes = std::accumulate(node_bytes.begin(), node_bytes.end(), std::uint64_t{0});
    if (nodes == 0 || kernel_total_bytes == 0) return "";
    if (static_cast<double>(nodes) >= kNodeMemoryShortShare * static_cast<double>(kernel_total_bytes)) return "";
    return fmt::format(
        "the NUMA node{} report{} {} of memory, but the kernel manages {} (MemTotal in /proc/meminfo): {} is on no "
        "node's count (a guest kernel that initialises memory lazily, or memory added later), so the node figure{} "
        "above {} not the machine's memory",
        node_bytes.size() == 1 ? "" : "s", node_bytes.size() == 1 ? "s" : "", format_bytes(nodes),
        format_bytes(kernel_total_bytes), format_bytes(kernel_total_bytes - nodes), node_bytes.size() == 1 ? "" : "s",
        node_bytes.size() == 1 ? "is" : "are");
}

} // namespace roofline
