// Theoretical figures: FLOPs per cycle of an op mix, the machine's best over all
// mixes, and the L1/L2 bandwidth a core's ports allow, from the per-
// microarchitecture table (core/microarch.hpp). Pure functions.
#pragma once

#include "core/microarch.hpp"

#include <optional>

namespace roofline {

// An op mix: how many independent chains of each kind run side by side.
struct OpMix {
    int fma_chains = 0, add_chains = 0, mul_chains = 0;
};

// FLOPs per cycle per core for `mix` at `vector_bits` with `element_bits`
// (64 for DP, 32 for SP), bounded by pipe throughput and by chain latency.
double flops_per_cycle(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits);

// The best FLOPs per cycle per core any number of chains of the given kinds can
// reach at this width (enough chains to hide every latency): with FMA and ADD
// allowed, the machine's peak at that width.
double best_flops_per_cycle(const FpPipes& pipes, bool fma, bool add, bool mul, int vector_bits, int element_bits);

// Bytes per cycle per core that a stream with `reads` loads and `writes` stores
// of 8-byte elements per element can move through the L1 ports (nominal bytes).
// 0 when the table has no figure.
double l1_bytes_per_cycle(const CorePorts& ports, int reads, int writes);

// Bytes per cycle per core a load stream can draw from L2 (0: unknown, or not a
// pure load: stores add write-backs the table does not describe).
double l2_bytes_per_cycle(const CorePorts& ports, int reads, int writes);

// A measured figure's share of its theoretical one (the efficiency every
// output shows); nullopt when the theory is unknown (0) or a figure is not finite.
std::optional<double> share_of_theoretical(double measured, double theoretical);

// How far a measured figure may exceed its theory and still be "at" it: the
// theory's clock is itself measured (the 90th percentile of 0.1 s of samples,
// before and after the run), and a turbo step moves it by about this much.
inline constexpr double kTheoryTolerance = 0.02;

} // namespace roofline
