#include "core/model_completeness.hpp"

#include "core/level.hpp"

#include <algorithm>

namespace roofline {

ModelCompleteness completeness_of(const MachineModel& model) {
    ModelCompleteness c;
    c.compute = std::any_of(model.compute.begin(), model.compute.end(), [](const ComputeRoof& r) { return r.gflops > 0; });
    c.memory = std::any_of(model.memory.begin(), model.memory.end(), [](const MemoryRoof& r) {
        return r.gbs > 0 && is_memory_level(r.level);
    });
    c.interrupted = model.partial;
    c.restricted_to = model.environment.restricted_to;
    return c;
}

std::string completeness_label(const ModelCompleteness& c) {
    if (c.complete()) return "complete";
    std::string label = c.compute && c.memory ? "" : c.compute ? "compute-only" : c.memory ? "memory-only" : "no roofs";
    if (c.interrupted) label += label.empty() ? "interrupted" : ", interrupted";
    if (!c.restricted_to.empty()) label += label.empty() ? "restricted" : ", restricted";
    return label;
}

std::string completeness_lacks(const ModelCompleteness& c) {
    std::string out;
    const auto add = [&](const char* what) { out += (out.empty() ? "" : "; ") + std::string(what); };
    if (!c.compute) add("no compute roof");
    if (!c.memory) add("no bandwidth roof of a memory level");
    if (c.interrupted) add("its run was interrupted, so some roofs may be missing");
    if (!c.restricted_to.empty())
        add(("its run was kept to " + c.restricted_to + ", so its roofs are not the machine's best").c_str());
    return out;
}

} // namespace roofline
