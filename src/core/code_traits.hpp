// What a point's counts say about its code, read before advising it: how much of
// its floating-point work ran in vector instructions, how much was fused
// multiply-add, whether it stores at all (a reduction), and whether its rate is
// that of one dependent chain of operations. Instrumented and perf points carry
// these counts in their details (flops_by_width_*, flops_f64_fma, bytes_stored);
// analytic and modelled points mostly do not, and then nothing is claimed.
#pragma once

#include "core/roofline.hpp"

#include <optional>

namespace roofline {

struct CodeTraits {
    // FLOPs counted by vector width ("scalar", "128", "256", "512"): the share done by
    // scalar instructions, and the widest width that did any work (0 = scalar only).
    std::optional<double> scalar_share;
    int widest_bits = 0;
    // FLOPs done by FMA instructions over all FLOPs (an FMA counts two).
    std::optional<double> fma_share;
    // Bytes stored over the bytes loaded and stored by the instructions.
    std::optional<double> store_share;
};

CodeTraits code_traits(const Point& p);

// The highest rate one dependent chain of scalar operations can reach per thread: one
// result per `latency_cycles` at `clock_ghz` (each FMA two FLOPs), in GFLOP/s for
// `threads` threads. 2 cycles is the shortest floating-point add latency of current x86
// cores (Intel Golden Cove's fast adder; AMD Zen: 3, Intel Skylake: 4 — Agner Fog,
// "Instruction tables", 2022), so a point at or under it may be latency-bound.
double one_chain_gflops(double clock_ghz, int threads, double fma_share, double latency_cycles = 2);

} // namespace roofline
