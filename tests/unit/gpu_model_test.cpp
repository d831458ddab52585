// The GPU part of the machine model: theoretical figures from the architecture
// table (checked against the whitepapers' published peaks) and the `gpus`
// section of roofline.machine/1 written, read back and refused when wrong.
#include "core/gpu_model.hpp"
#include "core/gpu_roofline.hpp"
#include "core/gpu_specs.hpp"
#include "core/point_device.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

using namespace roofline;

namespace {

std::string read_error(nlohmann::json j) {
    try {
        machine_from_json(j, "m.json");
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

nlohmann::json machine_with_gpu(nlohmann::json gpu) {
    return {{"schema", "roofline.machine/1"}, {"cpu", {{"model", "x"}}}, {"gpus", nlohmann::json::array({gpu})}};
}

} // namespace

TEST(GpuSpecs, TheoreticalPeaksMatchThePublishedOnes) {
    // H100 SXM5, 132 SMs: vector units at 1980 MHz, tensor cores at the 1830 MHz NVIDIA quotes them at.
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp64", false, 132, 1980), 33450, 50);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp32", false, 132, 1980), 66900, 100);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp64", true, 132, 1980), 66900, 100);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "bf16", true, 132, 1830), 989400, 1000);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "tf32", true, 132, 1830), 494700, 500);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp8", true, 132, 1830), 1978900, 2000);
    // A100 SXM4, 108 SMs at 1410 MHz.
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_80", "fp32", false, 108, 1410), 19490, 20);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_80", "fp16", true, 108, 1410), 311900, 300);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_80", "bf16", false, 108, 1410), 38980, 50);  // half the FP16 rate
    // V100 SXM2, 80 SMs at 1530 MHz.
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_70", "fp64", false, 80, 1530), 7834, 10);
    EXPECT_NEAR(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_70", "fp16", true, 80, 1530), 125337, 100);
    // What a unit does not have, or an architecture not in the table: 0 (unknown), never a guess.
    EXPECT_EQ(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_70", "bf16", true, 80, 1530), 0);
    EXPECT_EQ(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_86", "fp32", false, 84, 1700), 0);
    EXPECT_EQ(gpu_theoretical_gflops(GpuVendor::nvidia, "sm_90", "fp32", false, 0, 1980), 0);
    // The table is keyed by vendor and architecture: another vendor's architecture is not NVIDIA's,
    // and a GPU of an unknown vendor is refused, never judged against NVIDIA's figures.
    EXPECT_EQ(gpu_theoretical_gflops(GpuVendor::amd, "sm_90", "fp32", false, 132, 1980), 0);
    EXPECT_THROW(gpu_theoretical_gflops(GpuVendor::unknown, "sm_90", "fp32", false, 132, 1980), std::invalid_argument);
    // HBM3 of an H100 SXM5: NVML's 2619 MHz x 2 x 5120 bits = 3.35 TB/s; A100 40 GB: 1215 MHz x 2 x 5120 bits.
    EXPECT_NEAR(gpu_theoretical_dram_gbs(2619, 5120), 3352, 1);
    EXPECT_NEAR(gpu_theoretical_dram_gbs(1215, 5120), 1555, 1);
    EXPECT_EQ(gpu_theoretical_dram_gbs(0, 5120), 0);
}

TEST(GpuModelJson, RoundTrip) {
    MachineModel m;
    m.cpu.model = "Host CPU";
    GpuModel g;
    g.index = 1;
    g.name = "NVIDIA H100 80GB HBM3";
    g.compute_capability_major = 9;
    g.sm_count = 132;
    g.sm_clock_mhz = 1980;
    g.memory_clock_mhz = 2619;
    g.memory_bus_bits = 5120;
    g.memory_bytes = 85899345920ull;
    g.compute.push_back({"fp64 fma", "fp64", "FLOP", false, 32000, 33450, 1980, {}});
    g.compute.push_back({"lop3", "lop3", "OP", false, 16000, 16727, 1980, {}});
    GpuMemoryRoof hbm;
    hbm.level = "DRAM";
    hbm.pattern = "copy";
    hbm.gbs = 3000;
    hbm.theoretical_gbs = 3352;
    hbm.blocks_per_sm = 4;
    g.memory.push_back(hbm);
    g.bus.push_back({"h2d", true, 52.1, 256u << 20, {}});
    m.gpus.push_back(g);
    const auto j = machine_to_json(m);
    EXPECT_EQ(j["gpus"][0]["compute_capability"], "9.0");
    EXPECT_EQ(j["gpus"][0]["vendor"], "nvidia");
    EXPECT_FALSE(j["gpus"][0].contains("architecture"));  // NVIDIA's is its compute capability
    EXPECT_NEAR(j["gpus"][0]["compute"][0]["efficiency"].get<double>(), 32000.0 / 33450, 1e-12);
    const auto back = machine_from_json(j, "m.json");
    ASSERT_EQ(back.gpus.size(), 1u);
    const auto& b = back.gpus[0];
    EXPECT_EQ(b.index, 1);
    EXPECT_EQ(b.name, g.name);
    EXPECT_EQ(b.compute_capability_major, 9);
    EXPECT_EQ(b.compute_capability_minor, 0);
    EXPECT_EQ(b.vendor, GpuVendor::nvidia);
    EXPECT_EQ(gpu_architecture_id(b), "sm_90");
    EXPECT_EQ(b.memory_bytes, g.memory_bytes);
    ASSERT_EQ(b.compute.size(), 2u);
    EXPECT_EQ(b.compute[1].work_unit, "OP");
    EXPECT_DOUBLE_EQ(b.compute[0].theoretical_gflops, 33450);
    ASSERT_EQ(b.memory.size(), 1u);
    EXPECT_EQ(b.memory[0].blocks_per_sm, 4);
    ASSERT_EQ(b.bus.size(), 1u);
    EXPECT_EQ(b.bus[0].direction, "h2d");
    EXPECT_EQ(b.bus[0].bytes, 256u << 20);
    // A model without GPUs writes no gpus section (files of CPU-only machines do not change).
    MachineModel cpu_only;
    cpu_only.cpu.model = "x";
    EXPECT_FALSE(machine_to_json(cpu_only).contains("gpus"));
}

TEST(GpuModelJson, WrongValuesAreRefusedWithTheirPath) {
    const nlohmann::json ok = {{"name", "G"}, {"compute", {{{"precision", "fp32"}, {"gflops", 100}}}}};
    EXPECT_NO_THROW(machine_from_json(machine_with_gpu(ok), "m.json"));
    // Both spellings are read; a GPU roof keeps the GPU's ("dp" is fp64).
    auto dp = ok;
    dp["compute"][0]["precision"] = "dp";
    EXPECT_EQ(machine_from_json(machine_with_gpu(dp), "m.json").gpus[0].compute[0].precision, "fp64");
    auto bad = ok;
    bad["compute"][0]["precision"] = "fp128";
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("unknown GPU precision \"fp128\""), std::string::npos);
    bad = ok;
    bad["compute"][0]["gflops"] = -1;
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("/gpus/0/compute/0/gflops"), std::string::npos);
    bad = ok;
    bad["compute_capability"] = "nine";
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("compute capability"), std::string::npos);
    bad = ok;
    bad["vendor"] = "matrox";
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("\"nvidia\", \"amd\", \"intel\" or \"unknown\""),
              std::string::npos);
    bad = ok;
    bad["architecture"] = "gfx 942\n";
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("/gpus/0/architecture"), std::string::npos);
    bad = ok;
    bad["bus"] = {{{"direction", "sideways"}, {"gbs", 10}}};
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("\"h2d\", \"d2h\" or \"bidirectional\""), std::string::npos);
    bad = ok;
    bad["memory"] = {{{"level", "L7"}, {"pattern", "copy"}, {"gbs", 10}}};
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("unknown level"), std::string::npos);
    bad = ok;
    bad["sm_clock_mhz"] = 1e9;
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("sm_clock_mhz"), std::string::npos);
    bad = ok;
    bad.erase("name");
    EXPECT_NE(read_error(machine_with_gpu(bad)).find("name"), std::string::npos);
}

