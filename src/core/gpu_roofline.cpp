#include "core/gpu_roofline.hpp"

#include "core/level.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline {

std::string gpu_label(const GpuModel& gpu) { return fmt::format("{} (GPU {})", gpu.name, gpu.index); }

bool has_gpu_tensor_roof(const GpuModel& gpu, const std::string& asked) {
    const std::string precision = gpu_precision(asked).value_or(asked);
    return std::any_of(gpu.compute.begin(), gpu.compute.end(),
                       [&](const GpuComputeRoof& c) { return c.tensor && c.precision == precision && c.gflops > 0; });
}

Roofline gpu_roofline(const GpuModel& gpu, const std::string& asked, bool tensor, bool tensor_only) {
    // Any spelling core/precision reads ("dp", "FP64"), as GPU roofs are written ("fp64").
    const std::string precision = gpu_precision(asked).value_or(asked);
    Roofline r;
    r.label = gpu_label(gpu);
    r.precision = precision;
    r.threads = 0;
    const GpuComputeRoof* top = nullptr;
    for (const auto& c : gpu.compute)
        if (c.precision == precision && (tensor || !c.tensor) && (!tensor_only || c.tensor) && c.gflops > 0 &&
            (!top || c.gflops > top->gflops))
            top = &c;
    if (!top) {
        std::string have;
        for (const auto& c : gpu.compute) have += fmt::format("{}{}", have.empty() ? "" : ", ", c.name);
        throw std::invalid_argument(fmt::format("{} has no {} {}roof{} (measured: {})", r.label, precision,
                                                tensor_only ? "tensor " : "", tensor ? "" : " outside the tensor cores",
                                                have.empty() ? "no compute roof" : have));
    }
    r.work_unit = top->work_unit;
    r.compute = {fmt::format("{} {}peak", precision_label(precision), top->tensor ? "tensor " : ""), "", top->gflops,
                 measured_spread(top->gflops, top->stats)};
    for (const auto& c : gpu.compute) {
        if (&c == top || c.precision != precision || !(c.gflops > 0) || c.gflops >= top->gflops) continue;
        if (!tensor && c.tensor) continue;
        Ceiling ceiling{c.name, CeilingKind::compute, top->tensor && !c.tensor ? "simd" : "ilp", "", c.gflops, {}};
        if (top->tensor && !c.tensor)
            ceiling.advice = "use the tensor cores (WMMA/MMA, or a library's tensor-op path: cuBLAS, cuDNN, CUTLASS)";
        r.ceilings.push_back(std::move(ceiling));
    }
    // Per level the fastest pattern; the others are pattern ceilings.
    std::vector<std::string> levels;
    for (const auto& m : gpu.memory)
        if (m.gbs > 0 && std::find(levels.begin(), levels.end(), m.level) == levels.end()) levels.push_back(m.level);
    std::sort(levels.begin(), levels.end(), [](const auto& a, const auto& b) { return level_before(a, b); });
    for (const auto& level : levels) {
        const GpuMemoryRoof* best = nullptr;
        for (const auto& m : gpu.memory)
            if (m.level == level && (!best || m.gbs > best->gbs)) best = &m;
        r.bandwidth.push_back({fmt::format("{} {}", level, best->pattern), level, best->gbs, measured_spread(best->gbs, best->stats)});
        for (const auto& m : gpu.memory)
            if (m.level == level && &m != best && m.gbs > 0 && m.gbs < best->gbs * 0.995)
                r.ceilings.push_back({fmt::format("{} {}", level, m.pattern), CeilingKind::bandwidth, "pattern", level,
                                      m.gbs, {}});
    }
    // The bus: pinned transfers one way (what an offload's copies get at best); pageable is a ceiling.
    const BusRoof* bus = nullptr;
    for (const auto& b : gpu.bus)
        if (b.pinned && b.direction != "bidirectional" && b.gbs > 0 && (!bus || b.gbs > bus->gbs)) bus = &b;
    if (bus) {
        r.bandwidth.push_back({fmt::format("PCIe {} pinned", bus->direction), "PCIe", bus->gbs, measured_spread(bus->gbs, bus->stats)});
        for (const auto& b : gpu.bus)
            if (!b.pinned && b.gbs > 0 && b.gbs < bus->gbs)
                r.ceilings.push_back({fmt::format("PCIe {} pageable", b.direction), CeilingKind::bandwidth, "pattern", "PCIe",
                                      b.gbs, "copy from page-locked (pinned) host memory: cudaMallocHost / cudaHostRegister"});
    }
    // Ceilings in the order the chart and the analysis expect: compute then bandwidth, each descending.
    std::stable_sort(r.ceilings.begin(), r.ceilings.end(), [](const Ceiling& a, const Ceiling& b) {
        if (a.kind != b.kind) return a.kind == CeilingKind::compute;
        return a.value > b.value;
    });
    return r;
}

} // namespace roofline
