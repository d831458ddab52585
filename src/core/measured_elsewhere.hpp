// Points judged on the roofs of a machine other than the one they were measured on: the set's
// provenance (host, CPU) against the machine model's (hostname, CPU model). Not refused (judging
// one machine's run on another's roofs is how machines are compared), but said. Pure.
#pragma once

#include "core/machine_model.hpp"
#include "core/provenance.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

struct MeasuredElsewhere {
    std::string set;           // the point set as the command names it ("p.json", "stored:4")
    std::string host, cpu;     // where it was measured (provenance; an MPI job's hosts joined by ", ")
    std::string machine_host;  // the model's (environment.hostname, cpu.model)
    std::string machine_cpu;
    bool one_of_several = false;  // the command combined this set with others: the text names it
};

// When `provenance` and the measured model name different hosts or CPU models: both, for a note;
// nullopt when they agree, or when either does not say (a set written by hand, a spec sheet: no
// hostname, nothing measured there). An MPI job's set agrees when the model's host is one of its
// hosts.
std::optional<MeasuredElsewhere> measured_elsewhere(const std::string& set, const Provenance& provenance,
                                                    const MachineModel& model);

// measured_elsewhere for each of the sets a command combined (named as it names them), in order.
std::vector<MeasuredElsewhere> sets_measured_elsewhere(const std::vector<std::pair<std::string, Provenance>>& sets,
                                                       std::size_t sets_combined, const MachineModel& model);

// "the points were measured on HOST (CPU) and are judged on the roofs of HOST2 (CPU2): ...", once
// for all `found` (each set named when it is one of several); "" for none.
std::string measured_elsewhere_text(const std::vector<MeasuredElsewhere>& found);

} // namespace roofline
