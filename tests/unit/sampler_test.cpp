#include "bench/sampler.hpp"

#include <gtest/gtest.h>

using namespace roofline;

// A fake clock: each repetition "takes" a fixed time, so rates are exact.
TEST(Sampler, CalibratesAndComputesTheRate) {
    std::uint64_t last_reps = 0;
    auto timed = [&](std::uint64_t reps) {
        last_reps = reps;
        return static_cast<double>(reps) * 1e-6;  // 1 us per repetition
    };
    SamplePolicy p;
    p.sample_seconds = 0.01;
    const auto r = sample_rate(timed, 2000.0, p);  // 2000 units per 1 us = 2 G/s
    EXPECT_NEAR(r.stats.median, 2.0, 1e-9);
    EXPECT_EQ(r.stats.runs, p.min_runs);  // perfectly stable: stops at the minimum
    EXPECT_NEAR(static_cast<double>(r.reps), 10000, 1);
    EXPECT_TRUE(r.stats.stable);
}

TEST(Sampler, NoisyFigureStopsAtMaxRunsAndIsFlagged) {
    int call = 0;
    auto timed = [&](std::uint64_t reps) { return static_cast<double>(reps) * 1e-6 * (++call % 2 ? 1.0 : 1.5); };
    SamplePolicy p;
    p.max_runs = 12;
    p.budget_seconds = 1e9;
    const auto r = sample_rate(timed, 1000.0, p);
    EXPECT_EQ(r.stats.runs, 12);
    EXPECT_FALSE(r.stats.stable);
}

TEST(Sampler, StopFlagEndsSampling) {
    std::atomic<bool> stop{true};
    auto timed = [](std::uint64_t reps) { return static_cast<double>(reps) * 1e-3; };
    const auto r = sample_rate(timed, 1.0, SamplePolicy{}, &stop);
    EXPECT_TRUE(r.interrupted);
    EXPECT_TRUE(r.rates.empty());
}

// A slow spell of the host covers the first calls: run one rival after the
// other and A (timed first) would look slower than B although it is faster;
// interleaved, both meet the spell and the quiet time alike.
TEST(Sampler, InterleavedRivalsMeetTheSameConditions) {
    int calls = 0;
    std::vector<std::string> order;
    auto rival = [&](const std::string& name, double seconds_per_rep) {
        return roofline::Rival{[&, name, seconds_per_rep](std::uint64_t reps) {
                                   order.push_back(name);
                                   const double slow = ++calls <= 12 ? 3.0 : 1.0;  // the spell: calibration and the first rounds
                                   return static_cast<double>(reps) * seconds_per_rep * slow;
                               },
                               1e6};
    };
    const auto rates = roofline::interleaved_best_rates({rival("A", 1e-6), rival("B", 1.25e-6)}, 0.01, 6);
    ASSERT_EQ(rates.size(), 2u);
    EXPECT_NEAR(rates[0], 1000, 1e-6);  // 1e6 units per 1e-6 s
    EXPECT_NEAR(rates[1], 800, 1e-6);
    const std::vector<std::string> tail(order.end() - 4, order.end());
    EXPECT_EQ(tail, (std::vector<std::string>{"A", "B", "A", "B"}));
}
