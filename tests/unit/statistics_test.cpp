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
