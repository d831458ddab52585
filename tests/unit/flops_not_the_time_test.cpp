// A point whose FLOPs run slower than one dependent chain of the slowest floating-point
// instructions (a divide or square root every 32 cycles a thread, at the measured clock) is not
// spending its time on them: it is told so (flops_not_the_time), and not told to vectorize, widen
// its vectors or lift a compute ceiling. An audit's pointer chase (one add per dependent load,
// 0.0103 GFLOP/s) was told "vectorize" as its only step.
#include "advice_fixture.hpp"
#include "render/advice_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofline;
using advice_fixture::all_advice;
using advice_fixture::has;

namespace {

// 4e6 scalar adds, one per dependent load of a 64-byte line from DRAM, in `seconds`.
Point pointer_chase(double seconds = 0.389) {
    Point p;
    p.name = "chase";
    p.work = 4e6;
    p.bytes = {{"L1", 3.2e7}, {"DRAM", 2.56e8}};
    p.seconds = seconds;
    p.details = {{"flops_by_width_scalar", 4e6}, {"flops_f64_add", 4e6}, {"bytes_loaded", 3.2e7},
                 {"bytes_stored", 0}};
    return p;
}

bool lifts_a_compute_ceiling(const Analysis& a) {
    return std::any_of(a.next_steps.begin(), a.next_steps.end(), [](const NextStep& s) {
        return s.kind == NextStep::Kind::lift_ceiling && s.ceiling.kind == CeilingKind::compute;
    });
}

} // namespace

TEST(FlopsNotTheTime, APointerChaseIsNotToldToVectorize) {
    const auto r = advice_fixture::scalar_ceilings_machine(512);  // 3.7 GHz: one slow chain 0.116 GFLOP/s
    const auto a = analyze(r, pointer_chase(), View::carm);
    ASSERT_TRUE(a.memory_bound);
    EXPECT_EQ(a.binding_level, "DRAM");
    ASSERT_FALSE(a.next_steps.empty());
    EXPECT_EQ(a.next_steps.front().kind, NextStep::Kind::flops_not_the_time);
    EXPECT_NEAR(a.next_steps.front().cap, 3.7 / 32, 1e-12);
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(has(a, NextStep::Kind::widen_vectors));
    EXPECT_TRUE(has(a, NextStep::Kind::raise_intensity));  // DRAM binds: fewer bytes still help
    const auto text = all_advice(r, a);
    EXPECT_NE(text.find("0.116 GFLOP/s"), std::string::npos) << text;
    EXPECT_NE(text.find("loads that wait on loads"), std::string::npos) << text;
    EXPECT_EQ(text.find("vectorize with"), std::string::npos) << text;
    EXPECT_STREQ(next_step_kind_name(NextStep::Kind::flops_not_the_time), "flops_not_the_time");
}

TEST(FlopsNotTheTime, AComputeBoundPointWithFewFlopsIsNotToldToLiftComputeCeilings) {
    // 1e6 FLOPs in a second and hardly any bytes: compute-bound under "no ILP" (14.8) and
    // "scalar (no SIMD)" (7.4), yet a thousand times slower than one slow chain.
    const auto r = advice_fixture::scalar_ceilings_machine();
    Point p = pointer_chase(1.0);
    p.work = 1e6;
    p.bytes = {{"L1", 1e3}};
    p.details = {{"flops_by_width_scalar", 1e6}, {"flops_f64_add", 1e6}, {"bytes_loaded", 1e3}, {"bytes_stored", 0}};
    const auto a = analyze(r, p, View::carm);
    ASSERT_FALSE(a.memory_bound);
    EXPECT_TRUE(has(a, NextStep::Kind::flops_not_the_time));
    EXPECT_FALSE(has(a, NextStep::Kind::vectorize));
    EXPECT_FALSE(lifts_a_compute_ceiling(a)) << all_advice(r, a);
    EXPECT_TRUE(has(a, NextStep::Kind::reach_compute));  // the roof is still what the model allows
}

TEST(FlopsNotTheTime, FasterScalarCodeIsStillToldToVectorize) {
    // The same chase at 0.133 GFLOP/s (0.03 s, 28% of the DRAM roof): FLOPs that fast may be its time.
    const auto r = advice_fixture::scalar_ceilings_machine();
    const auto a = analyze(r, pointer_chase(0.03), View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::flops_not_the_time));
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize));
}

TEST(FlopsNotTheTime, NothingIsClaimedWithoutTheClock) {
    auto r = advice_fixture::scalar_ceilings_machine();
    r.clock_ghz = 0;  // a spec sheet: no measured clock
    const auto a = analyze(r, pointer_chase(), View::carm);
    EXPECT_FALSE(has(a, NextStep::Kind::flops_not_the_time));
    EXPECT_TRUE(has(a, NextStep::Kind::vectorize));
}

