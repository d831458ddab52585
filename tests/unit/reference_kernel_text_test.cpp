// render/reference_kernel_text: the kernels sweep's rows (their "at": the level the point's
// data comes from, given by the caller, and the GB/s there) and --list's formulas.
#include "render/reference_kernel_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roofline {
namespace {

Point swept_triad_point() {
    Point p;
    p.work = 2e9;
    p.seconds = 1;
    p.bytes = {{"L1", 24e9}, {"L2", 32e9}, {"L3", 32e9}, {"DRAM", 16e9}};
    p.details = {{"n", 1000}, {"working_set_bytes", 24000}, {"seconds_fastest", 1}, {"seconds_slowest", 1.1}};
    return p;
}

// The row's last columns: GB/s, at, spread, check.
std::vector<std::string> sweep_row_words(const std::string& row) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while ((i = row.find_first_not_of(" \n", i)) != std::string::npos) {
        const auto end = row.find_first_of(" \n", i);
        out.push_back(row.substr(i, end - i));
        i = end;
    }
    return out;
}

TEST(KernelSweepRow, AtIsTheLevelGivenAndTheRateIsThere) {
    // Not the deepest level with bytes: the level the caller says the point is judged at.
    const auto l2 = sweep_row_words(kernel_sweep_row("stream_triad", swept_triad_point(), "L2", "ok"));
    ASSERT_GE(l2.size(), 9u);
    EXPECT_EQ(l2[l2.size() - 4], "32") << "GB/s at L2";
    EXPECT_EQ(l2[l2.size() - 3], "L2");
    const auto dram = sweep_row_words(kernel_sweep_row("stream_triad", swept_triad_point(), "DRAM", "ok"));
    EXPECT_EQ(dram[dram.size() - 4], "16");
    EXPECT_EQ(dram[dram.size() - 3], "DRAM");
    // A level the point has no bytes at (a point stored by an older build): no rate, no throw.
    Point in_l1 = swept_triad_point();
    in_l1.bytes = {{"L1", 24e9}};
    const auto none = sweep_row_words(kernel_sweep_row("stream_triad", in_l1, "L3", "ok, cached"));
    EXPECT_EQ(none[none.size() - 5], "-");
    EXPECT_EQ(none[none.size() - 4], "L3");
    EXPECT_NE(kernel_sweep_header().find(" at "), std::string::npos);
}

TEST(KernelList, GridKernelsListTheirWholeRowFormulas) {
    const auto text = reference_kernel_list_text({find_reference_kernel("jacobi2d"), find_reference_kernel("stencil3d")});
    EXPECT_NE(text.find("memory 8 n^2 + 8 n (n-2) + 8 n (n-2) write-allocate"), std::string::npos) << text;
    EXPECT_NE(text.find("memory 8 n (n^2 - 4) + 8 n (n-2)^2 + 8 n (n-2)^2 write-allocate"), std::string::npos) << text;
}

} // namespace
} // namespace roofline
