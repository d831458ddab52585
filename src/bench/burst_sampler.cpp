#include "bench/burst_sampler.hpp"

#include "bench/sampler.hpp"
#include "core/statistics.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace roofline {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double current_value(const Figure& f, const BurstPolicy& policy, Stats& scratch) {
    return summarize_bursts(f.bursts, policy.quantile, policy.agreement, scratch);
}

// The figures of the same per-core resource (scaling key) at other thread counts: a team's
// one-thread figure, a one-thread figure's teams.
struct ScalingPartners {
    const Figure* single = nullptr;
    std::vector<const Figure*> teams;
};

// Enough bursts, the top of them agrees, a team figure has reached what its one-thread
// partner says separate cores give, and a one-thread figure is not under its share of a
// team's (one core never does less alone than its share in a team: it was not quiet while
// sampled): more would not move the figure.
bool settled(const Figure& f, const ScalingPartners& partners, const BurstPolicy& policy) {
    const int taken = static_cast<int>(f.bursts.size() + f.rejected.size());
    if (taken >= policy.max_bursts) return true;
    if (static_cast<int>(f.bursts.size()) < std::max(policy.min_bursts, f.min_bursts)) return false;
    Stats scratch;
    const double value = current_value(f, policy, scratch);
    if (!scratch.stable) return false;
    Stats partner;
    if (partners.single && !partners.single->bursts.empty() &&
        short_of_scaling(value, current_value(*partners.single, policy, partner), f.threads, policy.scaling_shortfall))
        return false;
    for (const Figure* team : partners.teams)
        if (!team->bursts.empty() &&
            short_of_team(value, current_value(*team, policy, partner), team->threads, policy.scaling_shortfall))
            return false;
    return true;
}

std::vector<ScalingPartners> scaling_partners(const std::vector<Figure*>& figures) {
    std::vector<ScalingPartners> partners(figures.size());
    for (std::size_t i = 0; i < figures.size(); ++i) {
        if (figures[i]->scaling_key.empty()) continue;
        for (const Figure* g : figures) {
            if (g == figures[i] || g->scaling_key != figures[i]->scaling_key) continue;
            if (figures[i]->threads > 1 && g->threads == 1) partners[i].single = g;
            if (figures[i]->threads == 1 && g->threads > 1) partners[i].teams.push_back(g);
        }
    }
    return partners;
}

// Waits (briefly sleeping, so a co-scheduled host can separate the vCPUs) until
// the check passes or the wait is spent. True when it passed.
bool wait_for_separate_cores(const CoreCheck& check, double wait_seconds, const TaskClock& clock) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        if (check()) return true;
        if (clock.stopped() || seconds_since(start) >= wait_seconds) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace

bool short_of_scaling(double team_value, double single_value, int threads, double shortfall) {
    return single_value > 0 && team_value < (1 - shortfall) * threads * single_value;
}

bool short_of_team(double single_value, double team_value, int threads, double shortfall) {
    return team_value > 0 && threads > 1 && single_value < (1 - shortfall) * team_value / threads;
}

void finish_figure(Figure& f, const BurstPolicy& policy) {
    const bool cores_shared = f.bursts.empty() && !f.rejected.empty();
    f.stats = Stats{};
    f.stats.rejected_bursts = static_cast<int>(f.rejected.size());
    f.value = summarize_bursts(cores_shared ? f.rejected : f.bursts, policy.quantile, policy.agreement, f.stats);
    if (cores_shared) f.stats.stable = false;
    f.stats.cores_shared = cores_shared;
}

