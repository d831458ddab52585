#include "bench/burst_sampler.hpp"
#include "bench/core_sharing_canary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>

using namespace roofline;

namespace {

// A figure on a fake clock: each repetition takes `seconds_per_rep(call)`.
Figure fake_figure(std::function<double(int)> seconds_per_rep) {
    auto calls = std::make_shared<int>(0);
    Figure f;
    f.label = "fake";
    f.work_per_rep = 1e6;  // units per repetition
    f.sample_seconds = 0.01;
    f.timed_run = [calls, seconds_per_rep](std::uint64_t reps) {
        return static_cast<double>(reps) * seconds_per_rep((*calls)++);
    };
    return f;
}

struct Harness {
    std::atomic<bool> stop{false};
    ProgressSink sink;
    TaskClock clock{sink, stop, 4, 100.0};
};

} // namespace

TEST(CoreSharingCanary, Decision) {
    EXPECT_FALSE(threads_share_cores(1.0, 1.0));
    EXPECT_FALSE(threads_share_cores(1.0, 1.25));  // an all-core turbo step
    EXPECT_TRUE(threads_share_cores(1.0, 2.0));    // two threads on one core
    EXPECT_FALSE(threads_share_cores(0.0, 2.0));   // no reference: no verdict
}

TEST(BurstSampler, SteadyFigureSettlesAtTheMinimum) {
    Harness h;
    std::vector<Figure> figures{fake_figure([](int) { return 1e-6; })};  // 1e6 units per us = 1000 G/s
    BurstPolicy p;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    EXPECT_NEAR(figures[0].value, 1000, 1e-6);
    EXPECT_EQ(static_cast<int>(figures[0].bursts.size()), p.min_bursts);
    EXPECT_TRUE(figures[0].stats.stable);
    EXPECT_EQ(figures[0].stats.rejected_bursts, 0);
}

// Every other burst is slowed 2x by a co-scheduled core that the check sees:
// those bursts are set aside and the figure is the undisturbed rate.
TEST(BurstSampler, RejectsBurstsTheCoreCheckFails) {
    Harness h;
    int check_calls = 0;
    bool shared = false;
    auto check = [&] {
        ++check_calls;
        shared = (check_calls % 6 == 3 || check_calls % 6 == 4);  // now and then the cores are shared
        return !shared;
    };
    std::vector<Figure> figures{fake_figure([&](int) { return shared ? 2e-6 : 1e-6; })};
    BurstPolicy p;
    p.wait_for_cores_seconds = 0;
    sample_figures_in_bursts(figures, p, check, h.clock);
    EXPECT_NEAR(figures[0].value, 1000, 1e-6);
    EXPECT_GT(figures[0].stats.rejected_bursts, 0);
    EXPECT_FALSE(figures[0].stats.cores_shared);
    bool saw_slow = false;  // a burst ran while the cores were shared, and was set aside
    for (const auto& b : figures[0].rejected)
        for (double r : b) saw_slow |= r < 600;
    EXPECT_TRUE(saw_slow);
}

TEST(BurstSampler, FigureFromSharedCoresIsFlagged) {
    Harness h;
    std::vector<Figure> figures{fake_figure([](int) { return 2e-6; })};
    BurstPolicy p;
    p.wait_for_cores_seconds = 0;
    p.max_bursts = 4;
    sample_figures_in_bursts(figures, p, [] { return false; }, h.clock);
    EXPECT_TRUE(figures[0].stats.cores_shared);
    EXPECT_FALSE(figures[0].stats.stable);
    EXPECT_NEAR(figures[0].value, 500, 1e-6);
}

// Bursts of different figures are interleaved: figure B's first burst comes
// before figure A's second.
TEST(BurstSampler, InterleavesFigures) {
    Harness h;
    std::vector<std::string> order;
    auto make = [&](const std::string& name) {
        Figure f = fake_figure([](int) { return 1e-6; });
        f.warmup_samples = 0;
        auto inner = f.timed_run;
        f.timed_run = [&order, name, inner](std::uint64_t reps) { order.push_back(name); return inner(reps); };
        return f;
    };
    std::vector<Figure> figures{make("A"), make("B")};
    BurstPolicy p;
    p.samples_per_burst = 1;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    // After calibration (A's then B's runs), sampling alternates A, B, A, B...
    ASSERT_GE(order.size(), 4u);
    const std::vector<std::string> tail(order.end() - 4, order.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"A", "B", "A", "B"}));
}

TEST(BurstSampler, StopFlagKeepsWhatWasMeasured) {
    Harness h;
    std::vector<Figure> figures{fake_figure([&](int call) {
        if (call > 12) h.stop = true;
        return 1e-6;
    })};
    sample_figures_in_bursts(figures, BurstPolicy{}, {}, h.clock);
    EXPECT_GT(figures[0].value, 0);
}