TEST(GpuBenchJson, ReadsTheProgramsOutputAndFillsTheTheory) {
    const std::string path =
        (std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "gpubench-example.json").string();
    auto g = gpu_from_gpubench_json(nlohmann::json::parse(read_text_file(path)), path);
    fill_gpu_theoretical(g);
    EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g.sm_count, 132);
    ASSERT_EQ(g.compute.size(), 3u);
    EXPECT_NEAR(g.compute[0].theoretical_gflops, 132 * 1980 * 128e-3, 1e-6);     // fp64 at the clock it ran at
    EXPECT_NEAR(g.compute[1].theoretical_gflops, 132 * 1755 * 4096e-3, 1e-6);    // bf16 tensor at 1755 MHz
    EXPECT_NEAR(g.compute[2].theoretical_gflops, 132 * 1980 * 64e-3, 1e-6);      // lop3
    ASSERT_EQ(g.memory.size(), 2u);
    EXPECT_NEAR(g.memory[0].theoretical_gbs, 3352.32, 0.01);  // DRAM: 2619 MHz x 2 x 5120 bits
    EXPECT_EQ(g.memory[1].theoretical_gbs, 0);                // L2: no figure in the table, unknown
    ASSERT_EQ(g.bus.size(), 2u);
    EXPECT_EQ(g.bus[1].direction, "bidirectional");
    // What another program wrote is refused by its schema.
    EXPECT_THROW(gpu_from_gpubench_json({{"schema", "roofline.machine/1"}}, "x"), std::exception);
    EXPECT_THROW(gpu_from_gpubench_json({{"schema", "roofline.gpubench/1"}}, "x"), std::exception);  // no gpu
}

