#include "measure/cpu_event_set.hpp"

#include "io/install_layout.hpp"
#include "topo/cpu_features.hpp"

#include <fmt/format.h>

namespace roofline::measure {

CpuEventSet cpu_event_set(const std::string& given_dir, const std::string& self_exe) {
    const auto dir = given_dir.empty() ? events_dir(self_exe) : given_dir;
    if (dir.empty())
        throw MeasureError("the perf engine's event files were not found (share/roofline/events next to this "
                           "roofline's install prefix, or in its build tree): reinstall, or set ROOFLINE_EVENTS_DIR "
                           "to a directory of event files");
    const auto sets = load_event_sets(dir);
    // The one CPU identity every command uses (CPUID, through topo).
    const CpuFeatures features = detect_cpu_features();
    const CpuIdentity cpu{features.vendor, features.family, features.model};
    auto set = select_event_set(sets, cpu);
    if (!set)
        throw MeasureError(fmt::format("no event file in {} matches this CPU ({} family {} model {})", dir,
                                       cpu.vendor, cpu.family, cpu.model));
    CpuEventSet out;
    out.set = std::move(*set);
    for (const auto& e : out.set.events) {
        if (!applies(e, cpu)) continue;
        if (e.pfm_name.rfind(kSysfsPrefix, 0) == 0) {
            out.whole_cpu_events.push_back(e);
            continue;
        }
        std::string error;
        if (auto enc = encode_event(e.alias, e.pfm_name, error)) out.core_events.push_back(*enc);
        else out.warnings.push_back(error);
    }
    return out;
}

void apply_event_metrics(RegionCounts& c, const std::map<std::string, double>& m) {
    auto get = [&](const char* k) -> const double* {
        const auto it = m.find(k);
        return it == m.end() ? nullptr : &it->second;
    };
    // Precision split when the file gives it, else one "all".
    if (get("flops_dp") || get("flops_sp")) {
        if (const auto* v = get("flops_dp")) c.flops["f64"] = *v;
        if (const auto* v = get("flops_sp")) c.flops["f32"] = *v;
    } else if (const auto* v = get("flops")) {
        c.flops["all"] = *v;
    }
    for (const char* w : {"scalar", "128", "256", "512"})
        if (const auto* v = get(fmt::format("flops_{}", w).c_str())) c.flops_by_width[w] = *v;
    if (const auto* v = get("bytes_DRAM")) c.bytes_by_level["DRAM"] = *v;
    for (const char* k : {"cycles", "instructions"})
        if (const auto* v = get(k)) c.events[k] = *v;
}

} // namespace roofline::measure
