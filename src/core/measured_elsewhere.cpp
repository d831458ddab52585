#include "core/measured_elsewhere.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace roofline {

std::optional<MeasuredElsewhere> measured_elsewhere(const std::string& set, const Provenance& provenance,
                                                    const MachineModel& model) {
    const std::string& machine_host = model.environment.hostname;
    if (machine_host.empty()) return std::nullopt;  // a spec sheet: nothing was measured anywhere
    std::vector<std::string> hosts;
    if (provenance.mpi)
        for (const auto& h : provenance.mpi->hosts)
            if (!h.empty() && std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
    if (hosts.empty() && !provenance.host.empty()) hosts.push_back(provenance.host);
    // Hostnames repeat across machines ("localhost", a container's "vm"): the CPU model tells
    // those apart too.
    const bool other_host = !hosts.empty() && std::find(hosts.begin(), hosts.end(), machine_host) == hosts.end();
    const bool other_cpu = !provenance.cpu.empty() && !model.cpu.model.empty() && provenance.cpu != model.cpu.model;
    if (!other_host && !other_cpu) return std::nullopt;
    return MeasuredElsewhere{set, fmt::format("{}", fmt::join(hosts, ", ")), provenance.cpu, machine_host,
                             model.cpu.model};
}

std::vector<MeasuredElsewhere> sets_measured_elsewhere(const std::vector<std::pair<std::string, Provenance>>& sets,
                                                       std::size_t sets_combined, const MachineModel& model) {
    std::vector<MeasuredElsewhere> found;
    for (const auto& [set, provenance] : sets)
        if (auto f = measured_elsewhere(set, provenance, model)) {
            f->one_of_several = sets_combined > 1;
            found.push_back(std::move(*f));
        }
    return found;
}

namespace {
std::string where(const std::string& host, const std::string& cpu) {
    if (host.empty()) return cpu.empty() ? std::string("an unnamed host") : fmt::format("a host with {}", cpu);
    return cpu.empty() ? host : fmt::format("{} ({})", host, cpu);
}
} // namespace

std::string measured_elsewhere_text(const std::vector<MeasuredElsewhere>& found) {
    if (found.empty()) return "";
    const bool name_sets = found.size() > 1 || found.front().one_of_several;
    std::string measured;
    for (const auto& f : found) {
        if (!name_sets && !measured.empty()) break;  // one set: one place
        measured += !name_sets            ? fmt::format("the points were measured on {}", where(f.host, f.cpu))
                    : measured.empty()    ? fmt::format("the points of {} were measured on {}", f.set, where(f.host, f.cpu))
                                          : fmt::format(", those of {} on {}", f.set, where(f.host, f.cpu));
    }
    const auto& m = found.front();  // one model judges them all
    const bool same_cpu = std::all_of(found.begin(), found.end(), [](const MeasuredElsewhere& f) {
        return !f.cpu.empty() && f.cpu == f.machine_cpu;
    });
    return fmt::format("{}{} and are judged on the roofs of {}: their efficiency, bounds and advice set one machine's "
                       "rates against another's roofs{}; to judge them on their own machine's, give --machine a model "
                       "measured there (roofline bench on it)",
                       measured, name_sets && found.size() > 1 ? "," : "", where(m.machine_host, m.machine_cpu),
                       same_cpu ? " (the same CPU model, but another host: its clock, memory and load may differ)" : "");
}

} // namespace roofline
