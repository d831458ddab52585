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

TEST(Precision, OneNameTableBothSpellingsInOneOut) {
    // The CPU's spelling and the GPU's name one precision; each is written one way.
    EXPECT_EQ(parse_precision("fp64"), Precision::dp);
    EXPECT_EQ(parse_precision("FP32"), Precision::sp);
    EXPECT_EQ(parse_precision("half"), Precision::fp16);
    EXPECT_EQ(parse_precision("bfloat16"), Precision::bf16);
    EXPECT_EQ(parse_precision("popc"), Precision::popc);
    EXPECT_FALSE(parse_precision("fp128"));
    EXPECT_EQ(canonical_precision("fp64"), "dp");
    EXPECT_EQ(canonical_precision("BF16"), "bf16");
    EXPECT_EQ(gpu_precision("dp"), "fp64");
    EXPECT_EQ(gpu_precision("sp"), "fp32");
    EXPECT_EQ(gpu_precision("tf32"), "tf32");
    EXPECT_FALSE(gpu_precision("exchange"));
    for (auto p : {Precision::dp, Precision::sp, Precision::fp16, Precision::bf16, Precision::tf32, Precision::fp8,
                   Precision::int8, Precision::int32, Precision::lop3, Precision::popc}) {
        EXPECT_EQ(parse_precision(precision_name(p)), p);
        EXPECT_EQ(parse_precision(gpu_precision_name(p)), p);
    }
    EXPECT_TRUE(counts_flops(Precision::tf32));
    EXPECT_FALSE(counts_flops(Precision::lop3));
    EXPECT_EQ(known_gpu_precisions_text(), "fp64, fp32, fp16, bf16, tf32, fp8, int8, int32, lop3 or popc");
    EXPECT_EQ(element_bits_of("fp16"), 16);
    EXPECT_EQ(element_bits_of("exchange"), 64);
}
