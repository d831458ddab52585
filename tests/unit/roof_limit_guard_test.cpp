#include "bench/roof_limit_guard.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace roofline;

namespace {

// A 1-thread FMA roof as a Zen 4 guest once refused it: 87.7 GFLOP/s against 84.3 at the
// 3.51 GHz read before the run (24 FLOPs a cycle), 1.04x the limit.
RoofLimitCase fma_roof(double gflops = 87.7) {
    return {"dp 512-bit fma, 1 thread", "GFLOP/s", gflops, 84.3, 3.51, "measured before the run"};
}

// A fake core clock: the readings it gives, in order (the last one again when they run out),
// counting the reads; and a fake kernel whose re-timing gives `rate` and is counted.
struct Fakes {
    std::vector<double> clocks;
    double rate = 0;
    int reads = 0;
    int retimes = 0;
    RoofLimitProbe probe() {
        return {[this] {
                    const double ghz = clocks.empty() ? 0 : clocks[std::min<std::size_t>(reads, clocks.size() - 1)];
                    ++reads;
                    return ghz;
                },
                [this] {
                    ++retimes;
                    return rate;
                },
                ""};
    }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

// Within its limit (or the limit unknown): nothing is read, nothing re-timed.
TEST(RoofLimitGuard, WithinTheLimitNothingIsReadAgain) {
    Fakes f{{4.0}, 90};
    auto v = guard_roof_limit(fma_roof(86.0), f.probe());  // 1.02x: within the clock's 3%
    EXPECT_TRUE(v.accepted);
    EXPECT_FALSE(v.remeasured);
    EXPECT_EQ(f.reads + f.retimes, 0);
    EXPECT_DOUBLE_EQ(v.limit, 84.3);
    auto unknown = fma_roof();
    unknown.limit = 0;
    EXPECT_TRUE(guard_roof_limit(unknown, f.probe()).accepted);
    EXPECT_EQ(f.reads + f.retimes, 0);
}

// Refused at the clock before the run, accepted once the clock read right then (3.66 GHz) and
// after one more burst of its kernel (3.65 GHz, 88.0 GFLOP/s) explains it: the limit is then
// 24 FLOPs a cycle x 3.66 GHz, and the note names both readings and the kernel's rate.
TEST(RoofLimitGuard, AcceptedWhenTheClockReadNextToItExplainsIt) {
    Fakes f{{3.66, 3.65}, 88.0};
    const auto v = guard_roof_limit(fma_roof(), f.probe());
    EXPECT_TRUE(v.accepted) << v.refusal;
    EXPECT_TRUE(v.remeasured);
    EXPECT_EQ(f.reads, 2);
    EXPECT_EQ(f.retimes, 1);
    EXPECT_DOUBLE_EQ(v.clock_ghz, 3.66);
    EXPECT_NEAR(v.limit, 84.3 / 3.51 * 3.66, 1e-9);
    EXPECT_LE(87.7, 1.03 * v.limit);
    EXPECT_DOUBLE_EQ(v.retimed, 88.0);
    EXPECT_EQ(v.clocks_read, (std::vector<double>{3.66, 3.65}));
    EXPECT_EQ(v.clock_note,
              "re-measured next to the roof: 87.7 GFLOP/s came out 1.04x its limit (84.3) at the 3.51 GHz measured "
              "before the run; the clock read 3.66 GHz right then and 3.65 GHz after one more burst of its kernel "
              "(88.0 GFLOP/s): the limit is 87.9 at 3.66 GHz, the higher of the two");
    EXPECT_TRUE(v.refusal.empty());
}

// The clock read right then no higher (3.50 GHz): a moved clock does not explain the roof, which
// is refused without timing the kernel again.
TEST(RoofLimitGuard, RefusedWhenTheClockReadAgainDoesNotExplainIt) {
    Fakes f{{3.50}, 88.0};
    const auto v = guard_roof_limit(fma_roof(), f.probe());
    EXPECT_FALSE(v.accepted);
    EXPECT_EQ(f.reads, 1);
    EXPECT_EQ(f.retimes, 0);
    EXPECT_DOUBLE_EQ(v.limit, 84.3);
    EXPECT_TRUE(has(v.refusal, "dp 512-bit fma, 1 thread: 87.7 GFLOP/s is 1.04x what the core allows (84.3 at the "
                               "3.51 GHz measured before the run); the clock read again right then, 3.50 GHz, allows "
                               "84.1, so a moved clock does not explain it"))
        << v.refusal;
    EXPECT_TRUE(has(v.refusal, "refused"));
    // A higher clock, but not by enough: 3.53 GHz allows 84.8 (x1.03 = 87.3, under 87.7).
    Fakes g{{3.53}, 88.0};
    EXPECT_FALSE(guard_roof_limit(fma_roof(), g.probe()).accepted);
    // A clock that could not be read is no explanation either.
    Fakes none{{}, 88.0};
    const auto unread = guard_roof_limit(fma_roof(), none.probe());
    EXPECT_FALSE(unread.accepted);
    EXPECT_TRUE(has(unread.refusal, "the clock could not be read again")) << unread.refusal;
}

// A clock reading that explains the roof is not enough when the kernel, timed once more next to
// it, runs above that clock's limit too: its work was not all done (a clock read high by chance
// would otherwise excuse a broken kernel). Still refused.
TEST(RoofLimitGuard, RefusedWhenTheKernelTimedAgainIsStillAbove) {
    Fakes f{{3.66, 3.64}, 120.0};
    const auto v = guard_roof_limit(fma_roof(), f.probe());
    EXPECT_FALSE(v.accepted);
    EXPECT_EQ(f.retimes, 1);
    EXPECT_TRUE(has(v.refusal, "whose limit at 3.66 GHz is 87.9: the kernel timed again is still above it; refused"))
        << v.refusal;
    // And a kernel that could not be timed again (the run stopped) leaves the roof refused.
    Fakes stopped{{3.66, 3.66}, 0};
    const auto s = guard_roof_limit(fma_roof(), stopped.probe());
    EXPECT_FALSE(s.accepted);
    EXPECT_TRUE(has(s.refusal, "could not be timed again")) << s.refusal;
}

// The clock fell back after the re-timing (3.66 then 3.40): the limit rests on the higher of the
// two readings next to the kernel; a roof above even the higher clock read stays refused (no
// wider tolerance).
TEST(RoofLimitGuard, TheHigherReadingNextToTheKernelSetsTheLimit) {
    Fakes f{{3.66, 3.40}, 85.0};
    const auto v = guard_roof_limit(fma_roof(), f.probe());
    EXPECT_TRUE(v.accepted) << v.refusal;
    EXPECT_DOUBLE_EQ(v.clock_ghz, 3.66);
    Fakes high{{3.62, 3.62}, 88.0};  // explains 87.7 (limit 86.9, x1.03 = 89.6), not 92
    EXPECT_FALSE(guard_roof_limit(fma_roof(92.0), high.probe()).accepted);
}

// The run's readings more than 3% apart give one line naming the lowest and highest and when
// they were taken; within 3%, nothing.
TEST(RoofLimitGuard, ClockSpreadIsSaidPastThreePercent) {
    const std::string w = clock_spread_warning({{3.51, "before the run"},
                                                {3.66, "next to dp 512-bit fma, 1 thread"},
                                                {3.52, "after the run"}});
    EXPECT_TRUE(has(w, "the core clock moved during the run: 3 readings from 3.51 GHz (before the run) to 3.66 GHz "
                       "(next to dp 512-bit fma, 1 thread), 4.3% apart: the roofs were measured at different clocks"))
        << w;
    EXPECT_EQ(clock_spread_warning({{3.51, "before the run"}, {3.60, "next to X"}, {3.55, "after the run"}}), "");
    EXPECT_EQ(clock_spread_warning({}), "");
}

// A team's roof: the probe reads every core of the team at once and gives their mean, and the
// texts say so, so a reader knows the limit is not core 0's clock alone.
TEST(RoofLimitGuard, ATeamsReadingSaysItIsEveryCoreAtOnce) {
    RoofLimitCase team{"dp 512-bit fma, 2 threads", "GFLOP/s", 175.4, 168.6, 3.51, "measured before the run"};
    Fakes f{{3.66, 3.65}, 176.0};
    auto probe = f.probe();
    probe.reading_how = " (on each of its 2 cores at once, their mean)";
    const auto kept = guard_roof_limit(team, probe);
    EXPECT_TRUE(kept.accepted) << kept.refusal;
    EXPECT_TRUE(has(kept.clock_note, "the clock read (on each of its 2 cores at once, their mean) 3.66 GHz right then"))
        << kept.clock_note;
    Fakes low{{3.50}, 176.0};
    auto low_probe = low.probe();
    low_probe.reading_how = probe.reading_how;
    const auto refused = guard_roof_limit(team, low_probe);
    EXPECT_FALSE(refused.accepted);
    EXPECT_TRUE(has(refused.refusal,
                    "the clock read again right then (on each of its 2 cores at once, their mean), 3.50 GHz, allows"))
        << refused.refusal;
}
