// A point whose data fills most of the simulated last-level cache and is re-read there: its DRAM
// bytes are a lower bound, said (core/llc_occupancy), in report's text and JSON (render/report);
// and the Valgrind tool's count of distinct lines behind it (tools/vgtool/rl_distinct.c).
#include "core/llc_occupancy.hpp"
#include "core/roofline.hpp"
#include "render/report.hpp"
#include "rl_distinct.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace roofline;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// A Jacobi sweep over `touched` bytes, `sweeps` times, on a 32 MiB L3: the first sweep reads it
// from DRAM, the others from L3 when it fits (LRU), from DRAM again when it does not.
Point sweeps(double touched, int sweeps, bool fits) {
    Point p;
    p.name = "jacobi";
    p.work = 1e8;
    p.seconds = 0.05;
    const double dram = fits ? touched : touched * sweeps;
    const double l3 = fits ? touched * (sweeps - 1) : 0;
    p.bytes = {{"L1", 1e9}, {"L2", touched * sweeps}, {"L3", l3}, {"DRAM", dram}};
    p.details = {{kCacheTouchedBytes, touched},      {kCacheLlcBytes, 32 * MiB}, {kCacheLlcLevel, 3},
                 {"cache_DRAM_read_bytes", dram}, {"cache_L3_read_bytes", l3}};
    return p;
}

TEST(LlcOccupancy, WellUnderTheLlcHasNoNote) {
    EXPECT_FALSE(llc_near_full(sweeps(10 * MiB, 20, true)));  // 31%
    EXPECT_FALSE(llc_near_full(sweeps(15.9 * MiB, 20, true)));  // just under half
}

TEST(LlcOccupancy, NearTheLlcAndReReadHasTheNote) {
    const auto n = llc_near_full(sweeps(30.5 * MiB, 20, true));
    ASSERT_TRUE(n);
    EXPECT_NEAR(n->share, 30.5 / 32, 1e-9);
    EXPECT_TRUE(n->touched_counted);
    EXPECT_EQ(n->llc_level, 3);
    EXPECT_EQ(llc_near_full_text(*n),
              "the data it touched (about 30.5 MiB) fills 95% of the simulated 32 MiB L3; a real L3 (shared, not "
              "LRU) spills some of it: DRAM bytes here are a lower bound");
    EXPECT_TRUE(llc_near_full(sweeps(16 * MiB, 20, true)));  // half: the threshold itself
    const auto over = llc_near_full(sweeps(40 * MiB, 20, true));  // a little over, still re-read from L3 under LRU
    ASSERT_TRUE(over);
    EXPECT_NE(llc_near_full_text(*over).find("(about 40 MiB) is 1.2x the simulated 32 MiB L3"), std::string::npos);
}

TEST(LlcOccupancy, WellOverTheLlcHasNoNote) {
    EXPECT_FALSE(llc_near_full(sweeps(88 * MiB, 3, false)));  // 2.75x: LRU streams it from DRAM, as hardware does
    EXPECT_FALSE(llc_near_full(sweeps(49 * MiB, 20, true)));  // over 1.5x, even re-read
}

TEST(LlcOccupancy, DataReadOnceHasNoNote) {
    // 24 MiB streamed once: every L3 read is a DRAM read, nothing for a real L3 to lose.
    Point p = sweeps(24 * MiB, 1, true);
    EXPECT_FALSE(llc_near_full(p));
    // Read back once from L3 only (ratio 1 < 2): no note either.
    p.details["cache_L3_read_bytes"] = 24 * MiB;
    EXPECT_FALSE(llc_near_full(p));
}

TEST(LlcOccupancy, WithoutTheCountOfLinesDramReadsAreTheLowerBound) {
    // A function's point: no distinct-line count, its DRAM reads (each line's first) stand for it.
    Point p = sweeps(30 * MiB, 20, true);
    p.details.erase(kCacheTouchedBytes);
    const auto n = llc_near_full(p);
    ASSERT_TRUE(n);
    EXPECT_FALSE(n->touched_counted);
    EXPECT_NEAR(n->touched_bytes, 30 * MiB, 1);
    EXPECT_NE(llc_near_full_text(*n).find("(at least 30 MiB)"), std::string::npos);
    // Its data warmed before it (no DRAM reads): nothing to say how much it touched.
    p.details["cache_DRAM_read_bytes"] = 0;
    EXPECT_FALSE(llc_near_full(p));
}

TEST(LlcOccupancy, NoteNeedsTheCacheSimulation) {
    Point p = sweeps(30 * MiB, 20, true);
    p.details.erase(kCacheLlcBytes);  // perf engine, --cache-sim off, a hand-written file
    EXPECT_FALSE(llc_near_full(p));
    p = sweeps(30 * MiB, 20, true);
    p.details[kCacheLlcLevel] = 1;  // an L1 alone: nothing above it re-reads
    EXPECT_FALSE(llc_near_full(p));
}

TEST(LlcOccupancy, ReportSaysItAndChangesNoFigure) {
    Roofline r;
    r.label = "Test CPU";
    r.precision = "dp";
    r.threads = 1;
    r.compute = {"DP peak", "", 100};
    r.bandwidth = {{"L1 load", "L1", 400, 0.02}, {"L3 copy", "L3", 150, 0.02}, {"DRAM copy+WA", "DRAM", 50, 0.04}};
    const Point near = sweeps(30.5 * MiB, 20, true), under = sweeps(10 * MiB, 20, true);
    const auto a = analyze(r, near, View::carm);
    Point plain = near;
    for (const char* key : {kCacheTouchedBytes, kCacheLlcBytes, kCacheLlcLevel}) plain.details.erase(key);
    const auto b = analyze(r, plain, View::carm);
    EXPECT_EQ(a.attainable, b.attainable);
    EXPECT_EQ(a.efficiency, b.efficiency);
    EXPECT_EQ(a.binding_level, b.binding_level);
    const std::string text = render_report({a, analyze(r, under, View::carm)}, r, ReportFormat::text);
    EXPECT_NE(text.find("note             the data it touched (about 30.5 MiB) fills 95% of the simulated 32 MiB L3"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("about 10 MiB"), std::string::npos);
    const auto j = nlohmann::json::parse(render_report({a, analyze(r, under, View::carm)}, r, ReportFormat::json));
    EXPECT_EQ(j["points"][0]["dram_lower_bound"]["llc_level"], "L3");
    EXPECT_NEAR(j["points"][0]["dram_lower_bound"]["share"].get<double>(), 30.5 / 32, 1e-9);
    EXPECT_TRUE(j["points"][1]["dram_lower_bound"].is_null());
}

// The sketch's estimate within 5% (its standard error is 1.6%) from a few lines to millions,
// whatever the order and repetition of the lines.
TEST(DistinctLines, EstimatesWithinFivePercent) {
    for (const unsigned long long n : {0ull, 1ull, 100ull, 5000ull, 200000ull, 2000000ull}) {
        rl_ds s{};
        for (int pass = 0; pass < 3; ++pass)  // each line seen three times
            for (unsigned long long i = 0; i < n; ++i) rl_ds_add(&s, rl_ds_hash(0x7f0000000ull + (pass ? n - 1 - i : i)));
        const double got = static_cast<double>(rl_ds_estimate(&s));
        if (n == 0) EXPECT_EQ(got, 0);
        else EXPECT_NEAR(got, static_cast<double>(n), std::max(1.0, 0.05 * static_cast<double>(n))) << n << " lines";
    }
}

} // namespace
