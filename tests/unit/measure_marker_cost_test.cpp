// The marker calls' own cost taken off each region (measure/marker_cost.hpp).
#include "measure/marker_cost.hpp"

#include "measure/merge.hpp"
#include "measure/protocol_json.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofline::measure;

namespace {

// 11 batches: an empty region holds 27 ns of the calls, 14 of them before its work can start
// (so 13 of end's), a region inside another adds 65 ns to it; one batch a preemption slowed.
MarkerCalibration calibration() {
    MarkerCalibration c;
    c.pairs = 200;
    c.seconds = 3e-4;
    c.time_ns.region = {27, 27.2, 26.8, 27, 27.1, 26.9, 27, 150, 27, 27.1, 26.9};
    c.begin_ns = {14, 14.1, 13.9, 14, 14, 14, 13.9, 80, 14.1, 14, 14};
    c.nested_ns = {65, 65, 65.2, 64.8, 65, 65, 65, 300, 65, 65.1, 64.9};
    c.time_ns.pair = {80, 80, 80, 80, 80, 80, 80, 200, 80, 80, 80};
    return c;
}

RegionTiming region_timing(const std::string& name, long long calls, double seconds, long long inner = 0) {
    RegionTiming t;
    t.name = name;
    t.calls = calls;
    t.outermost_calls = calls;
    t.inner_calls = inner;
    t.seconds = seconds;
    t.thread_seconds = seconds;
    return t;
}

} // namespace

TEST(MarkerCost, MedianAndQuartilesOverBatchesAnOutlierLeavesOut) {
    const CallCost c = summarize_cost(calibration().time_ns.region);
    EXPECT_DOUBLE_EQ(c.median, 27);
    EXPECT_EQ(c.batches, 11);
    EXPECT_LT(c.high, 28);  // the slowed batch is beyond the quartiles
    EXPECT_TRUE(c.steady());
    EXPECT_FALSE(summarize_cost({10, 30, 20, 40, 15}).steady());
    EXPECT_FALSE(summarize_cost({}).steady());
}

// A region of 1000 calls of 114 ns: 14 ns a call come before its work, 100 ns are its own.
TEST(MarkerCost, TheCallsPartBeforeTheWorkIsTakenOffEachCall) {
    std::vector<RegionTiming> timings = {region_timing("step", 1000, 114e-6)};
    std::vector<RegionCounts> counters;
    const auto cal = calibration();
    CostMessages said;
    subtract_marker_time(timings, counters, &cal, &said);
    EXPECT_TRUE(timings[0].refused.empty());
    EXPECT_NEAR(timings[0].seconds, 100e-6, 1e-12);
    EXPECT_NEAR(timings[0].marker_cost_seconds, 14e-6, 1e-12);
    ASSERT_EQ(said.notes.size(), 1u);
    EXPECT_NE(said.notes[0].find("subtracted from each region's time"), std::string::npos);
    EXPECT_NE(said.notes[0].find("27 ns"), std::string::npos);
    // 27 ns of 114 is more than a twentieth: named, with what is left and its lowest bound.
    ASSERT_EQ(said.warnings.size(), 1u);
    EXPECT_NE(said.warnings[0].find("region 'step'"), std::string::npos);
    EXPECT_NE(said.warnings[0].find("100 ns a call"), std::string::npos);
    EXPECT_NE(said.warnings[0].find("87 ns"), std::string::npos);  // had end's 13 ns not run beside it
}

TEST(MarkerCost, ALongRegionLosesTheSameButIsNotWarnedOf) {
    std::vector<RegionTiming> timings = {region_timing("solve", 10, 1.0)};
    std::vector<RegionCounts> counters;
    const auto cal = calibration();
    CostMessages said;
    subtract_marker_time(timings, counters, &cal, &said);
    EXPECT_NEAR(timings[0].seconds, 1.0 - 10 * 14e-9, 1e-15);
    EXPECT_TRUE(said.warnings.empty());
}

