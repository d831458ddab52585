// The validation sweep: kernels of known arithmetic intensity (1/16..64 FLOP/byte)
// run in each memory level and compared with what the measured roofline predicts,
// min(compute roof, level bandwidth x intensity) — the CARM papers' validation.
#pragma once

#include "bench/burst_sampler.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_team.hpp"
#include "core/machine_model.hpp"

#include <vector>

namespace roofline {

// How many figures the sweep takes per thread count.
int count_validation_tasks(int levels);

// Runs at every level that has a "load" roof at this thread count; the working
// set is that roof's (per-thread share of its) working set. The compute roof is
// the DP 256-bit FMA roof (the kernels' own instruction mix) at this thread count.
// Sampled as the roofs are (`policy`, and `check` around multi-thread bursts).
void run_validation(ThreadTeam& team, const MachineModel& model, TaskClock& clock, const BurstPolicy& policy,
                    const CoreCheck& check, std::vector<ValidationPoint>& out);

} // namespace roofline
