#include "core/multiplexed_count.hpp"

#include <gtest/gtest.h>

using namespace roofline;

TEST(MultiplexedCount, ScalesByEnabledOverRunning) {
    const auto c = scale_multiplexed(1000, 200, 50);  // ran a quarter of the time
    EXPECT_TRUE(c.counted);
    EXPECT_DOUBLE_EQ(c.value, 4000);
    EXPECT_DOUBLE_EQ(c.running_share, 0.25);
}

TEST(MultiplexedCount, FullTimeIsExact) {
    const auto c = scale_multiplexed(1234, 100, 100);
    EXPECT_DOUBLE_EQ(c.value, 1234);
    EXPECT_DOUBLE_EQ(c.running_share, 1);
}

// Enabled but never scheduled: no count, never the raw delta passed on as one.
TEST(MultiplexedCount, NeverScheduledIsNotCounted) {
    const auto c = scale_multiplexed(0, 500, 0);
    EXPECT_FALSE(c.counted);
    EXPECT_DOUBLE_EQ(c.running_share, 0);
    EXPECT_DOUBLE_EQ(c.value, 0);
}

TEST(MultiplexedCount, EmptyIntervalCountsNothingExactly) {
    const auto c = scale_multiplexed(0, 0, 0);
    EXPECT_TRUE(c.counted);
    EXPECT_DOUBLE_EQ(c.value, 0);
}

TEST(MultiplexedCount, TornReadNeverScalesDown) {
    const auto c = scale_multiplexed(100, 90, 100);  // running read after enabled
    EXPECT_DOUBLE_EQ(c.value, 100);
    EXPECT_DOUBLE_EQ(c.running_share, 1);
}
