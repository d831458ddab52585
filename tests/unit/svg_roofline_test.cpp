#include "render/svg_roofline.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {

ComputeRoof compute(const std::string& precision, const std::string& mix, int threads, double gflops) {
    ComputeRoof r;
    r.name = precision + " avx2 " + mix + " " + std::to_string(threads) + "t";
    r.precision = precision;
    r.isa = "avx2";
    r.mix = mix;
    r.threads = threads;
    r.gflops = gflops;
    r.stats.median = gflops;
    r.stats.runs = 7;
    return r;
}

MemoryRoof memory(const std::string& level, const std::string& pattern, int threads, double gbs) {
    MemoryRoof r;
    r.level = level;
    r.pattern = pattern;
    r.isa = "avx2";
    r.threads = threads;
    r.gbs = gbs;
    r.gbs_write_allocate = gbs;
    r.stats.median = gbs;
    r.stats.runs = 7;
    return r;
}

MachineModel two_thread_model() {
    MachineModel m;
    m.cpu.model = "AMD EPYC 7B13";
    m.environment.timestamp = "2026-11-03T10:20:30Z";
    m.compute = {compute("dp", "fma+add", 1, 32), compute("dp", "fma+add", 2, 64),
                 compute("dp", "add", 2, 25.6), compute("sp", "fma+add", 2, 128)};
    m.memory = {memory("L1", "load", 2, 400), memory("L1", "copy", 2, 300), memory("L2", "load", 2, 200),
                memory("L3", "load", 2, 100), memory("DRAM", "load", 2, 20), memory("DRAM", "copy", 2, 24),
                memory("L1", "load", 1, 220)};
    return m;
}

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

} // namespace

TEST(SvgRoofline, IsAStandaloneSvgDocument) {
    const auto svg = render_roofline_svg(two_thread_model());
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    EXPECT_EQ(svg.find("href"), std::string::npos) << "no external references";
    EXPECT_NE(svg.find("Arithmetic intensity [FLOP/byte]"), std::string::npos);
    EXPECT_NE(svg.find("Performance [GFLOP/s]"), std::string::npos);
}

TEST(SvgRoofline, LabelsEveryRoofWithItsValueAtTheHighestThreadCount) {
    const auto svg = render_roofline_svg(two_thread_model());
    EXPECT_NE(svg.find("DP peak 64.0 GFLOP/s"), std::string::npos);
    EXPECT_NE(svg.find("SP peak 128 GFLOP/s"), std::string::npos);
    EXPECT_NE(svg.find("L1 load 400 GB/s"), std::string::npos);
    EXPECT_NE(svg.find("L2 load 200 GB/s"), std::string::npos);
    EXPECT_NE(svg.find("L3 load 100 GB/s"), std::string::npos);
    // Highest-bandwidth pattern of the level wins.
    EXPECT_NE(svg.find("DRAM copy 24.0 GB/s"), std::string::npos);
    EXPECT_EQ(svg.find("DRAM load 20.0"), std::string::npos);
    // 1-thread figures are not the peak.
    EXPECT_EQ(svg.find("DP peak 32.0"), std::string::npos);
    EXPECT_EQ(svg.find("L1 load 220.0"), std::string::npos);
    EXPECT_NE(svg.find("Roofline: AMD EPYC 7B13, 2 threads"), std::string::npos);
}

// The chart is drawn by render_svg from roofline_from_machine: ceilings carry
// the roofline's names ("ADD or MUL only", "1 thread").
TEST(SvgRoofline, DrawsLowerCeilingsThinAndDashed) {
    const auto svg = render_roofline_svg(two_thread_model());
    EXPECT_NE(svg.find("ADD or MUL only 25.6 GFLOP/s"), std::string::npos);
    EXPECT_NE(svg.find("1 thread 32.0 GFLOP/s"), std::string::npos);
    EXPECT_NE(svg.find("stroke-dasharray=\"6 4\""), std::string::npos);
    // The overview shows compute ceilings only: the slower DRAM pattern is no line.
    EXPECT_EQ(svg.find("DRAM load 20.0"), std::string::npos);
}

TEST(SvgRoofline, MarksEachRidgePointWithItsIntensity) {
    const auto svg = render_roofline_svg(two_thread_model());
    EXPECT_EQ(count(svg, "class=\"ridge\""), 4u); // L1, L2, L3, DRAM
    EXPECT_NE(svg.find(">0.16 FLOP/B<"), std::string::npos);  // 64 / 400
    EXPECT_NE(svg.find(">0.32 FLOP/B<"), std::string::npos);  // 64 / 200
    EXPECT_NE(svg.find(">0.64 FLOP/B<"), std::string::npos);  // 64 / 100
    EXPECT_NE(svg.find(">2.67 FLOP/B<"), std::string::npos);  // 64 / 24
}

TEST(SvgRoofline, FooterStatesTimestampBytesAndTheStatistic) {
    auto model = two_thread_model();
    model.environment.statistic = "each roof is the 90th percentile of the best samples of its bursts (details); more";
    EXPECT_NE(render_roofline_svg(model).find("measured 2026-11-03T10:20:30Z; bandwidth: L1 in nominal bytes, below L1 in traffic with write-allocate reads (+WA); each roof "
                                              "is the 90th percentile of the best samples of its bursts<"),
              std::string::npos);
    model.environment.statistic.clear();  // an old model: say so rather than guess
    EXPECT_NE(render_roofline_svg(model).find("(+WA); statistic not recorded<"), std::string::npos);
}

TEST(SvgRoofline, EscapesTextFromTheModel) {
    auto model = two_thread_model();
    model.cpu.model = "<script>alert('x & \"y\"')</script>";
    model.memory[0].level = "L1<";
    const auto svg = render_roofline_svg(model);
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;alert(&apos;x &amp; &quot;y&quot;&apos;)&lt;/script&gt;"),
              std::string::npos);
    EXPECT_NE(svg.find("L1&lt; load 400 GB/s"), std::string::npos);
}

TEST(SvgRoofline, PartialRunIsShownProminently) {
    auto model = two_thread_model();
    EXPECT_EQ(render_roofline_svg(model).find("PARTIAL RUN"), std::string::npos);
    model.partial = true;
    EXPECT_NE(render_roofline_svg(model).find("PARTIAL RUN"), std::string::npos);
}

TEST(SvgRoofline, IsDeterministic) {
    EXPECT_EQ(render_roofline_svg(two_thread_model()), render_roofline_svg(two_thread_model()));
}

TEST(SvgRoofline, RangesCoverAtLeastOneSixtyFourthToSixtyFour) {
    const auto svg = render_roofline_svg(two_thread_model());
    EXPECT_NE(svg.find(">0.01</text>"), std::string::npos);
    EXPECT_NE(svg.find(">100</text>"), std::string::npos);
}

TEST(SvgRoofline, SurvivesEmptyAndOneSidedModels) {
    MachineModel empty;
    const auto svg = render_roofline_svg(empty);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("no roofs measured"), std::string::npos);

    MachineModel compute_only;
    compute_only.compute = {compute("dp", "fma", 1, 50)};
    EXPECT_NE(render_roofline_svg(compute_only).find("DP peak 50.0 GFLOP/s"), std::string::npos);

    MachineModel memory_only;
    memory_only.memory = {memory("DRAM", "load", 1, 15)};
    EXPECT_NE(render_roofline_svg(memory_only).find("DRAM load 15.0 GB/s"), std::string::npos);
}