TEST(GpuRoofline, TensorRoofOnTopVectorUnderItAndTheBusAsItsOwnRoof) {
    GpuModel g;
    g.index = 0;
    g.name = "G";
    g.compute = {{"fp16 fma (half2)", "fp16", "FLOP", false, 120000, 0, 0, {}},
                 {"fp16 tensor", "fp16", "FLOP", true, 700000, 0, 0, {}},
                 {"fp64 fma", "fp64", "FLOP", false, 30000, 0, 0, {}},
                 {"lop3", "lop3", "OP", false, 16000, 0, 0, {}}};
    GpuMemoryRoof dram{"DRAM", "copy", 2900, 0, 0, 4, {}}, read{"DRAM", "read", 2500, 0, 0, 4, {}},
        l2{"L2", "read", 9000, 0, 0, 8, {}};
    g.memory = {read, dram, l2};
    g.bus = {{"h2d", true, 52, 0, {}}, {"d2h", true, 48, 0, {}}, {"bidirectional", true, 98, 0, {}},
             {"h2d", false, 20, 0, {}}};
    const Roofline r = gpu_roofline(g, "fp16");
    EXPECT_EQ(r.label, "G (GPU 0)");
    EXPECT_EQ(r.compute.name, "FP16 tensor peak");
    EXPECT_DOUBLE_EQ(r.compute.value, 700000);
    ASSERT_EQ(r.bandwidth.size(), 3u);  // L2, DRAM, PCIe in level order
    EXPECT_EQ(r.bandwidth[0].level, "L2");
    EXPECT_EQ(r.bandwidth[1].name, "DRAM copy");
    EXPECT_DOUBLE_EQ(r.bandwidth[1].value, 2900);
    EXPECT_EQ(r.bandwidth[2].level, "PCIe");
    EXPECT_DOUBLE_EQ(r.bandwidth[2].value, 52);  // one way, pinned: not the bidirectional sum
    const auto has = [&](const std::string& name) {
        return std::any_of(r.ceilings.begin(), r.ceilings.end(), [&](const Ceiling& c) { return c.name == name; });
    };
    EXPECT_TRUE(has("fp16 fma (half2)"));  // the vector units under the tensor cores
    EXPECT_TRUE(has("DRAM read"));
    EXPECT_TRUE(has("PCIe h2d pageable"));
    EXPECT_FALSE(has("fp64 fma"));  // another precision
    // Without the tensor cores the vector units are the roof; bit work is counted in OP.
    EXPECT_DOUBLE_EQ(gpu_roofline(g, "fp16", false).compute.value, 120000);
    const Roofline bits = gpu_roofline(g, "lop3");
    EXPECT_EQ(bits.work_unit, "OP");
    EXPECT_THROW(gpu_roofline(g, "tf32"), std::invalid_argument);
    // The CPU's spelling names the same roof: "dp" is the GPU's fp64.
    const Roofline dp = gpu_roofline(g, "dp");
    EXPECT_EQ(dp.precision, "fp64");
    EXPECT_DOUBLE_EQ(dp.compute.value, 30000);
    // An offload: P = min(peak, B_mem I, B_bus TI) with the bus roof in the same roofline.
    Point offload;
    offload.name = "offload";
    offload.work = 1e12;
    offload.seconds = 1;
    offload.bytes = {{"DRAM", 1e9}, {"PCIe", 1e11}};  // TI = 10 FLOP per bus byte
    EXPECT_NEAR(attainable(r, offload, View::carm), 52 * 10, 1e-9);
}

