#include "core/precision.hpp"

#include <gtest/gtest.h>

using namespace roofline;

TEST(Precision, Names) {
    EXPECT_EQ(parse_precision("dp"), Precision::dp);
    EXPECT_EQ(parse_precision("SP"), Precision::sp);
    EXPECT_EQ(parse_precision("fp32"), Precision::sp);
    EXPECT_EQ(parse_precision("double"), Precision::dp);
    EXPECT_FALSE(parse_precision("hp"));
    EXPECT_STREQ(precision_name(Precision::sp), "sp");
}

TEST(Precision, ElementBits) {
    EXPECT_EQ(element_bits(Precision::dp), 64);
    EXPECT_EQ(element_bits_of("sp"), 32);
    EXPECT_EQ(element_bits_of("dp"), 64);
}
