// The NUMA nodes' memory as the OS's node files report it, checked against the memory the kernel
// manages in all (MemTotal): a guest kernel that initialises its memory lazily (seen on a KVM guest
// of 23.5 GiB whose one node reported 5.96 GiB) or memory added later can leave most of it on no
// node's count, and a per-node figure printed as the machine's memory would then be false.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

// Below this share of MemTotal, the nodes' sum is said not to be the machine's memory (the kernel's
// own reservations keep the sum a few percent under MemTotal on a healthy machine).
inline constexpr double kNodeMemoryShortShare = 0.9;

// A warning for people when the nodes' memory adds up to less than kNodeMemoryShortShare of the
// kernel's MemTotal; empty when it does not, or when either figure is unknown (0).
std::string node_memory_shortfall(const std::vector<std::uint64_t>& node_bytes, std::uint64_t kernel_total_bytes);

} // namespace roofline