TEST(GpuRoofline, TensorWorkIsJudgedOnlyOnATensorRoofOfItsPrecision) {
    GpuModel g;
    g.index = 0;
    g.name = "G";
    // The model bench --gpu made when the limit guard refused every tensor row: FMA roofs only.
    g.compute = {{"fp16 fma (half2)", "fp16", "FLOP", false, 110000, 0, 0, {}},
                 {"fp64 fma", "fp64", "FLOP", false, 33000, 0, 0, {}}};
    EXPECT_FALSE(has_gpu_tensor_roof(g, "fp16"));
    EXPECT_DOUBLE_EQ(gpu_roofline(g, "fp16").compute.value, 110000) << "any roof of fp16, for FMA work";
    try {
        gpu_roofline(g, "fp16", true, true);
        ADD_FAILURE() << "an HGEMM on the half2 FMA roof";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("no fp16 tensor roof"), std::string::npos) << e.what();
    }
    g.compute.push_back({"fp16 tensor", "fp16", "FLOP", true, 900000, 0, 0, {}});
    EXPECT_TRUE(has_gpu_tensor_roof(g, "fp16"));
    EXPECT_FALSE(has_gpu_tensor_roof(g, "dp"));
    const Roofline tensor = gpu_roofline(g, "fp16", true, true);
    EXPECT_EQ(tensor.compute.name, "FP16 tensor peak");
    EXPECT_DOUBLE_EQ(tensor.compute.value, 900000);
}

TEST(GpuRoofline, AGpuKernelAboveItsRoofGetsGpuCausesNotACpuRunsOnes) {
    GpuModel g;
    g.index = 0;
    g.name = "G";
    g.compute = {{"fp64 fma", "fp64", "FLOP", false, 33000, 0, 0, {}}};
    g.memory = {{"DRAM", "read", 4000, 0, 0, 4, {}}};
    Point p;
    p.name = "dgemm on DMMA";
    p.source = PointOrigin::ncu;
    p.work = 63e12;  // 63 TFLOP/s against a 33 TFLOP/s FMA roof
    p.seconds = 1;
    p.bytes = {{"DRAM", 1e11}};
    const auto a = analyze(gpu_roofline(g, "fp64"), p, View::carm);
    ASSERT_TRUE(a.above_roof);
    const auto& causes = a.above_roof->causes;
    EXPECT_EQ(causes.front(), AboveRoof::Cause::gpu_wrong_roof);
    for (auto cpu_cause : {AboveRoof::Cause::more_threads_than_roofline, AboveRoof::Cause::self_time_only,
                           AboveRoof::Cause::work_outside_timing, AboveRoof::Cause::working_set_near_cache})
        EXPECT_EQ(std::find(causes.begin(), causes.end(), cpu_cause), causes.end());
}

