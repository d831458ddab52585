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
