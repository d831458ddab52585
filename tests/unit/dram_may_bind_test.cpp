// A point whose DRAM bytes are a lower bound (its data fill the simulated LLC and are re-read
// there): with those bytes at their upper bound the DRAM roof may bind it below the bound the
// counted bytes give, which report says, and no step then calls it compute-bound (core/dram_may_bind).
#include "core/dram_may_bind.hpp"
#include "core/llc_occupancy.hpp"
#include "core/roofline.hpp"
#include "render/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace roofline;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// An audit's float AXPY: 4M floats of x and y (32.3 MiB with the rest), 50 calls, on a 32 MiB L3:
// the first call reads them from DRAM, the other 49 from L3 (LRU); 2 FLOPs per 12 bytes.
Point axpy(double seconds) {
    Point p;
    p.name = "saxpy";
    p.work = 4.194e8;
    p.seconds = seconds;
    const double touched = 32.3 * MiB;
    p.bytes = {{"L1", 2.5166e9}, {"L2", touched * 50}, {"L3", touched * 49}, {"DRAM", touched}};
    p.details = {{kCacheTouchedBytes, touched},      {kCacheLlcBytes, 32 * MiB},       {kCacheLlcLevel, 3},
                 {"cache_DRAM_read_bytes", touched}, {"cache_L3_read_bytes", touched * 49}};
    return p;
}

Roofline zen4_sp() {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "sp";
    r.threads = 1;
    r.compute = {"SP peak", "", 177};
    r.bandwidth = {{"L1 triad", "L1", 314}, {"L2 copy+WA", "L2", 177}, {"L3 copy+WA", "L3", 150},
                   {"DRAM copy+WA", "DRAM", 52.4}};
    return r;
}

bool has_step(const Analysis& a, NextStep::Kind kind) {
    return std::any_of(a.next_steps.begin(), a.next_steps.end(), [&](const NextStep& s) { return s.kind == kind; });
}

TEST(DramMayBind, TheOrmViewOfAnAxpyInTheLlcIsNotCalledComputeBound) {
    const Roofline r = zen4_sp();
    const Point p = axpy(0.0383);
    const Analysis a = analyze(r, p, View::orm);
    EXPECT_FALSE(a.memory_bound);  // on the counted DRAM bytes, 12 FLOP/B
    ASSERT_TRUE(a.dram_may_bind);
    // Upper bound: the counted 33.9 MB plus the 1.66 GB re-read from L3.
    EXPECT_NEAR(a.dram_may_bind->dram_bytes_upper, 32.3 * MiB * 50, 1);
    EXPECT_FALSE(a.dram_may_bind->upper_from_time);
    EXPECT_NEAR(a.dram_may_bind->attainable, 52.4 * 4.194e8 / (32.3 * MiB * 50), 1e-9);
    EXPECT_FALSE(has_step(a, NextStep::Kind::reach_compute));
    // The same counts without the cache simulation's figures: compute-bound, and told so.
    Point plain = p;
    plain.details.clear();
    const Analysis b = analyze(r, plain, View::orm);
    EXPECT_FALSE(b.dram_may_bind);
    EXPECT_TRUE(has_step(b, NextStep::Kind::reach_compute));
    EXPECT_EQ(a.attainable, b.attainable);  // the figures stand; the bound is said unsure

    const std::string text = render_report({a}, r, ReportFormat::text);
    EXPECT_NE(text.find("bound unsure     its DRAM bytes are a lower bound: were the bytes it re-read from the L3 read "
                        "from DRAM instead (1.58 GiB in all, not 32.3 MiB), the DRAM copy+WA roof would cap it at 13 "
                        "GFLOP/s"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("the point is compute-bound"), std::string::npos) << text;
    const auto j = nlohmann::json::parse(render_report({a, b}, r, ReportFormat::json));
    EXPECT_EQ(j["points"][0]["dram_may_bind"]["roof"], "DRAM copy+WA");
    EXPECT_NEAR(j["points"][0]["dram_may_bind"]["attainable"].get<double>(), a.dram_may_bind->attainable, 1e-6);
    EXPECT_TRUE(j["points"][1]["dram_may_bind"].is_null());
}

TEST(DramMayBind, InTheCarmViewACacheBoundPointMayBeDramBound) {
    const Analysis a = analyze(zen4_sp(), axpy(0.0383), View::carm);
    EXPECT_EQ(a.binding_level, "L3");
    ASSERT_TRUE(a.dram_may_bind);
    EXPECT_LT(a.dram_may_bind->attainable, a.attainable);
}

TEST(DramMayBind, NoMoreBytesThanTheRoofMovesInItsTime) {
    // Four times as fast: 1.66 GB could not have come from DRAM at 52.4 GB/s in 9.6 ms.
    const Point p = axpy(0.0383 / 4);
    const Analysis a = analyze(zen4_sp(), p, View::orm);
    ASSERT_TRUE(a.dram_may_bind);
    EXPECT_TRUE(a.dram_may_bind->upper_from_time);
    EXPECT_NEAR(a.dram_may_bind->dram_bytes_upper, 52.4e9 * p.seconds, 1);
    EXPECT_NEAR(a.dram_may_bind->attainable, performance(p), 1e-9);  // at most at that roof
    EXPECT_NE(dram_may_bind_text(*a.dram_may_bind, a.binding_roof, a.attainable, "L3").find("what that roof moves in its time"),
              std::string::npos);
}

TEST(DramMayBind, NothingSaidWhereTheBoundCannotChange) {
    const Roofline r = zen4_sp();
    // Not near the LLC's capacity: its DRAM bytes stand.
    Point small = axpy(0.0383);
    small.details[kCacheTouchedBytes] = 8 * MiB;
    EXPECT_FALSE(analyze(r, small, View::orm).dram_may_bind);
    // DRAM-bound already: more DRAM bytes bind it lower still, the verdict stands (the note says it).
    Point streaming = axpy(0.0383);
    streaming.work = 4.194e6;
    streaming.bytes = {{"L1", 32.3 * MiB}, {"DRAM", 32.3 * MiB}};
    EXPECT_EQ(analyze(r, streaming, View::carm).binding_level, "DRAM");
    EXPECT_FALSE(analyze(r, streaming, View::carm).dram_may_bind);
    // Compute-bound even with every re-read from DRAM: the same verdict.
    Point dense = axpy(0.0383);
    dense.work = 4.194e12;
    dense.seconds = 100;
    EXPECT_FALSE(analyze(r, dense, View::orm).dram_may_bind);
}

} // namespace
