#include "core/machine_file.hpp"

#include "core/precision.hpp"

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

bool same_value(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

double roof_value(const Roofline& r, const Ceiling& c) {
    if (c.kind == CeilingKind::compute) return r.compute.value;
    for (const auto& b : r.bandwidth)
        if (b.level == c.level) return b.value;
    return HUGE_VAL;  // a level without a roof: keep the ceiling, nothing compares it
}

} // namespace

void apply_named_ceilings(Roofline& r, const MachineFile& machine) {
    if (!machine.spec_sheet || r.threads != machine.spec_threads) return;
    for (const auto& named : machine.named_ceilings) {
        const Ceiling& written = named.ceiling;
        if (written.kind == CeilingKind::compute && named.precision != r.precision) continue;
        if (written.value >= roof_value(r, written)) continue;  // not below its roof: no ceiling
        auto twin = std::find_if(r.ceilings.begin(), r.ceilings.end(), [&](const Ceiling& c) {
            return c.kind == written.kind && c.level == written.level && same_value(c.value, written.value);
        });
        if (twin == r.ceilings.end()) {
            r.ceilings.push_back(written);
            continue;
        }
        twin->name = written.name;
        twin->category = written.category;
        if (!written.advice.empty()) twin->advice = written.advice;
    }
    // Compute ceilings first, then bandwidth ceilings, each descending (as roofline_from_machine orders them).
    std::stable_sort(r.ceilings.begin(), r.ceilings.end(), [](const Ceiling& a, const Ceiling& b) {
        if (a.kind != b.kind) return a.kind == CeilingKind::compute;
        return a.value > b.value;
    });
}

Roofline roofline_from_machine_file(const MachineFile& machine, const RooflineSelection& selection) {
    Roofline r = roofline_from_machine(machine.model, selection);
    if (!is_flop_precision(selection.precision)) {
        r.work_unit = selection.precision;  // a spec sheet's peak in another unit ("exchange", "IOP")
        r.precision.clear();
    }
    apply_named_ceilings(r, machine);
    return r;
}

} // namespace roofline
