#include "core/gpu_l2_check.hpp"

#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace roofline {

std::vector<std::string> refuse_gpu_l2_reuse(GpuModel& gpu) {
    std::vector<std::string> refused;
    const auto dram = std::find_if(gpu.memory.begin(), gpu.memory.end(), [](const GpuMemoryRoof& r) {
        return r.level == "DRAM" && r.pattern == "read";
    });
    if (gpu.l2_bytes == 0 || dram == gpu.memory.end() || !(dram->gbs > 0)) return refused;
    const double dram_read = dram->gbs;
    const std::uint64_t past = 2 * gpu.l2_bytes;
    std::vector<std::string> patterns;  // of the curves refused: the L2 roofs of the same kernel go too
    std::erase_if(gpu.curves, [&](const GpuBandwidthCurve& curve) {
        if (curve.level != "L2") return false;
        for (const auto& [bytes, gbs] : curve.points) {
            if (bytes < past || gbs <= (1 + kPastL2Tolerance) * dram_read) continue;
            refused.push_back(fmt::format(
                "L2 {} curve: {:.0f} GB/s at {}, twice the L2 ({}) or more, is {:.2f}x the DRAM read roof "
                "({:.0f} GB/s): the kernel's blocks read lines other blocks had just fetched from DRAM, so its L2 "
                "figures count that reuse, not the L2; the curve and the L2 {} roof are refused",
                curve.pattern, gbs, format_bytes(bytes), format_bytes(gpu.l2_bytes), gbs / dram_read, dram_read,
                curve.pattern));
            patterns.push_back(curve.pattern);
            return true;
        }
        return false;
    });
    std::erase_if(gpu.memory, [&](const GpuMemoryRoof& r) {
        return r.level == "L2" && std::find(patterns.begin(), patterns.end(), r.pattern) != patterns.end();
    });
    return refused;
}

} // namespace roofline
