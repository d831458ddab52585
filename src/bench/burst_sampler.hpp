// Roofs sampled in short bursts, interleaved across the figures of a phase and
// spread over its share of the run, so that seconds of interference (another
// tenant, the host placing two vCPUs on one physical core) cannot decide a roof:
// a roof is an upper bound and interference only lowers throughput, so each
// figure is a high quantile of its bursts' best samples. Multi-thread bursts are
// bracketed by a check that the threads ran on separate cores; bursts that
// fail it are set aside and counted.
#pragma once

#include "bench/task_clock.hpp"
#include "core/machine_model.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace roofline {

// Returns true when the threads run on separate cores now; empty: no check.
using CoreCheck = std::function<bool()>;

struct Figure {
    std::string label;                               // progress text
    std::function<double(std::uint64_t)> timed_run;  // runs `reps` repetitions, returns seconds
    double work_per_rep = 0;                         // FLOPs or bytes of one repetition, all threads
    // Short samples find the millisecond-long quiet windows of a shared host;
    // figures of a shared level (L3, DRAM) keep longer ones, so every thread's
    // traffic overlaps the others' for nearly all of a sample.
    double sample_seconds = 0.002;
    CoreCheck check;                                 // brackets every burst (multi-thread figures)
    // Untimed samples before each burst: the figures between two bursts of this
    // one have evicted its data. 0 where nothing stays cached anyway (DRAM).
    int warmup_samples = 1;
    // Bursts this figure takes at least (0: the policy's): a figure the host swings by
    // seconds-long spells (DRAM on a shared host: 33 or 57 GB/s from one second to the
    // next) needs its bursts spread over more of the run to meet a good spell.
    int min_bursts = 0;
    // Figures of per-core resources (compute pipes, private caches) share a key
    // across thread counts: a team on separate cores reaches `threads` times the
    // one-thread figure. While it falls short, the team has not yet met a
    // moment when all its cores were quiet, and sampling goes on (to
    // max_bursts); the value is never adjusted towards the expectation.
    std::string scaling_key;  // empty: no expectation
    // Checks the kernel's output after each burst (empty: a problem; throws on
    // one: a figure from wrong results is not a measurement). Empty: no check.
    std::function<std::string()> verify;
    int threads = 1;

    // Filled in by sample_figures_in_bursts.
    std::uint64_t reps = 0;
    std::vector<std::vector<double>> bursts;         // accepted, rates in G units per second
    std::vector<std::vector<double>> rejected;       // bursts the core check failed
    double value = 0;                                // the figure (0: nothing measured)
    Stats stats;  // stats.cores_shared: no burst passed the check, the value comes from rejected ones
};

struct BurstPolicy {
    int samples_per_burst = 5;           // at least; a figure with shorter samples takes
    double burst_seconds = 0.01;         // as many as fill this
    int min_bursts = 4;
    int max_bursts = 10;
    double quantile = 0.9;
    double agreement = 0.02;             // "stable": two bursts within this of the value
    double scaling_shortfall = 0.05;     // a team below (1 - this) x threads x one-thread keeps sampling,
                                         // and one thread below (1 - this) x its share of a team
    double budget_seconds = 1;           // for the whole set, after calibration
    double wait_for_cores_seconds = 1;   // per burst: how long to wait for the cores to separate
};

// Calibrates every figure, then samples them in rounds of one burst each until
// each has `min_bursts` bursts whose top agrees (and, for a team figure with a
// one-thread partner in the set, scales with its threads; a one-thread figure is not
// under its share of a team's), `max_bursts`
// bursts, or the budget is spent. Each burst of a figure with a check is kept only when the
// check passes before and after it. Figures may come from several phases and
// thread counts: their bursts interleave over the whole schedule. Honours the
// clock's stop flag (figures keep what they have).
void sample_figures_in_bursts(const std::vector<Figure*>& figures, const BurstPolicy& policy, TaskClock& clock);
// The same for one set of figures sharing `check` (set on each figure first).
void sample_figures_in_bursts(std::vector<Figure>& figures, const BurstPolicy& policy, const CoreCheck& check,
                              TaskClock& clock);

// One more burst of a calibrated figure (its warm-up, check and self-check as in the rounds),
// outside its statistics: the rate a high quantile of that burst's samples gives, in the figure's
// unit; 0 when it was never calibrated or the run is stopped. For the limit guard, which times a
// roof's kernel once more between two clock readings (roof_limit_guard.hpp).
double time_figure_once(Figure& figure, const BurstPolicy& policy, const TaskClock& clock);

// Pure: a team figure of a per-core resource below (1 - shortfall) x threads x
// its one-thread figure has not met a moment when all its cores were quiet.
bool short_of_scaling(double team_value, double single_value, int threads, double shortfall);

// Pure: a one-thread figure of a per-core resource below (1 - shortfall) x its share of a
// team's figure (team / threads) has not met a moment when its core was quiet (a co-scheduled
// vCPU once held a 1-thread FMA roof at 28% of its 2-thread team's per-thread figure).
bool short_of_team(double single_value, double team_value, int threads, double shortfall);

// Pure: the figure's value and stats from its bursts (rejected ones only when
// no burst was accepted). Sets value and stats.
void finish_figure(Figure& figure, const BurstPolicy& policy);

} // namespace roofline
