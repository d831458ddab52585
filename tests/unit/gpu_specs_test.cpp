// The GPU limit guard (core/gpu_specs): every roof is held to something. What the H200
// measured is kept; each way a false figure escaped the guard (a clock above the max boost,
// no SMs, an architecture or a unit no table holds, DRAM without the memory interface's
// figures, L1, L2 and the bus without a bound) is closed, each with a refused case.
#include "core/gpu_specs.hpp"
#include "core/hardware_limits.hpp"
#include "core/precision.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using namespace roofline;

namespace {

std::string data(const std::string& name) { return std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/" + name; }

// What bench --gpu made on the H200 (tests/data/gpu/README.md): every roof real.
GpuModel h200_measured() {
    const auto m = machine_from_json(nlohmann::json::parse(read_text_file(data("h200-machine.json"))), "h200-machine.json");
    return m.gpus.at(0);
}

// What roofline-gpubench wrote there before its tensor loops were made observable, as bench
// reads it (the clock the compute roofs ran at is the GPU's).
GpuModel h200_before() {
    auto g = gpu_from_gpubench_json(nlohmann::json::parse(read_text_file(data("h200-gpubench-before.json"))),
                                    "h200-gpubench-before.json");
    for (const auto& r : g.compute) g.sm_clock_mhz = std::max(g.sm_clock_mhz, r.clock_mhz);
    return g;
}

GpuComputeRoof& compute(GpuModel& g, const std::string& name) {
    const auto it = std::find_if(g.compute.begin(), g.compute.end(), [&](const auto& r) { return r.name == name; });
    if (it == g.compute.end()) throw std::runtime_error("no compute roof " + name);
    return *it;
}

bool has_compute(const GpuModel& g, const std::string& name) {
    return std::any_of(g.compute.begin(), g.compute.end(), [&](const auto& r) { return r.name == name; });
}

GpuMemoryRoof& memory(GpuModel& g, const std::string& level, const std::string& pattern) {
    const auto it = std::find_if(g.memory.begin(), g.memory.end(),
                                 [&](const auto& r) { return r.level == level && r.pattern == pattern; });
    if (it == g.memory.end()) throw std::runtime_error("no memory roof " + level + " " + pattern);
    return *it;
}

bool has_memory(const GpuModel& g, const std::string& level, const std::string& pattern) {
    return std::any_of(g.memory.begin(), g.memory.end(),
                       [&](const auto& r) { return r.level == level && r.pattern == pattern; });
}

// The one line of `lines` that holds every one of `texts`.
bool has_line(const std::vector<std::string>& lines, std::initializer_list<std::string> texts) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return std::all_of(texts.begin(), texts.end(), [&](const std::string& t) { return l.find(t) != std::string::npos; });
    });
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

} // namespace

