// The model's bytes per level for a loop described on paper against the cache
// simulation of the same loop (tools/vgtool/rl_cachesim.c, what `measure` puts in a
// point's bytes): the example STREAM triads, with ordinary and with non-temporal stores,
// must count the same bytes at each level, so a modelled and a measured point of one
// loop land at the same intensity.
#include "cachesim_fixture.hpp"
#include "core/kernel_spec.hpp"
#include "io/kernel_spec_yaml.hpp"
#include "rl_cachesim.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace fs = std::filesystem;
using namespace roofline;

namespace spec_vs_sim {

using Counters = std::array<unsigned long long, RL_CS_NCOUNTERS>;
constexpr unsigned long long KiB = 1024;
const fs::path examples_dir = fs::path(__FILE__).parent_path().parent_path().parent_path() / "examples";

KernelSpec example(const std::string& file, const std::string& name) {
    for (const auto& k : read_kernel_spec_file((examples_dir / "kernels" / file).string()))
        if (k.name == name) return k;
    ADD_FAILURE() << "no kernel " << name << " in " << file;
    return {};
}

// A private L1 and L2 and an L3 that every fill passes through (not a victim cache:
// the model's levels are boundaries that data from memory crosses on its way in).
rl_cs_config hierarchy() {
    rl_cs_config c{};
    c.levels = 3;
    c.cores = 1;
    c.level[0] = {4 * KiB, 64, 8, 1, 0};
    c.level[1] = {16 * KiB, 64, 8, 1, 0};
    c.level[2] = {64 * KiB, 64, 16, 1, 0};
    return c;
}

// a[i] = b[i] + s*c[i] over arrays 8x the last level, per iteration, as `measure`
// adds them up: L1 the load and store instructions' bytes, below it read + write
// across each boundary, DRAM also the non-temporal stores; dirty lines written back.
std::map<std::string, double> simulated_triad(int store_kind) {
    roofline::testing::CacheSim sim(hierarchy());
    Counters c{};
    const std::uint64_t n = 64 * 1024;
    const std::uint64_t a = 1 << 24, b = 2 << 24, cc = 3 << 24;
    double l1 = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        rl_cs_access(&sim.cs, 0, b + 8 * i, 8, RL_CS_LOAD, c.data());
        rl_cs_access(&sim.cs, 0, cc + 8 * i, 8, RL_CS_LOAD, c.data());
        rl_cs_access(&sim.cs, 0, a + 8 * i, 8, store_kind, c.data());
        l1 += 24;
    }
    rl_cs_flush(&sim.cs, c.data());
    const double it = static_cast<double>(n);
    return {{"L1", l1 / it},
            {"L2", (c[RL_CS_READ + 0] + c[RL_CS_WRITE + 0]) / it},
            {"L3", (c[RL_CS_READ + 1] + c[RL_CS_WRITE + 1]) / it},
            {"DRAM", (c[RL_CS_READ + 2] + c[RL_CS_WRITE + 2] + c[RL_CS_NT]) / it}};
}

void expect_same_bytes(const std::map<std::string, double>& model, const std::map<std::string, double>& simulated,
                       const std::string& what) {
    for (const auto& [level, bytes] : simulated) {
        const auto it = model.find(level);
        const double modelled = it == model.end() ? 0 : it->second;
        // The simulation is exact for these streams but for the lines at the arrays' ends.
        EXPECT_NEAR(modelled, bytes, 0.01 * bytes + 1e-9) << what << " at " << level;
    }
}

} // namespace spec_vs_sim

TEST(KernelSpecAgainstCacheSim, TriadWithWriteAllocateCountsTheSameBytesAtEveryLevel) {
    const auto simulated = spec_vs_sim::simulated_triad(RL_CS_STORE);
    EXPECT_NEAR(simulated.at("DRAM"), 32, 0.5);  // the simulation is what it should be
    const KernelSpec triad = spec_vs_sim::example("stream_triad.yaml", "stream-triad");
    spec_vs_sim::expect_same_bytes(bytes_per_iteration(triad), simulated, "stream-triad");
}

// Non-temporal stores bypass the caches: 24 B at L1 (the instructions) and DRAM, only
// the 16 B of loads at L2 and L3. The model used to count the store at every level.
TEST(KernelSpecAgainstCacheSim, NonTemporalTriadStoresCountAtL1AndDramOnly) {
    const auto simulated = spec_vs_sim::simulated_triad(RL_CS_NT_STORE);
    EXPECT_NEAR(simulated.at("L2"), 16, 0.5);
    EXPECT_NEAR(simulated.at("DRAM"), 24, 0.5);
    const KernelSpec triad_nt = spec_vs_sim::example("stream_triad.yaml", "stream-triad-nt");
    spec_vs_sim::expect_same_bytes(bytes_per_iteration(triad_nt), simulated, "stream-triad-nt");
    spec_vs_sim::expect_same_bytes(nominal_bytes_per_iteration(triad_nt), simulated, "stream-triad-nt (nominal)");
}
