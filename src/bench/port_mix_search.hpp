// The port-mix search: which numbers of independent FMA and ADD chains, run side
// by side, give a core its highest FLOP rate. Pure: the throughput of a mix comes
// from a function the caller supplies (a timed kernel in bench, a model in tests).
#pragma once

#include <functional>
#include <vector>

namespace roofline {

struct ChainMix {
    int fma = 0, add = 0;
    bool operator==(const ChainMix&) const = default;
};

struct MixSearchResult {
    ChainMix best;
    double value = 0;                                 // throughput of `best`
    std::vector<std::pair<ChainMix, double>> tried;   // every mix evaluated, in order
};

// Searches `available` (the mixes compiled in; at most the register file) for
// the highest `throughput`: a coarse grid of about `coarse_points` mixes, then a
// pattern search: climb to the best of the mixes one and two steps away in
// each direction while one is better by more than `min_gain` (a relative
// margin, so noise does not wander), halving the step down to one; at most
// `max_evaluations` evaluations in all. Each mix is evaluated once.
MixSearchResult search_port_mix(const std::vector<ChainMix>& available,
                                const std::function<double(const ChainMix&)>& throughput, int coarse_points = 16,
                                int max_evaluations = 60, double min_gain = 0.01);

// The mixes a model (the microarchitecture table) predicts within `within` of
// the best of `available`, fewest chains first (fewer registers, less spilling
// the model does not see), at most `count`. The search's climb can stop on a
// local peak a noisy host makes look best; these join its finalists, so the
// measurement, not the model, still decides.
std::vector<ChainMix> predicted_best_mixes(const std::vector<ChainMix>& available,
                                           const std::function<double(const ChainMix&)>& predicted, int count,
                                           double within = 0.03);

} // namespace roofline