TEST(CoreSharingCanary, SlowedTeamDecision) {
    EXPECT_FALSE(team_slowed(1.0, 1.0));
    EXPECT_FALSE(team_slowed(1.05, 1.0));   // noise
    EXPECT_TRUE(team_slowed(1.3, 1.0));     // a quarter of a core lent elsewhere
    EXPECT_FALSE(team_slowed(1.3, 0.0));    // no best yet: no verdict
}

// Each burst starts with untimed warm-up samples (other figures evicted the
// data): every burst makes warmup_samples + samples full-length calls.
TEST(BurstSampler, WarmsUpBeforeEachBurst) {
    for (int warmups : {0, 1, 4}) {
        Harness h;
        int full_calls = 0;
        Figure f = fake_figure([](int) { return 1e-6; });
        f.warmup_samples = warmups;
        auto inner = f.timed_run;
        f.timed_run = [&full_calls, inner](std::uint64_t reps) {
            full_calls += reps == 10000;  // 0.01 s samples of 1 us repetitions
            return inner(reps);
        };
        std::vector<Figure> figures{f};
        BurstPolicy p;
        sample_figures_in_bursts(figures, p, {}, h.clock);
        ASSERT_EQ(figures[0].reps, 10000u);
        EXPECT_EQ(full_calls, static_cast<int>(figures[0].bursts.size()) * (warmups + p.samples_per_burst));
    }
}

// One more burst of a calibrated figure, for the limit guard: its warm-up and samples run, its
// rate is that burst's (here the kernel now runs at 1100 G/s, where its sampled value was 1000),
// and its statistics are left as they were; nothing runs for a figure never calibrated.
TEST(BurstSampler, TimesAFigureOnceMoreOutsideItsStatistics) {
    Harness h;
    bool faster = false;
    Figure f = fake_figure([&faster](int) { return faster ? 1e-6 / 1.1 : 1e-6; });
    BurstPolicy p;
    EXPECT_EQ(time_figure_once(f, p, h.clock), 0.0);  // not calibrated: 0, nothing run
    std::vector<Figure> figures{f};
    sample_figures_in_bursts(figures, p, {}, h.clock);
    const auto bursts = figures[0].bursts.size();
    faster = true;
    EXPECT_NEAR(time_figure_once(figures[0], p, h.clock), 1100, 1e-6);
    EXPECT_EQ(figures[0].bursts.size(), bursts);
    EXPECT_NEAR(figures[0].value, 1000, 1e-6);
    h.stop = true;
    EXPECT_EQ(time_figure_once(figures[0], p, h.clock), 0.0);  // stopped: not timed
}

namespace {
// A one-thread figure at 1000 G/s and a two-thread one of the same per-core
// resource whose rate is `team_rate(call)`.
std::vector<Figure> scaling_pair(std::function<double(int)> team_rate) {
    Figure one = fake_figure([](int) { return 1e-6; });
    one.scaling_key = "compute k";
    Figure team = fake_figure([team_rate](int call) { return 1e6 / (team_rate(call) * 1e9); });
    team.scaling_key = "compute k";
    team.threads = 2;
    return {one, team};
}

// The same pair with the one-thread figure's rate `single_rate(call)` G/s, the team's 2000.
std::vector<Figure> single_beside_a_team_of_2000(std::function<double(int)> single_rate) {
    auto figures = scaling_pair([](int) { return 2000.0; });
    figures[0] = fake_figure([single_rate](int call) { return 1e6 / (single_rate(call) * 1e9); });
    figures[0].scaling_key = "compute k";
    return figures;
}
} // namespace

// The team's cores were never quiet together during its first bursts (they
// agree with each other at 1500): sampling goes on until it scales.
TEST(BurstSampler, TeamShortOfItsScalingKeepsSampling) {
    Harness h;
    auto figures = scaling_pair([](int call) { return call < 45 ? 1500.0 : 2000.0; });
    BurstPolicy p;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    EXPECT_NEAR(figures[1].value, 2000, 1e-6);
    EXPECT_GT(static_cast<int>(figures[1].bursts.size()), p.min_bursts);
    EXPECT_EQ(static_cast<int>(figures[0].bursts.size()), p.min_bursts);
}

// A team that truly does not scale (a resource the threads share) is sampled
// to max_bursts and keeps what it measured: the expectation never sets a value.
TEST(BurstSampler, TeamThatDoesNotScaleKeepsItsValue) {
    Harness h;
    auto figures = scaling_pair([](int) { return 1500.0; });
    BurstPolicy p;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    EXPECT_NEAR(figures[1].value, 1500, 1e-6);
    EXPECT_EQ(static_cast<int>(figures[1].bursts.size()), p.max_bursts);
    // Without a key, the same team settles at the minimum.
    Harness h2;
    auto unkeyed = scaling_pair([](int) { return 1500.0; });
    unkeyed[1].scaling_key.clear();
    sample_figures_in_bursts(unkeyed, p, {}, h2.clock);
    EXPECT_EQ(static_cast<int>(unkeyed[1].bursts.size()), p.min_bursts);
}

