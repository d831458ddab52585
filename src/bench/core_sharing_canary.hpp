// Detects threads that share one physical core although they are pinned to
// different logical cores: SMT siblings, or vCPUs the hypervisor placed on one
// core for a while (then every all-thread figure halves). A short compute
// kernel, which does not depend on memory, runs on one thread and then on all:
// on separate cores each thread keeps its single-thread speed.
#pragma once

#include "bench/kernel.hpp"
#include "bench/thread_team.hpp"

#include <cstdint>
#include <vector>

namespace roofline {

// Pure decision: the same work took `single_seconds` on one thread and
// `team_seconds` (slowest thread) on every thread at once. Turbo steps and
// noise slow a team a little; sharing cores slows it by about the sharing
// factor. True when the slowdown exceeds `limit`.
bool threads_share_cores(double single_seconds, double team_seconds, double limit = 1.4);

// Pure decision: the team's canary took `team_seconds`; the fastest it has been
// in this run took `best_team_seconds`. A host that lends part of one of the
// cores elsewhere (another tenant) slows the slowest thread without halving
// it. True when the team is slower than its best by more than `limit`.
bool team_slowed(double team_seconds, double best_team_seconds, double limit = 1.12);

class CoreSharingCanary {
public:
    // For a team of two or more threads. `kernel` is a compute kernel this CPU
    // supports; each check runs it for
    // about `seconds` per thread.
    CoreSharingCanary(ThreadTeam& team, const ComputeKernel& kernel, double seconds = 0.001);

    // Runs the canary now: true when the team's threads run on separate cores,
    // no slower than the team's best so far.
    bool cores_separate();

    int checks() const { return checks_; }
    int failures() const { return failures_; }

private:
    ThreadTeam& team_;
    const ComputeKernel& kernel_;
    std::uint64_t reps_ = 1;
    std::vector<std::vector<double>> out_;
    double best_team_ = 0;  // fastest team canary so far, seconds
    int checks_ = 0, failures_ = 0;
};

// The kernel the canary runs on this CPU: a widest-width FMA kernel (ADD where
// the CPU has no FMA). Never null on x86-64 (SSE2 is always there).
const ComputeKernel* canary_kernel();

} // namespace roofline
