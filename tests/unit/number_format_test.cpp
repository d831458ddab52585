// render/number_format: the one way numbers are written for people.
#include "render/number_format.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofline;

TEST(NumberFormat, ThreeSignificantDigitsInTheReadableRange) {
    EXPECT_EQ(format_number(1.4549), "1.45");
    EXPECT_EQ(format_number(29), "29.0");
    EXPECT_EQ(format_number(104.4), "104");
    EXPECT_EQ(format_number(0.0625), "0.0625");
    EXPECT_EQ(format_number(-3.14159), "-3.14");
    EXPECT_EQ(format_number(0), "0");
    EXPECT_EQ(format_number(123456), "1.23e+05");
    EXPECT_EQ(format_number(0.0001234), "1.23e-04");
    EXPECT_EQ(format_number(NAN), "n/a");
    EXPECT_EQ(format_number(INFINITY), "n/a");
}

TEST(NumberFormat, NegativeZeroIsZero) {
    // A -0 from an input (a kernel spec's "flops: -0"), or a small negative number rounded
    // to zero, printed "-0 FLOP" (issue 33): zero has no sign.
    EXPECT_EQ(format_number(-0.0), "0");
    EXPECT_EQ(format_count(-0.0), "0");
    EXPECT_EQ(format_count(-1e-9), "-1e-09");
    EXPECT_EQ(format_seconds(-0.0), "0 s");
    EXPECT_EQ(format_percent(-0.0), "0.0%");
    EXPECT_EQ(format_percent(-1e-6), "0.0%");
    EXPECT_EQ(format_percent(-0.5), "-50.0%");
    EXPECT_EQ(exact_number(-0.0), "0");
    EXPECT_EQ(exact_number(-2.5), "-2.5");
}

TEST(NumberFormat, CountsSecondsPercentAndUnits) {
    EXPECT_EQ(format_count(2), "2");
    EXPECT_EQ(format_count(0.25), "0.25");
    EXPECT_EQ(format_count(2e7), "2e+07");
    EXPECT_EQ(format_seconds(1.5), "1.50 s");
    EXPECT_EQ(format_seconds(0.0386), "38.6 ms");
    EXPECT_EQ(format_seconds(12e-6), "12.0 us");
    EXPECT_EQ(format_seconds(8e-8), "80.0 ns");
    EXPECT_EQ(format_percent(0.4567), "45.7%");
    EXPECT_EQ(format_percent(NAN), "n/a");
    EXPECT_EQ(format_percent(1.5625e22), "1.56e+24%");  // never a 25-digit number
    EXPECT_EQ(format_percent(999.0), "99900.0%");
    EXPECT_EQ(rate_unit("FLOP"), "GFLOP/s");
    EXPECT_EQ(intensity_unit("exchange"), "exchange/B");
    EXPECT_EQ(count_of(1, "thread"), "1 thread");
    EXPECT_EQ(count_of(2, "thread"), "2 threads");
    EXPECT_EQ(exact_number(0.1), "0.1");
    EXPECT_EQ(exact_number(NAN), "");
}

TEST(NumberFormat, QuantitiesInTablesTakeAnSiPrefix) {
    EXPECT_EQ(format_quantity(8e7), "80.0M");  // the --functions table printed 8e+07
    EXPECT_EQ(format_quantity(33554432), "33.6M");  // and 3.35544e+07
    EXPECT_EQ(format_quantity(4096), "4.10k");
    EXPECT_EQ(format_quantity(512), "512");
    EXPECT_EQ(format_quantity(0), "0");
    EXPECT_EQ(format_quantity(999.7), "1.00k");
    EXPECT_EQ(format_quantity(999960), "1.00M");
    EXPECT_EQ(format_quantity(1.64e9), "1.64G");
    EXPECT_EQ(format_quantity(-2e12), "-2.00T");
    EXPECT_EQ(format_quantity(1.23e18), "1.23e+18");
    EXPECT_EQ(format_quantity(NAN), "n/a");
}