// A team that never scaled is flagged as not stable, its value kept.
TEST(BurstSampler, TeamShortOfItsScalingIsNotStable) {
    Harness h;
    auto figures = scaling_pair([](int) { return 1500.0; });
    sample_figures_in_bursts(figures, BurstPolicy{}, {}, h.clock);
    EXPECT_FALSE(figures[1].stats.stable);
    EXPECT_TRUE(figures[0].stats.stable);
}

// The one thread's core was not quiet during its first bursts (they agree with each other
// at 400, under half the team's 2000 / 2): sampling goes on until it reaches its share.
TEST(BurstSampler, OneThreadUnderItsShareOfTheTeamKeepsSampling) {
    Harness h;
    auto figures = single_beside_a_team_of_2000([](int call) { return call < 40 ? 400.0 : 1000.0; });
    BurstPolicy p;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    EXPECT_NEAR(figures[0].value, 1000, 1e-6);
    EXPECT_GT(static_cast<int>(figures[0].bursts.size()), p.min_bursts);
    EXPECT_TRUE(figures[0].stats.stable);
    EXPECT_EQ(static_cast<int>(figures[1].bursts.size()), p.min_bursts);
}

// One thread that stays under its share is sampled to max_bursts, keeps what it measured and
// is not called stable; without a scaling key nothing is expected of it.
TEST(BurstSampler, OneThreadThatStaysUnderItsShareIsNotStable) {
    Harness h;
    auto figures = single_beside_a_team_of_2000([](int) { return 400.0; });
    BurstPolicy p;
    sample_figures_in_bursts(figures, p, {}, h.clock);
    EXPECT_NEAR(figures[0].value, 400, 1e-6);
    EXPECT_EQ(static_cast<int>(figures[0].bursts.size()), p.max_bursts);
    EXPECT_FALSE(figures[0].stats.stable);
    Harness h2;
    auto unkeyed = single_beside_a_team_of_2000([](int) { return 400.0; });
    unkeyed[0].scaling_key.clear();
    sample_figures_in_bursts(unkeyed, p, {}, h2.clock);
    EXPECT_EQ(static_cast<int>(unkeyed[0].bursts.size()), p.min_bursts);
    EXPECT_TRUE(unkeyed[0].stats.stable);
}

TEST(BurstSampler, ShortOfTeamDecision) {
    EXPECT_TRUE(short_of_team(16.3, 117.3, 2, 0.05));   // 0.28x its share
    EXPECT_FALSE(short_of_team(57, 117.3, 2, 0.05));    // 0.97x: within 5%
    EXPECT_FALSE(short_of_team(70, 117.3, 2, 0.05));    // above its share: one core's boost
    EXPECT_FALSE(short_of_team(10, 0, 2, 0.05));        // no team figure: no verdict
    EXPECT_FALSE(short_of_team(10, 100, 1, 0.05));      // not a team
}

TEST(BurstSampler, ShortOfScalingDecision) {
    EXPECT_TRUE(short_of_scaling(340, 206, 2, 0.05));   // 1.65x on two cores
    EXPECT_FALSE(short_of_scaling(400, 206, 2, 0.05));  // 1.94x: within 5%
    EXPECT_FALSE(short_of_scaling(100, 0, 2, 0.05));    // no one-thread figure: no verdict
}

// Figures sampled together finish together: while their bursts interleave, the
// progress counter follows the figure being sampled (it stayed at the first one).
TEST(BurstSampler, ProgressFollowsTheInterleavedFigure) {
    std::atomic<bool> stop{false};
    std::vector<std::pair<std::string, int>> events;
    ProgressSink sink = [&events](const ProgressEvent& e) { events.emplace_back(e.what, e.done); };
    TaskClock clock{sink, stop, 5, 100.0};
    clock.finish_one();  // one figure of an earlier group is done
    auto make = [](const std::string& label) {
        Figure f = fake_figure([](int) { return 1e-6; });
        f.label = label;
        f.warmup_samples = 0;
        return f;
    };
    std::vector<Figure> figures{make("A"), make("B"), make("C")};
    BurstPolicy p;
    p.samples_per_burst = 1;
    sample_figures_in_bursts(figures, p, {}, clock);
    ASSERT_FALSE(events.empty());
    for (const auto& [what, done] : events) {
        const int expected = 1 + (what[0] - 'A');  // after the one done before
        EXPECT_EQ(done, expected) << what;
    }
    EXPECT_TRUE(std::any_of(events.begin(), events.end(), [](const auto& e) { return e.first.find("burst") != std::string::npos; }));
}
