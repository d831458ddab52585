// Whether a machine model holds what judging a point needs: a compute roof and a
// bandwidth roof of a memory level, from a run that was not interrupted. `bench
// --only memory|compute` writes models with one part only, Ctrl-C an interrupted
// one; commands that judge points skip such models when they choose one
// themselves, and `list` marks them. Pure.
#pragma once

#include "core/machine_model.hpp"

#include <string>

namespace roofline {

struct ModelCompleteness {
    bool compute = false;      // a compute roof with a rate
    bool memory = false;       // a bandwidth roof of a memory level (L1.., DRAM, HBM)
    bool interrupted = false;  // the run was stopped (MachineModel::partial): some roofs may be missing
    std::string restricted_to = {};  // the run was kept to some kernels (Environment::restricted_to): not the best roofs
    bool complete() const { return compute && memory && !interrupted && restricted_to.empty(); }
};

// Working sets of no known level ("custom"), NUMA pairs and buses are no memory level's roof.
ModelCompleteness completeness_of(const MachineModel& model);

// A short label: "complete", "memory-only", "compute-only", "no roofs", with
// ", interrupted" and ", restricted" after the last three, or those alone.
std::string completeness_label(const ModelCompleteness& c);

// What it lacks, for a note: "no compute roof", "no bandwidth roof of a memory
// level", "its run was interrupted, so some roofs may be missing", "its run was kept
// to --isa sse2, so its roofs are not the machine's best", joined by "; "; "" when complete.
std::string completeness_lacks(const ModelCompleteness& c);

} // namespace roofline
