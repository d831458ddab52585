#include "core/peak.hpp"

#include <algorithm>

namespace roofline {

FpPipes fp_pipes_for(const std::string& vendor, int family, int model, bool has_avx512) {
    FpPipes p;
    if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
        // Zen: FP0/FP1 do FMA and MUL, FP2/FP3 do ADD only (Software Optimization Guides).
        p.fma_pipes = 2;
        p.add_pipes = 2;
        p.adds_on_fma_pipes = false;
        p.fma_latency = 4;
        p.add_latency = 3;
        p.mul_latency = 3;
        if (family == 0x17 && model < 0x30) {
            p.datapath_bits = 128;
            p.fma_latency = 5;
            p.description = "AMD Zen 1: 2 FMA/MUL pipes + 2 ADD pipes, 128-bit datapath";
        } else if (family >= 0x1A) {
            p.datapath_bits = 512;
            p.add_latency = 2;
            p.description = "AMD Zen 5: 2 FMA/MUL pipes + 2 ADD pipes, 512-bit datapath";
        } else {
            p.datapath_bits = 256;
            p.description = has_avx512
                ? "AMD Zen 4: 2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath (512-bit ops take two passes)"
                : "AMD Zen 2/3: 2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath";
        }
        return p;
    }
    // Intel since Skylake: two FMA-capable ports that also do ADD and MUL, 4-cycle latency.
    p.fma_pipes = 2;
    p.add_pipes = 0;
    p.adds_on_fma_pipes = true;
    p.fma_latency = p.add_latency = p.mul_latency = 4;
    p.datapath_bits = has_avx512 ? 512 : 256;
    p.description = has_avx512
        ? "Intel (assumed): 2 FMA ports, 512-bit (server parts with two 512-bit FMA units)"
        : "Intel (assumed): 2 FMA ports, 256-bit";
    (void)family;
    (void)model;
    return p;
}

double flops_per_cycle(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits) {
    const int lanes = std::max(1, vector_bits / element_bits);
    // A vector op wider than the datapath occupies its pipe for several passes.
    const double passes = std::max(1.0, static_cast<double>(vector_bits) / pipes.datapath_bits);
    const double fma_mul_ops = mix.fma_chains + mix.mul_chains;
    const double add_ops = mix.add_chains;
    const double ops = fma_mul_ops + add_ops;
    if (ops == 0) return 0;

    // Cycles for one op of every chain, limited by the pipes...
    double pipe_cycles;
    if (pipes.adds_on_fma_pipes) {
        pipe_cycles = std::max(fma_mul_ops * passes / pipes.fma_pipes,
                               ops * passes / (pipes.fma_pipes + pipes.add_pipes));
    } else {
        const double add_cycles = pipes.add_pipes > 0 ? add_ops * passes / pipes.add_pipes : 0;
        pipe_cycles = std::max(fma_mul_ops * passes / pipes.fma_pipes, add_cycles);
    }
    // ...and by latency: each chain issues its next op only when the last one is done.
    double latency_cycles = 0;
    if (mix.fma_chains) latency_cycles = std::max(latency_cycles, double(pipes.fma_latency));
    if (mix.add_chains) latency_cycles = std::max(latency_cycles, double(pipes.add_latency));
    if (mix.mul_chains) latency_cycles = std::max(latency_cycles, double(pipes.mul_latency));
    const double cycles = std::max(pipe_cycles, latency_cycles);

    const double flops = lanes * (2.0 * mix.fma_chains + mix.add_chains + mix.mul_chains);
    return flops / cycles;
}

double theoretical_gflops(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits,
                          int cores, double clock_ghz) {
    return cores * clock_ghz * flops_per_cycle(pipes, mix, vector_bits, element_bits);
}

} // namespace roofline