// A step of 3.4 ns reads about 30 ns: what is beyond the 14 ns is not clearly more than end's
// 13 ns, which such work hides under. It gets no point, never a figure of 16 or of 3 ns.
TEST(MarkerCost, WorkHiddenUnderTheEndCallIsRefusedWithTheReason) {
    std::vector<RegionTiming> timings = {region_timing("tiny", 100000, 100000 * 30.2e-9)};
    std::vector<RegionCounts> counters;
    const auto cal = calibration();
    CostMessages said;
    subtract_marker_time(timings, counters, &cal, &said);
    ASSERT_FALSE(timings[0].refused.empty());
    EXPECT_NE(timings[0].refused.find("hides under the end call"), std::string::npos);
    EXPECT_NE(timings[0].refused.find("30.2 ns a call"), std::string::npos);
    MeasureResult result;
    result.timings = timings;
    result.wall_seconds = 1;
    for (const auto& p : merge_points(result)) EXPECT_NE(p.name, "tiny");
    const auto refused = refused_regions(result);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("region 'tiny' gets no point"), std::string::npos);
}

// A region around 1000 others loses a whole pair (less what work overlaps) for each of them.
TEST(MarkerCost, ARegionAroundOthersLosesTheirCalls) {
    std::vector<RegionTiming> timings = {region_timing("outer", 1, 200e-6, 1000), region_timing("inner", 1000, 114e-6)};
    std::vector<RegionCounts> counters;
    const auto cal = calibration();
    subtract_marker_time(timings, counters, &cal, nullptr);
    EXPECT_NEAR(timings[0].seconds, 200e-6 - 14e-9 - 1000 * 65e-9, 1e-12);
    EXPECT_NEAR(timings[1].seconds, 100e-6, 1e-12);
}

// Threads that overlap: the union loses what their summed time loses, in proportion.
TEST(MarkerCost, ThreadsThatOverlapLoseInProportion) {
    auto t = region_timing("team", 2000, 1e-3);
    t.thread_seconds = 2e-3;  // two threads, 1000 calls each, at once
    std::vector<RegionTiming> timings = {t};
    std::vector<RegionCounts> counters;
    const auto cal = calibration();
    subtract_marker_time(timings, counters, &cal, nullptr);
    EXPECT_NEAR(timings[0].seconds, 1e-3 * (2e-3 - 2000 * 14e-9) / 2e-3, 1e-12);
}

TEST(MarkerCost, AnUnsteadyCalibrationIsNotSubtractedButWarned) {
    auto cal = calibration();
    cal.time_ns.region = {27, 60, 20, 45, 27, 90, 31, 27, 50, 22, 70};
    std::vector<RegionTiming> timings = {region_timing("step", 1000, 60e-6)};
    std::vector<RegionCounts> counters;
    CostMessages said;
    subtract_marker_time(timings, counters, &cal, &said);
    EXPECT_DOUBLE_EQ(timings[0].seconds, 60e-6);
    EXPECT_TRUE(timings[0].refused.empty());
    ASSERT_EQ(said.warnings.size(), 1u);
    EXPECT_NE(said.warnings[0].find("not subtracted: the calibration was unsteady"), std::string::npos);
    EXPECT_NE(said.notes.at(0).find("NOT subtracted"), std::string::npos);
}

TEST(MarkerCost, WithoutACalibrationNothingIsSubtractedAndThatIsSaid) {
    std::vector<RegionTiming> timings = {region_timing("step", 1000, 60e-6)};
    std::vector<RegionCounts> counters;
    CostMessages said;
    subtract_marker_time(timings, counters, nullptr, &said);
    EXPECT_DOUBLE_EQ(timings[0].seconds, 60e-6);
    ASSERT_EQ(said.notes.size(), 1u);
    EXPECT_NE(said.notes[0].find("not subtracted"), std::string::npos);
}

