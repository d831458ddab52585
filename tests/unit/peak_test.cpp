#include "core/peak.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {
FpPipes zen3() { return fp_pipes_for("AuthenticAMD", 0x19, 0x01, false); }
FpPipes skylake() { return fp_pipes_for("GenuineIntel", 6, 0x55, false); }
} // namespace

TEST(Peak, FmaOnlyFillsTwoFmaPipes) {
    // 8 chains of 256-bit DP FMA: 2 pipes x 4 lanes x 2 FLOPs = 16 FLOP/cycle.
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {8, 0, 0}, 256, 64), 16);
    EXPECT_DOUBLE_EQ(flops_per_cycle(skylake(), {8, 0, 0}, 256, 64), 16);
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {8, 0, 0}, 256, 32), 32);
}

TEST(Peak, ZenAddPipesRaiseTheBestMix) {
    // Zen: FADD pipes are separate, so 8 FMA + 8 ADD chains give 16 + 8 FLOP/cycle.
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {8, 8, 0}, 256, 64), 24);
    // 8 FMA + 4 ADD: still 4 cycles per round (FMA latency), 4 x (16+4) / 4 = 20.
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {8, 4, 0}, 256, 64), 20);
    // Intel: adds share the FMA ports, so the mix is no better than FMA alone.
    EXPECT_LE(flops_per_cycle(skylake(), {8, 8, 0}, 256, 64), 16);
}

TEST(Peak, LatencyBoundsASingleChain) {
    // One dependent FMA chain: 1 op per 4 cycles: 4 lanes x 2 / 4 = 2 FLOP/cycle.
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {1, 0, 0}, 256, 64), 2);
    // Scalar DP add chain, latency 3: 1/3 FLOP/cycle.
    EXPECT_NEAR(flops_per_cycle(zen3(), {0, 1, 0}, 64, 64), 1.0 / 3, 1e-12);
}

TEST(Peak, WideOpsOnANarrowDatapathTakeTwoPasses) {
    const FpPipes zen4 = fp_pipes_for("AuthenticAMD", 0x19, 0x11, true);
    EXPECT_EQ(zen4.datapath_bits, 256);
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen4, {16, 0, 0}, 512, 64), flops_per_cycle(zen4, {8, 0, 0}, 256, 64));
}

TEST(Peak, TheoreticalScalesWithCoresAndClock) {
    EXPECT_DOUBLE_EQ(theoretical_gflops(zen3(), {8, 0, 0}, 256, 64, 2, 3.0), 2 * 3.0 * 16);
    EXPECT_DOUBLE_EQ(theoretical_gflops(zen3(), {}, 256, 64, 2, 3.0), 0);
}
