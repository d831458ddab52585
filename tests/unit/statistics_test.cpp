#include "core/statistics.hpp"

#include <gtest/gtest.h>

using namespace roofline;

TEST(Statistics, MedianOddAndEven) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0);
    EXPECT_DOUBLE_EQ(median({7}), 7);
}

TEST(Statistics, CoefficientOfVariation) {
    EXPECT_DOUBLE_EQ(coefficient_of_variation({5, 5, 5}), 0);
    // mean 2, sample stddev 1 -> 0.5
    EXPECT_NEAR(coefficient_of_variation({1, 2, 3}), 0.5, 1e-12);
    EXPECT_DOUBLE_EQ(coefficient_of_variation({1}), 0);
}

TEST(Statistics, SummarizeFillsEveryField) {
    const Stats s = summarize({10, 12, 11, 30}, 0.02);
    EXPECT_DOUBLE_EQ(s.median, 11.5);
    EXPECT_DOUBLE_EQ(s.min, 10);
    EXPECT_DOUBLE_EQ(s.max, 30);
    EXPECT_EQ(s.runs, 4);
    EXPECT_GT(s.cv, 0.3);
    EXPECT_FALSE(s.stable);
    EXPECT_TRUE(summarize({100, 100.5, 99.5}, 0.02).stable);
}

TEST(Statistics, QuantileInterpolates) {
    EXPECT_DOUBLE_EQ(roofline::quantile({}, 0.9), 0);
    EXPECT_DOUBLE_EQ(roofline::quantile({5}, 0.9), 5);
    EXPECT_DOUBLE_EQ(roofline::quantile({3, 1, 2}, 0.5), 2);
    EXPECT_DOUBLE_EQ(roofline::quantile({1, 2, 3, 4, 5}, 1.0), 5);
    EXPECT_DOUBLE_EQ(roofline::quantile({1, 2, 3, 4, 5}, 0.0), 1);
    EXPECT_DOUBLE_EQ(roofline::quantile({10, 20}, 0.9), 19);
}

// A shared host halves some bursts: the figure follows the bursts that ran alone.
TEST(Statistics, BurstQuantileIgnoresHalvedBursts) {
    const std::vector<std::vector<double>> bursts = {{50, 51, 49}, {100, 99, 101}, {52, 50, 50}, {100, 100, 98}};
    roofline::Stats s;
    const double value = roofline::summarize_bursts(bursts, 0.9, 0.02, s);
    EXPECT_NEAR(value, 100.7, 1e-9);  // the bursts' bests are 51, 101, 52, 100
    EXPECT_EQ(s.bursts, 4);
    EXPECT_EQ(s.runs, 12);
    EXPECT_DOUBLE_EQ(s.min, 49);
    EXPECT_DOUBLE_EQ(s.max, 101);
    EXPECT_DOUBLE_EQ(s.quantile, 0.9);
    EXPECT_TRUE(s.stable);  // two bursts reach the top
}

// Another tenant on the SMT sibling leaves quiet windows of a sample or two:
// one quiet sample per burst is enough, and two bursts confirm it.
TEST(Statistics, BurstValueFollowsEachBurstsQuietSample) {
    roofline::Stats s;
    const double value = roofline::summarize_bursts({{60, 100, 61, 62, 60}, {59, 58, 99, 57, 58}}, 0.9, 0.02, s);
    EXPECT_NEAR(value, 99.9, 1e-9);
    EXPECT_TRUE(s.stable);
    EXPECT_DOUBLE_EQ(s.median, 60);
}

TEST(Statistics, BurstQuantileIsUnstableWhenOneBurstStandsAlone) {
    roofline::Stats s;
    roofline::summarize_bursts({{50}, {51}, {100}}, 0.9, 0.02, s);
    EXPECT_FALSE(s.stable);
    roofline::summarize_bursts({}, 0.9, 0.02, s);
    EXPECT_EQ(s.bursts, 0);
}