TEST(FlopsNotTheTime, ThreadsBeyondTheHardwareThreadsRunNoChainsOfTheirOwn) {
    // One divide chain on each of 8 OpenMP threads of a 2-CPU machine (an audit's, 4e6 divides in
    // 14.8 ms, 0.27 GFLOP/s): 2 chains run at once, at most 0.231 GFLOP/s at 32 cycles a divide, so
    // its FLOPs may well be its time. Taken as 8 chains (0.925) it was told they were not.
    auto r = advice_fixture::scalar_ceilings_machine();
    r.threads = 2;
    r.hardware_threads = 2;
    Point p;
    p.name = "divide";
    p.work = 4e6;
    p.bytes = {{"L1", 5e4}};
    p.seconds = 0.0148;
    p.threads = 8;
    p.details = {{"flops_by_width_scalar", 4e6}, {"flops_f64_div", 4e6}, {"bytes_loaded", 5e4}, {"bytes_stored", 0}};
    EXPECT_FALSE(has(analyze(r, p, View::carm), NextStep::Kind::flops_not_the_time));
    // Where the model does not know its hardware threads, every thread is taken to run its own.
    r.hardware_threads = 0;
    const auto a = analyze(r, p, View::carm);
    ASSERT_TRUE(has(a, NextStep::Kind::flops_not_the_time));
    // Twice as slow on those 2 CPUs (0.135 GFLOP/s): below what 2 chains allow, told so.
    r.hardware_threads = 2;
    p.seconds = 0.0296;
    const auto slow = analyze(r, p, View::carm);
    ASSERT_TRUE(has(slow, NextStep::Kind::flops_not_the_time));
    const auto step = std::find_if(slow.next_steps.begin(), slow.next_steps.end(),
                                   [](const NextStep& s) { return s.kind == NextStep::Kind::flops_not_the_time; });
    EXPECT_NEAR(step->cap, 3.7 / 32 * 2, 1e-12);
}

TEST(FlopsNotTheTime, ThreadsBeyondTheCpusTheRunWasAllowedRunNoChainsOfTheirOwn) {
    // The same divide chain on 8 threads of an 8-CPU machine, run under `taskset -c 0` (or a
    // cgroup quota of 1 CPU): measure records 1 CPU allowed, and one chain runs at a time, at most
    // 0.116 GFLOP/s at 32 cycles a divide. At 0.135 GFLOP/s its FLOPs may well be its time.
    auto r = advice_fixture::scalar_ceilings_machine();
    r.threads = 8;
    r.hardware_threads = 8;
    Point p;
    p.name = "divide";
    p.work = 4e6;
    p.bytes = {{"L1", 5e4}};
    p.seconds = 0.0296;
    p.threads = 8;
    p.details = {{"flops_by_width_scalar", 4e6}, {"flops_f64_div", 4e6}, {"bytes_loaded", 5e4}, {"bytes_stored", 0}};
    // Without the CPUs allowed, 8 chains (0.925 GFLOP/s): told its FLOPs are not its time.
    ASSERT_TRUE(has(analyze(r, p, View::carm), NextStep::Kind::flops_not_the_time));
    p.details[kCpusAllowed] = 1;
    EXPECT_FALSE(has(analyze(r, p, View::carm), NextStep::Kind::flops_not_the_time));
    // Twice as slow again (0.068 GFLOP/s): below one chain, told so against 1 thread's cap.
    p.seconds = 0.0592;
    const auto slow = analyze(r, p, View::carm);
    ASSERT_TRUE(has(slow, NextStep::Kind::flops_not_the_time));
    const auto step = std::find_if(slow.next_steps.begin(), slow.next_steps.end(),
                                   [](const NextStep& s) { return s.kind == NextStep::Kind::flops_not_the_time; });
    EXPECT_NEAR(step->cap, 3.7 / 32, 1e-12);
    // More CPUs allowed than the machine's hardware threads: the hardware threads still cap it.
    p.details[kCpusAllowed] = 64;
    const auto wide = analyze(r, p, View::carm);
    const auto wide_step = std::find_if(wide.next_steps.begin(), wide.next_steps.end(),
                                        [](const NextStep& s) { return s.kind == NextStep::Kind::flops_not_the_time; });
    ASSERT_NE(wide_step, wide.next_steps.end());
    EXPECT_NEAR(wide_step->cap, 3.7 / 32 * 8, 1e-12);
}
