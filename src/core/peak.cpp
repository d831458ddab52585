#include "core/peak.hpp"

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

// A vector op wider than the datapath occupies its pipe for several passes.
double passes(const FpPipes& pipes, int vector_bits) {
    return std::max(1.0, static_cast<double>(vector_bits) / std::max(1, pipes.datapath_bits));
}

// Cycles the pipes need for `fma_mul` FMA/MUL ops and `adds` ADD ops: by Hall's
// condition on the pipes that can take each kind, and on all of them together.
double pipe_cycles(const FpPipes& pipes, double fma_mul, double adds) {
    double cycles = 0;
    if (fma_mul > 0) cycles = std::max(cycles, fma_mul / std::max(1, pipes.fma_pipes));
    if (adds > 0) cycles = std::max(cycles, adds / std::max(1, pipes.add_pipes));
    return std::max(cycles, (fma_mul + adds) / std::max(1, pipes.fp_pipes));
}

} // namespace

double flops_per_cycle(const FpPipes& pipes, const OpMix& mix, int vector_bits, int element_bits) {
    const int lanes = std::max(1, vector_bits / element_bits);
    const double fma_mul_ops = mix.fma_chains + mix.mul_chains;
    const double add_ops = mix.add_chains;
    if (fma_mul_ops + add_ops == 0) return 0;
    // Cycles for one op of every chain: the pipes' throughput...
    const double throughput_cycles = pipe_cycles(pipes, fma_mul_ops, add_ops) * passes(pipes, vector_bits);
    // ...or latency: each chain issues its next op only when the last one is done.
    double latency_cycles = 0;
    if (mix.fma_chains) latency_cycles = std::max(latency_cycles, double(pipes.fma_latency));
    if (mix.add_chains) latency_cycles = std::max(latency_cycles, double(pipes.add_latency));
    if (mix.mul_chains) latency_cycles = std::max(latency_cycles, double(pipes.mul_latency));
    const double flops = lanes * (2.0 * mix.fma_chains + mix.add_chains + mix.mul_chains);
    return flops / std::max(throughput_cycles, latency_cycles);
}

double best_flops_per_cycle(const FpPipes& pipes, bool fma, bool add, bool mul, int vector_bits, int element_bits) {
    const int lanes = std::max(1, vector_bits / element_bits);
    // FMA and MUL share pipes; an FMA is worth two FLOPs, so fill them with FMAs
    // when allowed, then give ADDs whatever ADD-capable pipes are left.
    const double fma_mul_ops = (fma || mul) ? pipes.fma_pipes : 0;
    const double flops_per_fma_pipe_op = fma ? 2.0 : 1.0;
    double add_ops = 0;
    if (add) add_ops = std::min<double>(pipes.add_pipes, pipes.fp_pipes - fma_mul_ops);
    const double flops = lanes * (flops_per_fma_pipe_op * fma_mul_ops + std::max(0.0, add_ops));
    return flops / passes(pipes, vector_bits);
}

double l1_bytes_per_cycle(const CorePorts& ports, int reads, int writes) {
    if (reads + writes == 0) return 0;
    // Elements per cycle: each kind of port limits the elements that need it.
    double elements = 1e300;
    if (reads > 0) {
        if (ports.l1_load_bytes_per_cycle <= 0) return 0;
        elements = std::min(elements, ports.l1_load_bytes_per_cycle / (8.0 * reads));
    }
    if (writes > 0) {
        if (ports.l1_store_bytes_per_cycle <= 0) return 0;
        elements = std::min(elements, ports.l1_store_bytes_per_cycle / (8.0 * writes));
    }
    return elements * 8.0 * (reads + writes);
}

double l2_bytes_per_cycle(const CorePorts& ports, int reads, int writes) {
    if (reads == 0 || writes != 0) return 0;
    return ports.l2_to_l1_bytes_per_cycle;
}

std::optional<double> share_of_theoretical(double measured, double theoretical) {
    if (!(theoretical > 0) || !std::isfinite(theoretical) || !std::isfinite(measured)) return std::nullopt;
    return measured / theoretical;
}

} // namespace roofline