namespace roofline {
namespace {

// What roofline-gpubench wrote on an H200 before its tensor loops were made observable: the
// tensor rows are 1.7-2.3x the dense limit (tests/data/gpu/README.md). The guard refuses each,
// naming it; the vector-unit rows, within the limit, stay.
TEST(GpuLimitGuard, TheH200FiguresAboveTheHardwareAreRefused) {
    auto gpu = gpu_from_gpubench_json(
        nlohmann::json::parse(read_text_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-gpubench-before.json")),
        "h200-gpubench-before.json");
    for (const auto& r : gpu.compute) gpu.sm_clock_mhz = std::max(gpu.sm_clock_mhz, r.clock_mhz);
    fill_gpu_theoretical(gpu);
    const auto refused = refuse_gpu_roofs_above_limit(gpu);
    ASSERT_GE(refused.size(), 4u);
    for (const char* name : {"fp16", "bf16", "tf32", "fp64"}) {
        const bool named = std::any_of(refused.begin(), refused.end(), [&](const std::string& why) {
            return why.find(std::string(name)) != std::string::npos && why.find("tensor") != std::string::npos;
        });
        EXPECT_TRUE(named) << name << " tensor not refused";
    }
    for (const auto& r : gpu.compute) {
        EXPECT_FALSE(r.tensor) << r.name << " kept at " << r.gflops;
        EXPECT_LE(r.gflops, 1.03 * r.theoretical_gflops) << r.name;
    }
    const bool fp64_fma_kept =
        std::any_of(gpu.compute.begin(), gpu.compute.end(), [](const GpuComputeRoof& r) { return r.name == "fp64 fma"; });
    EXPECT_TRUE(fp64_fma_kept);
}

} // namespace
} // namespace roofline

TEST(GpuVendor, OneNameTableAndOlderModelsReadAsNvidia) {
    for (auto v : {GpuVendor::nvidia, GpuVendor::amd, GpuVendor::intel, GpuVendor::unknown})
        EXPECT_EQ(parse_gpu_vendor(gpu_vendor_name(v)), v);
    EXPECT_EQ(parse_gpu_vendor("NVIDIA Corporation"), GpuVendor::nvidia);
    EXPECT_EQ(parse_gpu_vendor("AMD"), GpuVendor::amd);
    EXPECT_EQ(parse_gpu_vendor("Advanced Micro Devices, Inc."), GpuVendor::amd);
    EXPECT_EQ(parse_gpu_vendor("Intel"), GpuVendor::intel);
    EXPECT_FALSE(parse_gpu_vendor("nvdia"));
    // A model written before the field existed: its GPU is NVIDIA's (the only vendor ever measured).
    const nlohmann::json old = {{"name", "NVIDIA H200"}, {"compute_capability", "9.0"}};
    const auto m = machine_from_json(machine_with_gpu(old), "m.json");
    ASSERT_EQ(m.gpus.size(), 1u);
    EXPECT_EQ(m.gpus[0].vendor, GpuVendor::nvidia);
    EXPECT_TRUE(gpu_architecture_of(m.gpus[0]));
    EXPECT_EQ(gpu_architecture_of(m.gpus[0])->name, std::string("Hopper (H100)"));
}

TEST(GpuVendor, AnotherVendorsGpuIsKeptAndNeverJudgedByNvidiasTable) {
    MachineModel m;
    m.cpu.model = "Host CPU";
    GpuModel g;
    g.vendor = GpuVendor::amd;
    g.architecture = "gfx942";
    g.name = "AMD Instinct MI300X";
    g.compute_capability_major = 9;  // even a stray compute capability does not reach NVIDIA's rows
    g.sm_count = 304;
    g.sm_clock_mhz = 2100;
    g.compute.push_back({"fp64 fma", "fp64", "FLOP", false, 70000, 0, 2100, {}});
    m.gpus.push_back(g);
    const auto back = machine_from_json(machine_to_json(m), "m.json");
    ASSERT_EQ(back.gpus.size(), 1u);
    EXPECT_EQ(back.gpus[0].vendor, GpuVendor::amd);
    EXPECT_EQ(gpu_architecture_id(back.gpus[0]), "gfx942");
    EXPECT_FALSE(gpu_architecture_of(back.gpus[0]));  // not in the table: theory unknown, roofs kept
    auto filled = back.gpus[0];
    fill_gpu_theoretical(filled);
    EXPECT_EQ(filled.compute[0].theoretical_gflops, 0);
    // Kept, held to the bounds any GPU keeps (110 FLOP per CU per clock, under 512), and said so.
    std::vector<std::string> notes;
    EXPECT_TRUE(refuse_gpu_roofs_above_limit(filled, &notes).empty());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("amd architecture gfx942 is in no specification table"), std::string::npos) << notes[0];
    // An unknown vendor: refused where the rates are needed, with a message that says why.
    auto unknown = back.gpus[0];
    unknown.vendor = GpuVendor::unknown;
    try {
        fill_gpu_theoretical(unknown);
        ADD_FAILURE() << "an unknown vendor's GPU was judged";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown vendor"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("AMD Instinct MI300X"), std::string::npos) << e.what();
    }
    EXPECT_EQ(machine_from_json(machine_to_json([&] {
                                    MachineModel u = m;
                                    u.gpus[0].vendor = GpuVendor::unknown;
                                    return u;
                                }()),
                                "m.json")
                  .gpus[0]
                  .vendor,
              GpuVendor::unknown);
}