TEST(GpuSpecs, EveryRowStaysWithinTheBoundsAnyGpuKeeps) {
    // A generic bound below a table's rate would refuse what the table allows.
    for (const char* id : {"sm_70", "sm_80", "sm_90"}) {
        const auto arch = gpu_architecture(GpuVendor::nvidia, id);
        ASSERT_TRUE(arch) << id;
        for (const char* p : {"fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "int8", "int32", "lop3", "popc"})
            for (bool tensor : {false, true})
                EXPECT_LE(gpu_rate_per_clock(*arch, p, tensor), gpu_max_work_per_clock_per_sm(p)) << id << " " << p;
        EXPECT_GT(arch->max_boost_mhz, 0) << id;
        EXPECT_LE(arch->max_boost_mhz, kFastestGpuClockMhz) << id;
        EXPECT_EQ(arch->l1_bytes_per_clock, 128) << id;
        EXPECT_LE(arch->l1_bytes_per_clock, kMaxGpuBytesPerClockPerSm) << id;
    }
    // Each row's max boost covers the fastest part of its compute capability: V100 SXM2's 1530 MHz
    // and more, A100's 1410 (A30's 1440), H100 SXM5's and H200's 1980.
    EXPECT_GE(gpu_architecture(GpuVendor::nvidia, "sm_70")->max_boost_mhz, 1530);
    EXPECT_GE(gpu_architecture(GpuVendor::nvidia, "sm_80")->max_boost_mhz, 1410);
    EXPECT_EQ(gpu_architecture(GpuVendor::nvidia, "sm_90")->max_boost_mhz, 1980);
}

TEST(GpuLimitGuard, WhatTheH200MeasuredIsKeptWithoutANote) {
    auto g = h200_measured();
    const auto before = g;
    std::vector<std::string> notes;
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(g, &notes).empty());
    EXPECT_TRUE(notes.empty()) << joined(notes);
    EXPECT_EQ(g.compute.size(), before.compute.size());
    EXPECT_EQ(g.memory.size(), before.memory.size());
    EXPECT_EQ(g.bus.size(), before.bus.size());
    // The run whose tensor rows were 1.7-2.3x the dense limit: those refused, the real figures kept
    // (fp64 FMA 33.2 TFLOP/s at 1980 MHz, L1 32486 GB/s, DRAM 4208 GB/s, the bus 55 GB/s pinned).
    auto b = h200_before();
    const auto refused = refuse_gpu_roofs_above_limit(b, &notes);
    EXPECT_TRUE(has_line(refused, {"fp16 tensor (wmma", "2296250", "what the specification allows", "refused"}))
        << joined(refused);
    EXPECT_EQ(refused.size(), 4u) << joined(refused);
    EXPECT_TRUE(notes.empty()) << joined(notes);
    EXPECT_DOUBLE_EQ(compute(b, "fp64 fma").gflops, 33183.4);
    EXPECT_DOUBLE_EQ(memory(b, "L1", "read").gbs, 32486.4);
    EXPECT_DOUBLE_EQ(memory(b, "DRAM", "read").gbs, 4207.77);
    EXPECT_EQ(b.memory.size(), 5u);
    EXPECT_EQ(b.bus.size(), 5u);
    EXPECT_FALSE(std::any_of(b.compute.begin(), b.compute.end(), [](const auto& r) { return r.tensor; }));
}

TEST(GpuLimitGuard, AClockAboveTheMaxBoostDoesNotRaiseTheLimitAndIsNamed) {
    // The table's figure cannot grow with a false clock.
    EXPECT_DOUBLE_EQ(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp64", false, 132, 4000),
                     gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp64", false, 132, 1980));
    // 60 TFLOP/s fp64 FMA "at 4000 MHz" passed before (67.6 allowed there); at the H200's 1980 MHz
    // it is 1.79x the limit. The real fp32 FMA roof with the same false clock stays.
    auto g = h200_measured();
    compute(g, "fp64 fma").clock_mhz = 4000;
    compute(g, "fp64 fma").gflops = 60000;
    compute(g, "fp32 fma").clock_mhz = 4000;
    std::vector<std::string> notes;
    const auto refused = refuse_gpu_roofs_above_limit(g, &notes);
    ASSERT_EQ(refused.size(), 1u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"fp64 fma: 60000 GFLOP/s is 1.79x what the specification allows (33454 at 1980 MHz",
                                   "the clock read, 4000 MHz, is above the 1980 MHz max boost of Hopper (H100)"}))
        << refused[0];
    EXPECT_FALSE(has_compute(g, "fp64 fma"));
    EXPECT_TRUE(has_compute(g, "fp32 fma"));
    EXPECT_TRUE(has_line(notes, {"the SM clock read, 4000 MHz, is above the 1980 MHz max boost", "wrong reading"}))
        << joined(notes);
    // No clock read on the roofs, a false max clock: judged at the max boost all the same.
    auto h = h200_measured();
    h.sm_clock_mhz = 0;
    h.max_sm_clock_mhz = 9000;
    for (auto& r : h.compute) r.clock_mhz = 0;
    compute(h, "fp64 fma").gflops = 60000;
    const auto refused_h = refuse_gpu_roofs_above_limit(h);
    ASSERT_EQ(refused_h.size(), 1u) << joined(refused_h);
    EXPECT_TRUE(has_line(refused_h, {"fp64 fma", "at 1980 MHz", "9000 MHz"})) << refused_h[0];
    // A clock within the tolerance of the max boost is no wrong reading.
    auto k = h200_measured();
    k.max_sm_clock_mhz = 2000;
    notes.clear();
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(k, &notes).empty());
    EXPECT_TRUE(notes.empty()) << joined(notes);
}

