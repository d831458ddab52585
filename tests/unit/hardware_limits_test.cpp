// Figures no machine reaches, refused as a machine model is read (core/hardware_limits).
#include "core/hardware_limits.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace roofline;

namespace {

MachineModel measured_model() {
    MachineModel m;
    m.cpu.clock_ghz = 3.7;
    ComputeRoof dp;
    dp.name = "dp 512-bit fma+add, 1 thread";
    dp.precision = "dp";
    dp.gflops = 88.7;
    dp.theoretical_gflops = 88.8;
    m.compute.push_back(dp);
    ComputeRoof unknown_core = dp;  // a CPU the table does not know: no theory to judge by
    unknown_core.name = "dp peak, 2 threads";
    unknown_core.threads = 2;
    unknown_core.gflops = 170;
    unknown_core.theoretical_gflops = 0;
    m.compute.push_back(unknown_core);
    MemoryRoof dram;
    dram.level = "DRAM";
    dram.pattern = "load";
    dram.gbs = 31.6;
    m.memory.push_back(dram);
    CacheLevel l3;
    l3.level = 3;
    l3.size_bytes = 32ull << 20;
    l3.shared_by_cores = 2;
    m.caches.push_back(l3);
    return m;
}

bool has_text(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(HardwareLimits, AMeasuredModelWithinEveryLimitIsUnchanged) {
    MachineModel m = measured_model();
    EXPECT_TRUE(refuse_impossible_figures(m).empty());
    EXPECT_EQ(m.compute.size(), 2u);
    EXPECT_EQ(m.memory.size(), 1u);
    EXPECT_EQ(m.caches.size(), 1u);
}

TEST(HardwareLimits, FiguresEditedPastAnyMachineAreRefusedEachWithWhy) {
    MachineModel m = measured_model();
    m.compute[0].gflops *= 1000;  // above its theory
    m.compute[1].gflops *= 1000;  // no theory: 23,000 FLOP a cycle per core
    m.memory[0].gbs = 1e7;        // 10 PB/s from one core
    m.caches[0].size_bytes = 5ull << 30;
    const auto refused = refuse_impossible_figures(m);
    ASSERT_EQ(refused.size(), 4u);
    EXPECT_TRUE(has_text(refused, "dp 512-bit fma+add, 1 thread: 88700.0 GFLOP/s is 998.87x what the core allows"));
    EXPECT_TRUE(has_text(refused, "dp peak, 2 threads: 1.7e+05 G/s is 22973 operations per cycle per core"));
    EXPECT_TRUE(has_text(refused, "DRAM load 1 thread: 1e+07 GB/s is 2702703 bytes per cycle per core"));
    EXPECT_TRUE(has_text(refused, "L3 cache: 5 GiB is larger than any CPU's L3 (1 GiB)"));
    EXPECT_TRUE(m.compute.empty());
    EXPECT_TRUE(m.memory.empty());
    EXPECT_TRUE(m.caches.empty());
}

// An outer level far faster than the inner ones (DRAM edited 100x beside an L1 it must pass
// through) is refused as the model is read, not only when bench stores it.
TEST(HardwareLimits, AnOuterLevelFasterThanTheInnerOnesIsRefusedOnReading) {
    MachineModel m = measured_model();
    MemoryRoof l1 = m.memory[0];
    l1.level = "L1";
    l1.gbs = 233;
    m.memory.push_back(l1);
    EXPECT_TRUE(refuse_impossible_figures(m).empty());
    m.memory[0].gbs = 3160;  // DRAM x100
    const auto refused = refuse_impossible_figures(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_TRUE(has_text(refused, "DRAM load 1 thread: 3160.0 GB/s is 13.56x the 233.0 GB/s of L1 load")) << refused[0];
    ASSERT_EQ(m.memory.size(), 1u);
    EXPECT_EQ(m.memory[0].level, "L1");
}

TEST(HardwareLimits, ACacheSharedByFewCoresIsJudgedPerCore) {
    MachineModel m = measured_model();
    m.caches[0].size_bytes = 508ull << 20;  // a guest's claim: 508 MiB of L3 for one core
    m.caches[0].shared_by_cores = 1;
    const auto refused = refuse_impossible_figures(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_TRUE(has_text(refused, "508 MiB for each of 1 core is more than any CPU gives a core (64 MiB)")) << refused[0];
}

TEST(HardwareLimits, PerCycleLimitsNeedAClockAndKnowThePrecision) {
    EXPECT_EQ(work_rate_beyond_any_machine(1e9, "dp", 1, 0), "");  // no clock: nothing to judge by
    EXPECT_EQ(work_rate_beyond_any_machine(1000, "dp", 1, 1), "");  // 1000 a cycle: an fp64 matrix unit could
    EXPECT_NE(work_rate_beyond_any_machine(1100, "dp", 1, 1), "");
    EXPECT_EQ(work_rate_beyond_any_machine(8192, "fp8", 1, 1), "");  // an H100 SM's fp8 dense
    EXPECT_EQ(byte_rate_beyond_any_machine(320 * 3.7, 1, 3.7), "");  // Zen 5's L1, loads and stores
    EXPECT_NE(byte_rate_beyond_any_machine(1100, 1, 1), "");
}

// A model's GPU as it is read: the H200's real figures pass and the model is unchanged; an
// edited roof is refused under its GPU's number; what no table judged (here a clock above the
// max boost) is a warning of the model, added once however often it is read.
TEST(HardwareLimits, AGpusRoofsAreJudgedAsTheModelIsRead) {
    const auto h200 = machine_from_json(
        nlohmann::json::parse(read_text_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-machine.json")),
        "h200-machine.json");
    MachineModel m = h200;
    const auto warnings = m.environment.warnings;
    EXPECT_TRUE(refuse_impossible_figures(m).empty());
    EXPECT_EQ(m.gpus.at(0).compute.size(), h200.gpus.at(0).compute.size());
    EXPECT_EQ(m.environment.warnings, warnings);
    for (auto& r : m.gpus[0].compute)
        if (r.name == "fp64 fma") {
            r.clock_mhz = 4000;
            r.gflops = 60000;
        }
    const auto refused = refuse_impossible_figures(m);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_TRUE(has_text(refused, "GPU 0: fp64 fma: 60000 GFLOP/s is 1.79x what the specification allows")) << refused[0];
    EXPECT_TRUE(has_text(m.environment.warnings, "GPU 0 (NVIDIA H200): the SM clock read, 4000 MHz, is above the 1980 MHz "
                                                 "max boost of Hopper (H100)"));
    const auto noted = m.environment.warnings.size();
    m.gpus[0].max_sm_clock_mhz = 4000;  // the wrong clock again, on a second reading
    EXPECT_TRUE(refuse_impossible_figures(m).empty());
    EXPECT_EQ(m.environment.warnings.size(), noted);
}
