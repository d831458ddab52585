#include "bench/sampler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

using namespace roofline;

// A fake clock: each repetition "takes" a fixed time, so rates are exact.
TEST(Sampler, CalibratesToTheSampleLength) {
    auto timed = [](std::uint64_t reps) { return static_cast<double>(reps) * 1e-6; };  // 1 us per repetition
    EXPECT_NEAR(static_cast<double>(calibrate_reps(timed, 0.01)), 10000, 1);
    EXPECT_DOUBLE_EQ(rate_g_per_s(2000.0, 10000, 0.01), 2.0);  // 2000 units x 1e4 in 10 ms = 2 G/s
}

TEST(Sampler, CalibrationHonoursTheStopFlag) {
    std::atomic<bool> stop{true};
    int calls = 0;
    auto timed = [&](std::uint64_t) { ++calls; return 0.0; };  // never long enough
    calibrate_reps(timed, 0.01, &stop);
    EXPECT_LE(calls, 1);
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