TEST(GpuLimitGuard, AGpuOfNoSmsRanNoKernel) {
    auto g = h200_measured();
    g.sm_count = 0;
    const auto bus = g.bus.size();
    const auto refused = refuse_gpu_roofs_above_limit(g);
    EXPECT_TRUE(has_line(refused, {"fp64 fma: 32840 GFLOP/s on a GPU of 0 SMs", "refused"})) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"L1 read: 32083 GB/s on a GPU of 0 SMs"})) << joined(refused);
    EXPECT_TRUE(g.compute.empty());
    EXPECT_TRUE(g.memory.empty());
    EXPECT_EQ(g.bus.size(), bus);  // copy engines, not kernels: judged as any bus roof
}

TEST(GpuLimitGuard, AnArchitectureNoTableHoldsIsHeldToTheBoundsAnyGpuKeepsAndSaidSo) {
    // The H200's figures as if its compute capability were one the table lacks: kept (the bounds
    // any GPU keeps are far above them), and said to be judged by no table.
    auto g = h200_measured();
    g.compute_capability_major = 10;
    std::vector<std::string> notes;
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(g, &notes).empty());
    EXPECT_EQ(g.compute.size(), h200_measured().compute.size());
    EXPECT_TRUE(has_line(notes, {"nvidia architecture sm_100 is in no specification table",
                                 "held only to the bounds any GPU keeps"}))
        << joined(notes);
    // 1e6 TFLOP/s of fp16 tensor work: past what any GPU does per SM per clock.
    g.compute.push_back({"fp16 tensor", "fp16", "FLOP", true, 1e9, 0, 1980, {}});
    const auto refused = refuse_gpu_roofs_above_limit(g);
    ASSERT_EQ(refused.size(), 1u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"fp16 tensor: 1000000000 GFLOP/s", "what any GPU does (16384 FLOP per SM per clock",
                                   "sm_100 is in no specification table", "refused"}))
        << refused[0];
    // A clock no GPU runs at does not raise the bound either.
    g.compute.push_back({"fp16 tensor", "fp16", "FLOP", true, 2e7, 0, 90000, {}});
    EXPECT_TRUE(has_line(refuse_gpu_roofs_above_limit(g), {"at 3500 MHz", "the clock read, 90000 MHz"}));
    // An unknown vendor's GPU: no table, never another vendor's; the same bounds, nothing thrown.
    auto u = h200_measured();
    u.vendor = GpuVendor::unknown;
    u.compute.push_back({"fp64 fma", "fp64", "FLOP", false, 1e8, 0, 1980, {}});
    notes.clear();
    const auto refused_u = refuse_gpu_roofs_above_limit(u, &notes);
    EXPECT_TRUE(has_line(refused_u, {"fp64 fma: 100000000 GFLOP/s", "what any GPU does"})) << joined(refused_u);
    EXPECT_TRUE(has_line(notes, {"unknown vendor", "held only to the bounds any GPU keeps"})) << joined(notes);
    EXPECT_TRUE(has_compute(u, "fp32 fma"));
}

TEST(GpuLimitGuard, AUnitTheTableHasNoRateForIsHeldToTheBoundsAnyGpuKeeps) {
    // Volta has no bf16 tensor cores: a roof of them is judged by what any GPU does, and said so.
    GpuModel v;
    v.name = "Tesla V100-SXM2-16GB";
    v.compute_capability_major = 7;
    v.sm_count = 80;
    v.max_sm_clock_mhz = 1530;
    v.compute = {{"fp64 fma", "fp64", "FLOP", false, 7700, 0, 1530, {}},
                 {"bf16 tensor", "bf16", "FLOP", true, 100000, 0, 1530, {}},
                 {"bf16 tensor (edited)", "bf16", "FLOP", true, 1e8, 0, 1530, {}}};
    std::vector<std::string> notes;
    const auto refused = refuse_gpu_roofs_above_limit(v, &notes);
    ASSERT_EQ(refused.size(), 1u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"bf16 tensor (edited)", "what any GPU does",
                                   "Volta (V100) has no bf16 rate for its tensor cores"}))
        << refused[0];
    EXPECT_TRUE(has_compute(v, "bf16 tensor"));
    EXPECT_TRUE(has_line(notes, {"bf16 tensor: Volta (V100) has no bf16 rate for its tensor cores",
                                 "held only to the 16384 FLOP per SM per clock"}))
        << joined(notes);
}

