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

namespace spec_vs_sim {

// The bytes the simulation counts per iteration for accesses given by `next(i)`: a list of
// (address, size, kind) an iteration makes; L1 the instructions' bytes.
template <typename Iteration>
std::map<std::string, double> simulated(std::uint64_t n, Iteration iteration) {
    roofline::testing::CacheSim sim(hierarchy());
    Counters c{};
    double l1 = 0;
    for (std::uint64_t i = 0; i < n; ++i)
        for (const auto& [address, size, kind] : iteration(i)) {
            rl_cs_access(&sim.cs, 0, address, size, kind, c.data());
            l1 += size;
        }
    rl_cs_flush(&sim.cs, c.data());
    const double it = static_cast<double>(n);
    return {{"L1", l1 / it},
            {"L2", (c[RL_CS_READ + 0] + c[RL_CS_WRITE + 0]) / it},
            {"L3", (c[RL_CS_READ + 1] + c[RL_CS_WRITE + 1]) / it},
            {"DRAM", (c[RL_CS_READ + 2] + c[RL_CS_WRITE + 2] + c[RL_CS_NT]) / it}};
}

struct Access {
    std::uint64_t address;
    unsigned size;
    int kind;
};

KernelSpec spec_of(const std::string& yaml) { return kernel_specs_from_yaml(yaml, "k.yaml").at(0); }

void expect_near_bytes(const std::map<std::string, double>& model, const std::map<std::string, double>& simulated,
                       double tolerance, const std::string& what) {
    for (const auto& [level, bytes] : simulated) {
        const auto it = model.find(level);
        const double modelled = it == model.end() ? 0 : it->second;
        EXPECT_NEAR(modelled, bytes, tolerance * bytes + 1e-9) << what << " at " << level;
    }
}

} // namespace spec_vs_sim

// s += a[8*i]: each 8-byte load brings a line of its own below L1. Counted as a contiguous
// read the model said 8 B at every level (and a 256 MB array 'fits' L3 by its elements),
// where the simulation and the hardware move 64.
TEST(KernelSpecAgainstCacheSim, StridedReadsMoveAWholeLineBelowL1) {
    const std::uint64_t n = 64 * 1024, a = 1 << 24;  // 4 MiB spanned: 64x the last level
    const auto sim = spec_vs_sim::simulated(n, [&](std::uint64_t i) {
        return std::array<spec_vs_sim::Access, 1>{{{a + 64 * i, 8, RL_CS_LOAD}}};
    });
    EXPECT_NEAR(sim.at("DRAM"), 64, 1);
    const std::string head = "name: strided\nflops: 1\nsizes: {N: 65536}\niterations: N\narrays:\n";
    const KernelSpec strided = spec_vs_sim::spec_of(head + "  - {name: a, type: double, reads: 1, stride: 8}\n");
    spec_vs_sim::expect_same_bytes(bytes_per_iteration(strided), sim, "stride 8");
    // A stride of 2 doubles uses a quarter of each line: 16 B per access, not 8 and not 64.
    const KernelSpec half = spec_vs_sim::spec_of(head + "  - {name: a, type: double, reads: 1, stride: 2}\n");
    EXPECT_DOUBLE_EQ(bytes_per_iteration(half).at("DRAM"), 16);
    EXPECT_DOUBLE_EQ(bytes_per_iteration(half).at("L1"), 8);
}

// b[j][i] = a[i][j], n x n: the stores step a row (n doubles) at a time. n = 120 lines do not
// fit the 4 KiB L1 but do fit the 16 KiB L2, so each store moves a line in and out of L1
// (write-allocate and write-back: 128 B) while L3 and memory see each line once (8 + 8 B).
// (Not 128: rows 1 KiB apart fall in 2 of L2's 32 sets, and conflicts evict the lines.)
TEST(KernelSpecAgainstCacheSim, TransposedStoresMoveLinesDownToTheCacheThatKeepsThem) {
    const std::uint64_t n = 120, a = 1 << 24, b = 2 << 24;  // 112 KiB each, past the last level
    const auto sim = spec_vs_sim::simulated(n * n, [&](std::uint64_t k) {
        const std::uint64_t i = k / n, j = k % n;
        return std::array<spec_vs_sim::Access, 2>{
            {{a + 8 * (i * n + j), 8, RL_CS_LOAD}, {b + 8 * (j * n + i), 8, RL_CS_STORE}}};
    });
    EXPECT_GT(sim.at("L2"), 100);  // a line each way per store, not the 24 B of a copy
    const KernelSpec transpose = spec_vs_sim::spec_of(
        "name: transpose\nflops: 0\nsizes: {N: 120}\niterations: N*N\narrays:\n"
        "  - {name: a, type: double, reads: 1}\n"
        "  - {name: b, type: double, writes: 1, stride: N, lines_kept_in: L2}\n");
    spec_vs_sim::expect_near_bytes(bytes_per_iteration(transpose), sim, 0.03, "transpose, lines kept in L2");
}

// h[idx] += 1 at random over 32x the last level: each update reads a line and writes it back
// at every level (the model's upper bound: the few lines a cache still holds hit there).
TEST(KernelSpecAgainstCacheSim, RandomUpdatesMoveALineEachWayPerAccess) {
    const std::uint64_t n = 64 * 1024, m = 256 * 1024, h = 1 << 24;  // 2 MiB of doubles
    std::uint64_t x = 88172645463325252ull;
    const auto sim = spec_vs_sim::simulated(n, [&](std::uint64_t) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const std::uint64_t at = h + 8 * (x % m);
        return std::array<spec_vs_sim::Access, 2>{{{at, 8, RL_CS_LOAD}, {at, 8, RL_CS_STORE}}};
    });
    const KernelSpec histogram = spec_vs_sim::spec_of(
        "name: histogram\nflops: 1\nsizes: {N: 65536, M: 262144}\niterations: N\narrays:\n"
        "  - {name: h, type: double, reads: 1, writes: 1, elements: M, stride: random}\n");
    const auto model = bytes_per_iteration(histogram);
    EXPECT_DOUBLE_EQ(model.at("DRAM"), 128);
    spec_vs_sim::expect_near_bytes(model, sim, 0.05, "random updates");
}