// The perf engine's counters: each event's own cost a call; a count left below it refuses.
TEST(MarkerCost, CountersLoseTheCallsCountsAndANegativeCountRefuses) {
    auto cal = calibration();
    cal.counters["INSTRUCTIONS"] = {std::vector<double>(11, 45.0), std::vector<double>(11, 110.0), 1e5};
    std::vector<RegionTiming> timings = {region_timing("step", 1000, 1e-3, 10), region_timing("few", 1000, 1e-3)};
    RegionCounts step, few;
    step.name = "step";
    step.events = {{"INSTRUCTIONS", 1e6}, {"FP", 500}};
    few.name = "few";
    few.events = {{"INSTRUCTIONS", 30000}};
    std::vector<RegionCounts> counters = {step, few};
    subtract_marker_time(timings, counters, &cal, nullptr);
    EXPECT_DOUBLE_EQ(counters[0].events.at("INSTRUCTIONS"), 1e6 - 1000 * 45 - 10 * 110);
    EXPECT_DOUBLE_EQ(counters[0].events.at("FP"), 500);  // not calibrated: untouched
    EXPECT_DOUBLE_EQ(counters[0].marker_cost.at("event_INSTRUCTIONS"), 1000 * 45 + 10 * 110);
    EXPECT_TRUE(timings[0].refused.empty());
    EXPECT_NE(timings[1].refused.find("INSTRUCTIONS"), std::string::npos);
}

namespace {

RegionCounts counted(const std::string& name, long long calls, double loaded, double stored, double insns) {
    RegionCounts c;
    c.name = name;
    c.calls = calls;
    c.bytes_loaded = loaded;
    c.bytes_stored = stored;
    c.instructions = insns;
    c.threads = 1;
    return c;
}

// Under the tool: 100 empty regions, 84 bytes loaded, 128 stored, 44 instructions a call
// inside the region; the region around them also holds 100 whole pairs of 160, 240 and 92.
std::vector<RegionCounts> tool_counts() {
    return {counted(kCalibrationRegion, 100, 8400, 12800, 4400),
            counted(kCalibrationWhole, 1, 84 + 16000, 128 + 24000, 44 + 9200),
            counted("(program)", 1, 1e7, 5e6, 4e6),
            counted("loads", 2000, 2000 * (4096 + 84), 2000 * 128, 2000 * (600 + 44)),
            counted("outer", 1, 2000 * (4096 + 8 + 160) + 84, 2000 * 240 + 128, 2000 * (600 + 92) + 44),
            counted("<function f>", 5, 800, 400, 300)};
}

} // namespace

TEST(MarkerCost, TheToolsCountsLoseTheCallsOwn) {
    auto counts = tool_counts();
    std::vector<RegionTiming> timings = {region_timing("loads", 2000, 1e-3), region_timing("outer", 1, 1e-3, 2000)};
    CostMessages said;
    subtract_marker_counts(counts, timings, said);
    const auto find = [&](const std::string& name) {
        return *std::find_if(counts.begin(), counts.end(), [&](const RegionCounts& c) { return c.name == name; });
    };
    EXPECT_FALSE(std::any_of(counts.begin(), counts.end(), [](const RegionCounts& c) {
        return is_calibration_region(c.name);
    }));
    const auto loads = find("loads");
    EXPECT_DOUBLE_EQ(loads.bytes_loaded, 2000 * 4096.0);
    EXPECT_DOUBLE_EQ(loads.bytes_stored, 0);
    EXPECT_DOUBLE_EQ(loads.instructions, 2000 * 600.0);
    EXPECT_DOUBLE_EQ(loads.marker_cost.at("bytes_stored"), 2000 * 128.0);
    const auto outer = find("outer");
    EXPECT_DOUBLE_EQ(outer.bytes_loaded, 2000 * (4096.0 + 8));
    EXPECT_DOUBLE_EQ(outer.bytes_stored, 0);
    EXPECT_DOUBLE_EQ(outer.instructions, 2000 * 600.0);
    // (program) loses the calibration: 101 whole pairs.
    EXPECT_DOUBLE_EQ(find("(program)").bytes_loaded, 1e7 - 101 * 160);
    EXPECT_DOUBLE_EQ(find("<function f>").bytes_loaded, 800);  // a function holds no markers of its own
    ASSERT_FALSE(said.notes.empty());
    EXPECT_NE(said.notes[0].find("84 bytes loaded, 128 stored and 44 instructions"), std::string::npos);
    // 212 of 4308 bytes a call is more than a twentieth? No (4.9%): loads is not warned of.
    EXPECT_TRUE(std::none_of(said.warnings.begin(), said.warnings.end(),
                             [](const std::string& w) { return w.find("'loads'") != std::string::npos; }));
}

