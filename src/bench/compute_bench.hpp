// The compute phase: every (precision, width, mix) family of compute kernels.
// At the first thread count each family's kernel is chosen by measurement (the
// "fma+add" family by the port-mix search); every figure is then sampled in
// bursts, and later thread counts reuse the chosen kernels.
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/burst_sampler.hpp"
#include "bench/kernel.hpp"
#include "bench/task_clock.hpp"
#include "bench/thread_team.hpp"
#include "core/machine_model.hpp"
#include "core/microarch.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace roofline {

struct ComputeFamily {
    std::string precision;
    int vector_bits = 0;
    std::string mix;
    std::vector<const ComputeKernel*> variants;  // the fastest wins (searched for "fma+add")
};

// What a family's winner was chosen from, for the model.
struct ComputeChoice {
    const ComputeKernel* kernel = nullptr;  // the search's winner
    // The winner and its closest rivals, best first, and the mix the table
    // predicts saturates the pipes (where it knows the CPU): each is sampled in bursts
    // over the whole run and the family's roof is the best of them (a choice
    // made in a fraction of a second on a shared host can favour a lighter mix
    // that a busy SMT sibling slows less).
    std::vector<const ComputeKernel*> finalists;
    int tried = 0;
};

// The families this run measures (supported ISAs only).
std::vector<ComputeFamily> plan_compute_families(const BenchOptions& options);
// Figures the compute phase will take: one per family and thread count.
int count_compute_tasks(const std::vector<ComputeFamily>& families, int thread_counts);

// The compute figures of one thread count. Construction chooses each family's
// kernel on `team` unless `choices` already holds them (from the first thread
// count), and builds one figure per family; after the figures are sampled
// (sample_figures_in_bursts, possibly interleaved with other phases), roofs()
// turns them into compute roofs.
class ComputePhase {
public:
    // `microarch` (when the table knows the CPU) nominates port mixes for the search's finalists.
    ComputePhase(ThreadTeam& team, const std::vector<ComputeFamily>& families, std::vector<ComputeChoice>& choices,
                 const std::optional<Microarch>& microarch, TaskClock& clock);
    ~ComputePhase();
    ComputePhase(const ComputePhase&) = delete;
    ComputePhase& operator=(const ComputePhase&) = delete;

    std::vector<Figure>& figures() { return figures_; }
    // `microarch` (when the CPU is known) gives the theoretical figures.
    std::vector<ComputeRoof> roofs(const std::optional<Microarch>& microarch, double clock_ghz) const;
    // The figure a roof of roofs() came from (its family's best finalist); null: none.
    Figure* figure_of(const ComputeRoof& roof);

    struct Runner;  // the timed unit of one figure (defined in the .cpp)

private:
    ThreadTeam& team_;
    const std::vector<ComputeFamily>& families_;
    const std::vector<ComputeChoice>& choices_;
    std::vector<std::unique_ptr<Runner>> runners_;
    std::vector<Figure> figures_;
    std::vector<std::size_t> family_of_;
    std::vector<const ComputeKernel*> kernel_of_;
};

// Adds one "best" roof per (precision, threads): the fastest of everything measured.
void add_best_compute_roofs(std::vector<ComputeRoof>& roofs);

// Theoretical GFLOP/s of a family at `threads` cores (0 when the CPU is unknown):
// the best any chain count of the family's op kinds can reach ("chain": the
// latency of one dependent chain).
double family_theoretical_gflops(const std::optional<Microarch>& microarch, const std::string& mix,
                                 const ComputeKernel& kernel, int threads, double clock_ghz);

// Runs restricted to an ISA (--isa) whose FMA+ADD or MUL+ADD family stays well under its
// theory are checked, at one thread on `team`, against the same precision and width
// encoded with more registers where the CPU has them (AVX-512's 32 over AVX2's 16):
// both timed in interleaved rounds. Returns one note per family checked, saying
// whether the register count explains the gap (the ceiling is that ISA's code's, not
// a measurement fault) or not.
std::vector<std::string> register_count_checks(ThreadTeam& team, const std::vector<ComputeRoof>& roofs,
                                               const std::optional<Microarch>& microarch, TaskClock& clock);

} // namespace roofline