void sample_figures_in_bursts(const std::vector<Figure*>& figures, const BurstPolicy& policy, TaskClock& clock) {
    if (figures.empty()) return;
    const double budget = clock.share_for(static_cast<int>(figures.size()));
    const auto calibration_start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < figures.size(); ++i) {
        Figure* f = figures[i];
        if (clock.stopped()) break;
        clock.announce(f->label, static_cast<int>(i));
        f->reps = calibrate_reps(f->timed_run, f->sample_seconds, &clock.stop_flag());
    }
    // After calibration, the budget left is shared by the rounds.
    const double sampling_budget = std::max(0.0, budget - seconds_since(calibration_start));
    const auto partners = scaling_partners(figures);
    const auto start = std::chrono::steady_clock::now();
    // The time left: the bursts still expected at the pace of the bursts so far,
    // within the budget.
    int bursts_done = 0;
    const auto remaining = [&] {
        // Of the figures that have had their minimum of bursts, the share still
        // unsettled (their best bursts disagree, as on a noisy host): so many of
        // those short of it are expected to go on towards the maximum too.
        int at_min = 0, unsettled_at_min = 0;
        for (std::size_t i = 0; i < figures.size(); ++i) {
            const Figure* f = figures[i];
            if (f->reps == 0 || static_cast<int>(f->bursts.size() + f->rejected.size()) < policy.min_bursts) continue;
            ++at_min;
            if (!settled(*f, partners[i], policy)) ++unsettled_at_min;
        }
        const double going_on = at_min > 0 ? static_cast<double>(unsettled_at_min) / at_min : 0.5;
        const int beyond_min = policy.max_bursts - policy.min_bursts;
        double expected = 0;
        for (std::size_t i = 0; i < figures.size(); ++i) {
            const Figure* f = figures[i];
            if (f->reps == 0 || settled(*f, partners[i], policy)) continue;
            const int had = static_cast<int>(f->bursts.size() + f->rejected.size());
            const int minimum = std::max(policy.min_bursts, f->min_bursts);
            expected += had < minimum ? minimum - had + going_on * beyond_min
                                                : 0.75 * (policy.max_bursts - had);
        }
        const double spent = seconds_since(start);
        const double pace = bursts_done > 0 ? spent / bursts_done : policy.burst_seconds * 1.5;
        return std::min(expected * pace, std::max(0.0, sampling_budget - spent));
    };
    for (int round = 0; !clock.stopped(); ++round) {
        bool any = false;
        for (std::size_t i = 0; i < figures.size(); ++i) {
            Figure* f = figures[i];
            if (clock.stopped() || f->reps == 0 || settled(*f, partners[i], policy)) continue;
            // After the first round, stop when the budget is spent.
            if (round > 0 && seconds_since(start) >= sampling_budget) continue;
            any = true;
            clock.announce(f->label + " (burst " + std::to_string(round + 1) + ")", static_cast<int>(i), remaining());
            const bool passed_before =
                !f->check || wait_for_separate_cores(f->check, policy.wait_for_cores_seconds, clock);
            for (int w = 0; w < f->warmup_samples && !clock.stopped(); ++w) f->timed_run(f->reps);
            std::vector<double> burst;
            const int samples = std::max(policy.samples_per_burst,
                                         static_cast<int>(std::lround(policy.burst_seconds / f->sample_seconds)));
            for (int sample = 0; sample < samples && !clock.stopped(); ++sample)
                burst.push_back(rate_g_per_s(f->work_per_rep, f->reps, f->timed_run(f->reps)));
            if (burst.empty()) break;
            if (f->verify)
                if (auto problem = f->verify(); !problem.empty())
                    throw std::runtime_error(fmt::format("{}: wrong results after timing: {}", f->label, problem));
            const bool passed_after = !f->check || f->check();
            (passed_before && passed_after ? f->bursts : f->rejected).push_back(std::move(burst));
            ++bursts_done;
        }
        if (!any) break;
    }
    for (Figure* f : figures) {
        finish_figure(*f, policy);
        clock.finish_one();
    }
    // A team that never reached what its cores give one by one, or one thread that never
    // reached its share of a team, did not meet a quiet moment: its figure is likely low,
    // and not called stable.
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const ScalingPartners& p = partners[i];
        if (p.single && short_of_scaling(figures[i]->value, p.single->value, figures[i]->threads,
                                         policy.scaling_shortfall))
            figures[i]->stats.stable = false;
        for (const Figure* team : p.teams)
            if (short_of_team(figures[i]->value, team->value, team->threads, policy.scaling_shortfall))
                figures[i]->stats.stable = false;
    }
}

double time_figure_once(Figure& f, const BurstPolicy& policy, const TaskClock& clock) {
    if (f.reps == 0 || clock.stopped()) return 0;
    if (f.check) wait_for_separate_cores(f.check, policy.wait_for_cores_seconds, clock);
    for (int w = 0; w < f.warmup_samples && !clock.stopped(); ++w) f.timed_run(f.reps);
    std::vector<double> burst;
    const int samples =
        std::max(policy.samples_per_burst, static_cast<int>(std::lround(policy.burst_seconds / f.sample_seconds)));
    for (int sample = 0; sample < samples && !clock.stopped(); ++sample)
        burst.push_back(rate_g_per_s(f.work_per_rep, f.reps, f.timed_run(f.reps)));
    if (burst.empty()) return 0;
    if (f.verify)
        if (auto problem = f.verify(); !problem.empty())
            throw std::runtime_error(fmt::format("{}: wrong results after timing: {}", f.label, problem));
    Stats scratch;
    return summarize_bursts({burst}, policy.quantile, policy.agreement, scratch);
}

void sample_figures_in_bursts(std::vector<Figure>& figures, const BurstPolicy& policy, const CoreCheck& check,
                              TaskClock& clock) {
    std::vector<Figure*> all;
    for (auto& f : figures) {
        f.check = check;
        all.push_back(&f);
    }
    sample_figures_in_bursts(all, policy, clock);
}

} // namespace roofline