TEST(PointDevice, APointIsJudgedOnlyOnItsOwnDevicesRoofline) {
    Point kernel, region, paper, unnamed;
    kernel.source = PointOrigin::ncu;
    region.source = PointOrigin::perf;
    paper.source = PointOrigin::analytic;
    EXPECT_EQ(point_device(kernel), Device::gpu);
    EXPECT_EQ(point_device(region), Device::cpu);
    EXPECT_FALSE(point_device(paper));    // counted on paper: either roofline
    EXPECT_FALSE(point_device(unnamed));  // a file that names no origin: either
    EXPECT_TRUE(judged_on(kernel, Device::gpu));
    EXPECT_FALSE(judged_on(kernel, Device::cpu));  // a CUDA kernel never on the CPU's roofline
    EXPECT_FALSE(judged_on(region, Device::gpu));  // nor a CPU's region on a GPU's
    EXPECT_TRUE(judged_on(paper, Device::gpu));
    EXPECT_TRUE(judged_on(unnamed, Device::cpu));
    const std::vector<Point> mixed{paper, region, kernel};
    const auto on_cpu = first_on_wrong_device(mixed, Device::cpu);
    ASSERT_TRUE(on_cpu);
    EXPECT_EQ(on_cpu->index, 2u);
    EXPECT_EQ(on_cpu->measured_on, Device::gpu);
    const auto on_gpu = first_on_wrong_device(mixed, Device::gpu);
    ASSERT_TRUE(on_gpu);
    EXPECT_EQ(on_gpu->index, 1u);
    EXPECT_EQ(on_gpu->measured_on, Device::cpu);
    EXPECT_FALSE(first_on_wrong_device({paper, kernel}, Device::gpu));
    EXPECT_STREQ(device_name(Device::gpu), "GPU");
}
