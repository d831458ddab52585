// Theoretical peak: cores x clock x FLOPs/cycle for a given vector width and
// op mix, from a small description of the core's floating-point pipes.
// Pure functions; the per-microarchitecture facts live in fp_pipes_for().
#pragma once

#include <string>

namespace roofline {

// What one core's FP back end can issue per cycle.
struct FpPipes {
    int fma_pipes = 2;            // pipes that execute FMA and MUL
    int add_pipes = 0;            // extra pipes that execute only ADD (AMD Zen)
    bool adds_on_fma_pipes = true;// whether ADD may also use the FMA pipes
    int datapath_bits = 256;      // wider ops occupy a pipe for width/datapath passes
    int fma_latency = 4, add_latency = 3, mul_latency = 3;  // cycles
    std::string description;      // what was assumed, printed with the figures
};

// Best-known description for a CPU (vendor string from CPUID, family, model).
FpPipes fp_pipes_for(const std::string& vendor, int family, int model, bool has_avx512);

// An op mix: how many independent chains of each kind run side by side.
struct OpMix {
    int fma_chains = 0, add_chains = 0, mul_chains = 0;
};

// FLOPs per cycle per core for `mix` at `vector_bits` with `element_bits`
// (64 for DP, 32 for SP), bounded by pipe throughput and by chain latency.
double flops_per_cycle(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits);

// cores x GHz x FLOPs/cycle, in GFLOP/s.
double theoretical_gflops(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits,
                          int cores, double clock_ghz);

} // namespace roofline