TEST(GpuLimitGuard, DramWithoutTheMemoryInterfacesFiguresIsBoundedAndSaidSo) {
    // With the interface's figures: the H200's 4814 GB/s judges (6000 refused, 4350 kept).
    auto g = h200_measured();
    memory(g, "DRAM", "copy").gbs = 6000;
    auto refused = refuse_gpu_roofs_above_limit(g);
    EXPECT_TRUE(has_line(refused, {"DRAM copy: 6000 GB/s is 1.25x what the memory interface allows (4814 GB/s)"}))
        << joined(refused);
    EXPECT_TRUE(has_memory(g, "DRAM", "read"));
    // Without them: the real 4350 GB/s kept, with a note; 40 TB/s refused (past any GPU's memory).
    auto n = h200_measured();
    n.memory_clock_mhz = 0;
    n.memory_bus_bits = 0;
    memory(n, "DRAM", "copy").gbs = 40000;
    std::vector<std::string> notes;
    refused = refuse_gpu_roofs_above_limit(n, &notes);
    ASSERT_EQ(refused.size(), 1u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"DRAM copy: 40000 GB/s is 1.25x what any GPU's memory delivers (32000 GB/s"}))
        << refused[0];
    EXPECT_DOUBLE_EQ(memory(n, "DRAM", "read").gbs, 4349.73);
    EXPECT_TRUE(has_line(notes, {"DRAM: no memory clock or bus width", "2 roofs"})) << joined(notes);
    // Few SMs: the SMs' L1 bounds DRAM below the fixed figure (10 SMs x 128 B x 1980 MHz = 2534 GB/s).
    auto f = h200_measured();
    f.sm_count = 10;
    f.memory_clock_mhz = 0;
    f.compute.clear();
    refused = refuse_gpu_roofs_above_limit(f);
    EXPECT_TRUE(has_line(refused, {"DRAM read: 4350 GB/s", "what the SMs' L1 moves (128 B per clock per SM x 10 SMs"}))
        << joined(refused);
}

TEST(GpuLimitGuard, L1AndL2AreHeldToWhatTheSmsL1Moves) {
    // 128 B per clock per SM x 132 SMs x 1980 MHz = 33454 GB/s: the H200's L1 (32083, 96%) and
    // L2 (8220) kept; an L1 of 40 TB/s and an L2 of 36 TB/s refused.
    auto g = h200_measured();
    std::vector<std::string> notes;
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(g, &notes).empty());
    memory(g, "L1", "read").gbs = 40000;
    memory(g, "L2", "read").gbs = 36000;
    const auto refused = refuse_gpu_roofs_above_limit(g);
    ASSERT_EQ(refused.size(), 2u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"L1 read: 40000 GB/s is 1.20x what the SMs' L1 moves (128 B per clock per SM x 132 "
                                   "SMs at 1980 MHz: 33454 GB/s)"}))
        << joined(refused);
    EXPECT_TRUE(has_line(refused, {"L2 read: 36000 GB/s is 1.08x", "an L2 cannot deliver more than the SMs take in"}))
        << joined(refused);
    EXPECT_FALSE(has_memory(g, "L1", "read"));
    EXPECT_FALSE(has_memory(g, "L2", "read"));
    EXPECT_EQ(g.memory.size(), 3u);  // the DRAM roofs
}

TEST(GpuLimitGuard, TheBusIsHeldToTheFastestHostLink) {
    // The H200's PCIe 5.0 x16 (55 GB/s each way, 98 both) kept; 600 GB/s one way and 1000 both
    // ways refused (NVLink-C2C, the fastest, 450 each way); 850 both ways kept.
    auto g = h200_measured();
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(g).empty());
    g.bus.push_back({"h2d", true, 600, 0, {}});
    g.bus.push_back({"bidirectional", true, 1000, 0, {}});
    g.bus.push_back({"bidirectional", false, 850, 0, {}});
    const auto refused = refuse_gpu_roofs_above_limit(g);
    ASSERT_EQ(refused.size(), 2u) << joined(refused);
    EXPECT_TRUE(has_line(refused, {"bus h2d pinned: 600 GB/s is 1.33x what any host link carries (450 GB/s one way"}))
        << joined(refused);
    EXPECT_TRUE(has_line(refused, {"bus bidirectional pinned: 1000 GB/s", "900 GB/s both ways at once"}))
        << joined(refused);
    EXPECT_EQ(g.bus.size(), h200_measured().bus.size() + 1);
    EXPECT_DOUBLE_EQ(g.bus.front().gbs, 55.0853);
}