TEST(MarkerCost, ARegionOfFewerCountsThanItsCallsIsRefused) {
    auto counts = tool_counts();
    counts.push_back(counted("odd", 10, 100, 1280, 440));  // fewer loads than 10 calls' 840
    std::vector<RegionTiming> timings = {region_timing("odd", 10, 1e-3)};
    CostMessages said;
    subtract_marker_counts(counts, timings, said);
    const auto odd = *std::find_if(counts.begin(), counts.end(), [](const RegionCounts& c) { return c.name == "odd"; });
    EXPECT_NE(odd.refused.find("bytes_loaded"), std::string::npos);
    MeasureResult result;
    result.timings = timings;
    result.counts = counts;
    for (const auto& p : merge_points(result)) EXPECT_NE(p.name, "odd");
}

TEST(MarkerCost, WithoutTheCalibrationRegionsTheCountsStandAndThatIsSaid) {
    std::vector<RegionCounts> counts = {counted("(program)", 1, 1e7, 5e6, 4e6), counted("loads", 2000, 8e6, 2e5, 1e6)};
    CostMessages said;
    subtract_marker_counts(counts, {}, said);
    EXPECT_DOUBLE_EQ(counts[1].bytes_loaded, 8e6);
    ASSERT_EQ(said.notes.size(), 1u);
    EXPECT_NE(said.notes[0].find("not subtracted"), std::string::npos);
}

TEST(MarkerCost, ProtocolCarriesTheCalibrationAndTheCalls) {
    const auto r = parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "rec", "calls": 4, "outermost_calls": 1, "inner_calls": 3, "threads": 1, "seconds": 1,
         "thread_seconds": [1]}],
        "calibration": {"region": "(roofline marker calls)", "pairs": 200, "seconds": 0.0003,
                        "region_ns": [27, 27.5], "begin_ns": [14, 14], "nested_ns": [65, 66], "pair_ns": [80, 81],
                        "counters": {"INSTR": {"region": [45, 45], "pair": [110, 110], "total": 90000}}},
        "errors": []})J",
                                     "m.json");
    EXPECT_EQ(r.timings[0].outermost_calls, 1);
    EXPECT_EQ(r.timings[0].inner_calls, 3);
    EXPECT_DOUBLE_EQ(r.timings[0].thread_seconds, 1);
    ASSERT_TRUE(r.calibration);
    EXPECT_EQ(r.calibration->pairs, 200);
    EXPECT_EQ(r.calibration->time_ns.region.size(), 2u);
    EXPECT_EQ(r.calibration->nested_ns.size(), 2u);
    EXPECT_DOUBLE_EQ(r.calibration->counters.at("INSTR").total, 90000);
    // Batches that do not line up, or more outermost calls than calls: a damaged file.
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [],
        "calibration": {"pairs": 200, "region_ns": [27, 27.5], "pair_ns": [80]}})J",
                                   "m.json"),
                 MeasureError);
    EXPECT_THROW(parse_marker_json(R"J({"schema": "roofline.marker/1", "regions": [
        {"name": "x", "calls": 1, "outermost_calls": 2, "threads": 1, "seconds": 1}]})J",
                                   "m.json"),
                 MeasureError);
}
