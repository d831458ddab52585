#include "core/peak.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofline;

namespace {
// Described here, not read from the table, so the maths is tested on its own.
FpPipes zen3() {  // FP0/FP1 FMA+MUL, FP2/FP3 ADD, 256-bit
    FpPipes p;
    p.fma_pipes = 2, p.add_pipes = 2, p.fp_pipes = 4, p.datapath_bits = 256;
    p.fma_latency = 4, p.add_latency = 3, p.mul_latency = 3;
    return p;
}
FpPipes zen4() {
    FpPipes p = zen3();
    return p;  // same pipes; 512-bit ops take two passes on the 256-bit datapath
}
FpPipes skylake() {  // p0/p1 do FMA, ADD and MUL
    FpPipes p;
    p.fma_pipes = 2, p.add_pipes = 2, p.fp_pipes = 2, p.datapath_bits = 256;
    p.fma_latency = p.add_latency = p.mul_latency = 4;
    return p;
}
FpPipes golden_cove() {  // FMA on p0/p1, ADD on p1/p5
    FpPipes p = skylake();
    p.fp_pipes = 3;
    p.add_latency = 2;
    return p;
}
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

TEST(Peak, AddPipesThatOverlapTheFmaPipesCountOnce) {
    // Golden Cove: 2 FMA + 1 ADD per cycle (p5), never 3 ADDs.
    EXPECT_DOUBLE_EQ(flops_per_cycle(golden_cove(), {8, 4, 0}, 256, 64), 20);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(golden_cove(), false, true, false, 256, 64), 8);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(golden_cove(), true, true, false, 256, 64), 20);
}

TEST(Peak, TheMachinesBestIsTheBestOfAnyMix) {
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(zen3(), true, true, false, 256, 64), 24);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(zen3(), true, false, false, 256, 64), 16);
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(zen3(), false, true, true, 256, 64), 16);  // 2 MUL + 2 ADD
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(skylake(), true, true, false, 256, 64), 16);
    // No mix of chains beats the best.
    for (int f = 0; f <= 14; ++f)
        for (int a = 0; a + f <= 14; ++a)
            EXPECT_LE(flops_per_cycle(zen3(), {f, a, 0}, 256, 64), best_flops_per_cycle(zen3(), true, true, false, 256, 64));
}

TEST(Peak, LatencyBoundsASingleChain) {
    // One dependent FMA chain: 1 op per 4 cycles: 4 lanes x 2 / 4 = 2 FLOP/cycle.
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen3(), {1, 0, 0}, 256, 64), 2);
    // Scalar DP add chain, latency 3: 1/3 FLOP/cycle.
    EXPECT_NEAR(flops_per_cycle(zen3(), {0, 1, 0}, 64, 64), 1.0 / 3, 1e-12);
}

TEST(Peak, WideOpsOnANarrowDatapathTakeTwoPasses) {
    EXPECT_DOUBLE_EQ(flops_per_cycle(zen4(), {16, 0, 0}, 512, 64), flops_per_cycle(zen4(), {8, 0, 0}, 256, 64));
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(zen4(), true, true, false, 512, 64), 24);
}

TEST(Peak, PortBandwidthPerPattern) {
    CorePorts zen3_ports;
    zen3_ports.l1_load_bytes_per_cycle = 64;
    zen3_ports.l1_store_bytes_per_cycle = 32;
    zen3_ports.l2_to_l1_bytes_per_cycle = 32;
    EXPECT_DOUBLE_EQ(l1_bytes_per_cycle(zen3_ports, 1, 0), 64);   // load
    EXPECT_DOUBLE_EQ(l1_bytes_per_cycle(zen3_ports, 0, 1), 32);   // store
    EXPECT_DOUBLE_EQ(l1_bytes_per_cycle(zen3_ports, 1, 1), 64);   // copy: 4 elements per cycle, store-bound
    EXPECT_DOUBLE_EQ(l1_bytes_per_cycle(zen3_ports, 2, 1), 96);   // triad: 4 elements per cycle
    EXPECT_DOUBLE_EQ(l2_bytes_per_cycle(zen3_ports, 1, 0), 32);
    EXPECT_DOUBLE_EQ(l2_bytes_per_cycle(zen3_ports, 1, 1), 0);    // stores: write-backs not described
    EXPECT_DOUBLE_EQ(l1_bytes_per_cycle(CorePorts{}, 1, 0), 0);   // unknown
}

TEST(Peak, ShareOfTheoretical) {
    EXPECT_DOUBLE_EQ(*roofline::share_of_theoretical(50, 100), 0.5);
    EXPECT_FALSE(roofline::share_of_theoretical(50, 0));           // theory unknown
    EXPECT_FALSE(roofline::share_of_theoretical(NAN, 100));
    EXPECT_DOUBLE_EQ(*roofline::share_of_theoretical(110, 100), 1.1);  // shown, and warned about elsewhere
}
