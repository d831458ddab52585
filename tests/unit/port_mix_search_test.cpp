#include "bench/port_mix_search.hpp"
#include "core/peak.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace roofline;

namespace {

std::vector<ChainMix> grid(int max_chains, int step) {
    std::vector<ChainMix> out;
    for (int f = 0; f <= max_chains; f += step)
        for (int a = 0; f + a <= max_chains; a += step)
            if (f + a > 0) out.push_back({f, a});
    return out;
}

FpPipes pipes(int fma, int add, int fp, int datapath, int fma_latency, int add_latency) {
    FpPipes p;
    p.fma_pipes = fma, p.add_pipes = add, p.fp_pipes = fp, p.datapath_bits = datapath;
    p.fma_latency = p.mul_latency = fma_latency;
    p.add_latency = add_latency;
    return p;
}

double best_of(const std::vector<ChainMix>& available, const std::function<double(const ChainMix&)>& f) {
    double best = 0;
    for (const auto& m : available) best = std::max(best, f(m));
    return best;
}

} // namespace

// The search finds the model's optimum for cores of very different shapes.
TEST(PortMixSearch, FindsTheOptimumOfAPipeModel) {
    struct Case {
        const char* name;
        FpPipes p;
        int width, max_chains, step;
    };
    const Case cases[] = {
        {"zen3 ymm", pipes(2, 2, 4, 256, 4, 3), 256, 14, 1},
        {"zen4 zmm", pipes(2, 2, 4, 256, 4, 3), 512, 30, 2},
        {"zen5 zmm", pipes(2, 2, 4, 512, 4, 2), 512, 30, 2},
        {"golden cove ymm", pipes(2, 2, 3, 256, 4, 2), 256, 14, 1},
        {"skylake-sp zmm", pipes(2, 2, 2, 512, 4, 4), 512, 30, 2},
        {"long latency", pipes(2, 2, 4, 256, 6, 5), 256, 14, 1},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const auto available = grid(c.max_chains, c.step);
        auto model = [&](const ChainMix& m) { return flops_per_cycle(c.p, {m.fma, m.add, 0}, c.width, 64); };
        const auto r = search_port_mix(available, model);
        EXPECT_DOUBLE_EQ(r.value, best_of(available, model));
        EXPECT_LE(static_cast<int>(r.tried.size()), 60);
        EXPECT_LT(r.tried.size(), available.size());  // a search, not every mix
    }
}

// A sharp optimum off the coarse grid is reached by the refinement.
TEST(PortMixSearch, RefinesBetweenGridPoints) {
    const auto available = grid(14, 1);
    auto peaked = [](const ChainMix& m) { return 100.0 - std::abs(m.fma - 7) * 3 - std::abs(m.add - 5) * 2; };
    const auto r = search_port_mix(available, peaked);
    EXPECT_EQ(r.best, (ChainMix{7, 5}));
}

// Measurement noise of a few tenths of a percent does not stop it short of 99% of the best.
TEST(PortMixSearch, ToleratesNoise) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> noise(0.997, 1.0);
    const FpPipes zen5 = pipes(2, 2, 4, 512, 4, 2);
    const auto available = grid(30, 2);
    auto model = [&](const ChainMix& m) { return flops_per_cycle(zen5, {m.fma, m.add, 0}, 512, 64); };
    const auto r = search_port_mix(available, [&](const ChainMix& m) { return model(m) * noise(rng); });
    EXPECT_GE(model(r.best), 0.99 * best_of(available, model));
}

TEST(PortMixSearch, EachMixIsTimedOnceAndTheBudgetHolds) {
    int calls = 0;
    const auto available = grid(30, 1);
    const auto r = search_port_mix(available, [&](const ChainMix& m) { ++calls; return double(m.fma + 2 * m.add); },
                                   16, 12);
    EXPECT_EQ(calls, static_cast<int>(r.tried.size()));
    EXPECT_LE(calls, 12);
    for (std::size_t i = 0; i < r.tried.size(); ++i)
        for (std::size_t j = i + 1; j < r.tried.size(); ++j) EXPECT_FALSE(r.tried[i].first == r.tried[j].first);
}

TEST(PortMixSearch, EmptySpace) {
    const auto r = search_port_mix({}, [](const ChainMix&) { return 1.0; });
    EXPECT_TRUE(r.tried.empty());
}

// Measured on Zen 3: odd ADD chain counts run ~10% slow (the loop's layout), so
// fma8+add4 (64 GF/s) sits next to fma8+add5 (61) while fma8+add6 reaches 71.
// A dip one step away must not stop the search.
TEST(PortMixSearch, CrossesADipNextToThePeak) {
    const FpPipes zen3 = pipes(2, 2, 4, 256, 4, 3);
    const auto available = grid(14, 1);
    auto bumpy = [&](const ChainMix& m) {
        return flops_per_cycle(zen3, {m.fma, m.add, 0}, 256, 64) * (m.add % 2 ? 0.88 : 1.0) * (m.fma % 2 ? 0.9 : 1.0);
    };
    const auto r = search_port_mix(available, bumpy);
    EXPECT_DOUBLE_EQ(r.value, best_of(available, bumpy));
}

// The table nominates the mixes it predicts near the best, smallest first
// (fewest registers), and no more than asked for.
TEST(PortMixSearch, TableNominatesTheSmallestNearBestMixes) {
    const auto available = grid(14, 1);
    // A plateau: every mix with at least 8 FMA and 6 ADD chains saturates the pipes.
    const auto model = [](const ChainMix& m) { return std::min(m.fma, 8) * 2.0 + std::min(m.add, 6); };
    const auto nominated = predicted_best_mixes(available, model, 3);
    ASSERT_EQ(nominated.size(), 1u);  // within 14 chains only fma8+add6 reaches the plateau
    EXPECT_EQ(nominated.front(), (ChainMix{8, 6}));
    const auto relaxed = predicted_best_mixes(available, model, 2, 0.1);  // 20 of 22 is within 10%
    ASSERT_EQ(relaxed.size(), 2u);
    for (const auto& m : relaxed) EXPECT_GE(model(m), 0.9 * 22);
    EXPECT_LE(relaxed[0].fma + relaxed[0].add, relaxed[1].fma + relaxed[1].add);
    EXPECT_TRUE(predicted_best_mixes(available, [](const ChainMix&) { return 0.0; }, 3).empty());
}
