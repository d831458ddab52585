// The GPU's L2 roof and curve judged by its DRAM read roof of the same run: past twice the L2
// a read comes from DRAM, so a curve that stays far above the DRAM read there was reading
// lines other blocks had just fetched, and its L2 figures are refused.
#include "core/gpu_l2_check.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace roofline;

namespace {

// `bench --gpu` on an H200 with the read kernel that reads every row once before any again:
// 4.5 TB/s at 128 MiB (2.13x its 60 MiB L2) against a DRAM read of 4.35 TB/s.
GpuModel h200() {
    const auto m = machine_from_json(
        nlohmann::json::parse(read_text_file(std::string(ROOFLINE_TEST_DATA_DIR) + "/gpu/h200-machine.json")),
        "h200-machine.json");
    return m.gpus.at(0);
}

bool has_l2_roof(const GpuModel& gpu) {
    return std::any_of(gpu.memory.begin(), gpu.memory.end(), [](const GpuMemoryRoof& r) { return r.level == "L2"; });
}

TEST(GpuL2Check, ACurveThatFallsToDramPastTheL2IsKept) {
    auto gpu = h200();
    ASSERT_EQ(gpu.l2_bytes, 62914560u);
    ASSERT_EQ(gpu.curves.size(), 1u);
    EXPECT_TRUE(refuse_gpu_l2_reuse(gpu).empty());
    EXPECT_EQ(gpu.curves.size(), 1u);
    EXPECT_TRUE(has_l2_roof(gpu));
}

// The same H200 with the kernel of 512 KiB chunks many blocks read at once (issue 32's second
// device run): 6.7 TB/s at 128 MiB, 1.5x the DRAM read. The curve and the L2 read roof go, the
// DRAM roofs stay, and the reason names the point and the ratio.
TEST(GpuL2Check, ACurveFarAboveDramPastTwiceTheL2IsRefusedWithItsL2Roof) {
    auto gpu = h200();
    for (auto& [bytes, gbs] : gpu.curves[0].points)
        if (bytes == 128u << 20) gbs = 6692;
    const auto refused = refuse_gpu_l2_reuse(gpu);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("6692 GB/s"), std::string::npos) << refused[0];
    EXPECT_NE(refused[0].find("1.54x the DRAM read roof"), std::string::npos) << refused[0];
    EXPECT_TRUE(gpu.curves.empty());
    EXPECT_FALSE(has_l2_roof(gpu));
    const auto dram_roofs =
        std::count_if(gpu.memory.begin(), gpu.memory.end(), [](const GpuMemoryRoof& r) { return r.level == "DRAM"; });
    EXPECT_EQ(dram_roofs, 3);
}

// Between the L2 and twice it the L2 still holds part of the set: a high figure there is not
// judged. Exactly at the bound it passes; just over it, it does not.
TEST(GpuL2Check, OnlyPointsAtTwiceTheL2OrMoreAreJudgedAndTheBoundIsInclusive) {
    auto gpu = h200();
    const double dram = 4349.73;  // the model's DRAM read roof
    for (auto& [bytes, gbs] : gpu.curves[0].points) {
        if (bytes == 64u << 20) gbs = 10000;  // 1.07x the L2: not judged
        if (bytes == 128u << 20) gbs = (1 + kPastL2Tolerance) * dram * 0.999;
    }
    EXPECT_TRUE(refuse_gpu_l2_reuse(gpu).empty());
    for (auto& [bytes, gbs] : gpu.curves[0].points)
        if (bytes == 128u << 20) gbs = (1 + kPastL2Tolerance) * dram * 1.01;
    EXPECT_EQ(refuse_gpu_l2_reuse(gpu).size(), 1u);
}

// Nothing to judge by: no L2 size, no DRAM read roof (refused, or not measured), or no point
// past twice the L2 (a GPU whose memory is too small for one). The figures stay.
TEST(GpuL2Check, WithoutTheFiguresToJudgeByNothingIsRefused) {
    const auto inflate = [](GpuModel& gpu) {
        for (auto& [bytes, gbs] : gpu.curves[0].points) gbs *= 3;
    };
    auto no_size = h200();
    inflate(no_size);
    no_size.l2_bytes = 0;
    EXPECT_TRUE(refuse_gpu_l2_reuse(no_size).empty());
    auto no_dram = h200();
    inflate(no_dram);
    std::erase_if(no_dram.memory, [](const GpuMemoryRoof& r) { return r.level == "DRAM" && r.pattern == "read"; });
    EXPECT_TRUE(refuse_gpu_l2_reuse(no_dram).empty());
    auto short_curve = h200();
    inflate(short_curve);
    std::erase_if(short_curve.curves[0].points, [](const auto& p) { return p.first >= 120u << 20; });
    EXPECT_TRUE(refuse_gpu_l2_reuse(short_curve).empty());
    EXPECT_TRUE(has_l2_roof(short_curve));
}

} // namespace
