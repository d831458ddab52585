// Where a --region-function's time comes from (measure/function_regions.hpp)
// and which functions --functions shows (measure/function_list.hpp).
#include "measure/call_timer.hpp"
#include "measure/function_list.hpp"
#include "measure/function_regions.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

namespace {

RegionCounts counts(const std::string& name, double flops, double bytes, long long calls = 1) {
    RegionCounts c;
    c.name = name;
    c.flops = {{"f64_add", flops}};
    c.bytes_loaded = bytes;
    c.calls = calls;
    return c;
}

RegionCounts region(const std::string& fn, double flops, double bytes, long long calls,
                    std::vector<std::string> matched) {
    auto c = counts("<function " + fn + ">", flops, bytes, calls);
    c.matched = std::move(matched);
    return c;
}

CallTimingResult timing(const std::string& fn, long long calls, double seconds, double stop = 1e-6) {
    CallTimingResult t;
    t.ok = true;
    t.stop_seconds = stop;
    TimedFunction f;
    f.name = fn;
    f.breakpoints = 1;
    f.calls = calls;
    f.seconds = seconds;
    t.functions = {f};
    return t;
}

SamplingResult sampling(const std::string& fn, long long samples) {
    SamplingResult s;
    s.ok = true;
    s.period_seconds = 1e-4;
    s.functions[fn] = {samples, samples * 1e-4, ""};
    return s;
}

TEST(FunctionRegions, NamesOfRegions) {
    EXPECT_EQ(function_of_region("<function dot>"), "dot");
    EXPECT_EQ(function_of_region("<function ns::f(int)>"), "ns::f(int)");
    EXPECT_EQ(function_of_region("solve"), "");
    EXPECT_EQ(function_of_region("<function >"), "");
}

TEST(FunctionRegions, OnlyFunctionsCalledFewTimesAreTimed) {
    const std::vector<RegionCounts> c = {region("a", 1, 1, 10, {"a"}), region("b", 1, 1, 20000, {"b"}),
                                         counts("solve", 1, 1)};
    EXPECT_EQ(functions_to_time(c, 10000), std::vector<std::string>{"a"});
}

TEST(FunctionRegions, LeafMeansItsOwnCountsAreAllOfItsCounts) {
    const std::vector<RegionCounts> exclusive = {counts("scale.constprop.0", 100, 800), counts("caller", 100, 800)};
    EXPECT_TRUE(is_leaf(region("scale", 100, 800, 1, {"scale"}), exclusive));   // clone folded
    EXPECT_FALSE(is_leaf(region("caller", 200, 1600, 1, {"caller"}), exclusive));  // its callee does half
    EXPECT_FALSE(is_leaf(region("gone", 100, 800, 1, {"gone"}), exclusive));
}

TEST(FunctionRegions, TimedCallsGiveTheInclusiveTime) {
    const auto r = region("caller", 200, 1600, 3, {"caller"});
    const auto t = timing("caller", 3, 0.03);
    const auto time = function_region_time(r, {}, &t, nullptr, 10000);
    EXPECT_EQ(time.source, TimeSource::timed_calls);
    ASSERT_TRUE(time.seconds.has_value());
    EXPECT_DOUBLE_EQ(*time.seconds, 0.03);
    EXPECT_EQ(time.timed_calls, 3);
}

TEST(FunctionRegions, CallsThatNeverReturnedLeaveTheTimeUnknown) {
    // Their FLOPs are counted, their time is not: the time of the others alone would overstate it.
    const auto r = region("jumper", 200, 1600, 4, {"jumper"});
    auto t = timing("jumper", 3, 0.03);
    t.functions[0].unfinished = 1;
    const auto time = function_region_time(r, {}, &t, nullptr, 10000);
    EXPECT_EQ(time.source, TimeSource::unknown);
    EXPECT_NE(time.note.find("never returned"), std::string::npos);
}

TEST(FunctionRegions, CallsTooShortForPtraceFallBackToALeafsSelfTime) {
    const auto r = region("dot", 100, 800, 5000, {"dot"});
    const auto t = timing("dot", 5000, 5000 * 1e-6, 30e-6);  // 1 us calls, 30 us stops
    const auto s = sampling("dot.isra.0", 50);
    const std::vector<RegionCounts> exclusive = {counts("dot.isra.0", 100, 800)};
    const auto time = function_region_time(r, exclusive, &t, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::leaf_self_time);
    EXPECT_EQ(time.samples, 50);
    EXPECT_NE(time.note.find("too short"), std::string::npos);
}

TEST(FunctionRegions, TooFewSamplesGiveNoTimeAndTheTracedLengthIsTheOneSaid) {
    // 40 us calls traced at 150 us each; a stop costs 92 us by the run's extra wall time, so the
    // calls' own length comes out as nothing (take_off_stops clamps it at 0).
    const auto r = region("triad", 100, 800, 10, {"triad"});
    auto t = timing("triad", 10, 0, 91.8e-6);
    t.functions[0].interval_seconds = 10 * 150e-6;
    t.stop_from_wall_time = true;
    const std::vector<RegionCounts> exclusive = {counts("triad", 100, 800)};
    const auto s = sampling("triad", 2);
    const auto time = function_region_time(r, exclusive, &t, &s, 10000);
    // Two samples are no time, as the note says (before: a time from them, beside "at least 10 are needed").
    EXPECT_EQ(time.source, TimeSource::unknown);
    EXPECT_FALSE(time.seconds.has_value());
    EXPECT_NE(time.note.find("only 2 samples in it (at least 10 are needed"), std::string::npos) << time.note;
    // The length said is the one measured, with how the stop's cost was had; never "0 us each".
    EXPECT_NE(time.note.find("150 us each from entry to return as traced, against 91.8 us for a stop (from the "
                             "traced run's extra wall time)"),
              std::string::npos)
        << time.note;
    EXPECT_EQ(time.note.find(" 0 us"), std::string::npos) << time.note;
}

// Stops that cost more in the run than in the calibration show in the traced
// run's wall time; only an excess well above the runs' noise is used.
TEST(CallTimer, StopsCostWhatTheTracedRunsExtraWallTimeSays) {
    auto t = timing("fft", 2000, 0, 20e-6);
    t.functions[0].interval_seconds = 0.25;  // 125 us a call as the tracer saw it, 20 us calibrated per stop
    take_off_stops(t);
    EXPECT_NEAR(t.functions[0].seconds, 0.21, 1e-12);
    t.wall_seconds = 0.45;
    t.setup_seconds = 0.01;
    account_stops_by_wall_time(t, 0.04);  // 0.40 s more than untraced: 100 us for each of 4000 stops
    EXPECT_TRUE(t.stop_from_wall_time);
    EXPECT_NEAR(t.stop_seconds, 100e-6, 1e-12);
    EXPECT_NEAR(t.functions[0].seconds, 0.05, 1e-12);

    // Few long calls: the excess (8 ms) is within the runs' noise (under half of 0.1 s): calibration stays.
    auto few = timing("solve", 40, 0, 50e-6);
    few.functions[0].interval_seconds = 0.09;
    take_off_stops(few);
    few.wall_seconds = 0.118;
    few.setup_seconds = 0.01;
    account_stops_by_wall_time(few, 0.1);
    EXPECT_FALSE(few.stop_from_wall_time);
    EXPECT_NEAR(few.functions[0].seconds, 0.088, 1e-12);

    // Few calls in a short run on a busy host: the excess (33 ms over 50 ms) is noise, not 8 stops at
    // 4 ms each; the stops at their calibrated cost (0.4 ms) are under a tenth of the run.
    auto busy = timing("parallel_axpy", 4, 0, 50e-6);
    busy.functions[0].interval_seconds = 0.0088;
    take_off_stops(busy);
    busy.wall_seconds = 0.093;
    busy.setup_seconds = 0.01;
    account_stops_by_wall_time(busy, 0.05);
    EXPECT_FALSE(busy.stop_from_wall_time);
    EXPECT_DOUBLE_EQ(busy.stop_seconds, 50e-6);
    EXPECT_NEAR(busy.functions[0].seconds, 0.0086, 1e-12);

    // Never below the calibration, never below zero.
    auto cheap = timing("f", 100, 0, 300e-6);
    cheap.functions[0].interval_seconds = 0.02;
    cheap.wall_seconds = 0.2;
    account_stops_by_wall_time(cheap, 0.05);  // 0.15 s / 200 stops = 750 us: more than calibrated
    EXPECT_NEAR(cheap.stop_seconds, 750e-6, 1e-12);
    EXPECT_EQ(cheap.functions[0].seconds, 0);
    auto calm = timing("f", 100, 0, 900e-6);
    calm.wall_seconds = 0.2;
    account_stops_by_wall_time(calm, 0.05);
    EXPECT_FALSE(calm.stop_from_wall_time);
    EXPECT_DOUBLE_EQ(calm.stop_seconds, 900e-6);
}

TEST(FunctionRegions, ACallerWithoutTimedCallsHasNoTime) {
    // Its self time would leave out its callees' time: a point above the roof.
    const auto r = region("caller", 200, 1600, 20000, {"caller"});
    const auto s = sampling("caller", 50);
    const std::vector<RegionCounts> exclusive = {counts("caller", 100, 800)};
    const auto time = function_region_time(r, exclusive, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::unknown);
    EXPECT_FALSE(time.seconds.has_value());
    EXPECT_NE(time.note.find("called 20000 times"), std::string::npos);
}

TEST(FunctionRegions, ClosestNamesByShortName) {
    const std::vector<std::string> names = {"solver::Grid2D<double>::sweep(int)", "main", "sweep_all", "memcpy"};
    const auto close = closest_names("sweeep", names);
    ASSERT_FALSE(close.empty());
    EXPECT_EQ(close[0], "solver::Grid2D<double>::sweep(int)");
    EXPECT_TRUE(closest_names("zzzzzz", names).empty());
    // Short names against gfortran's contained procedures ("mm.0"): compared without the number.
    const std::vector<std::string> fortran = {"daxpy.2", "saxpy.1", "mm.0", "MAIN__", "main"};
    EXPECT_EQ(closest_names("mm", fortran), std::vector<std::string>{"mm.0"});
    EXPECT_EQ(closest_names("mn", fortran), std::vector<std::string>{"mm.0"});
    EXPECT_EQ(closest_names("daxpy", fortran).front(), "daxpy.2");
}

TEST(FunctionList, SharesAndMarkerInternals) {
    auto big = counts("kernel", 990, 100);
    auto tiny = counts("main", 2, 1);
    auto memory = counts("memcpy", 0, 900);
    auto marker = counts("(anonymous namespace)::write_results()", 8, 50);
    marker.object = "/opt/roofline/lib/libroofline_marker.so.0";
    const std::vector<RegionCounts> all = {big, tiny, memory, marker};
    EXPECT_TRUE(is_marker_internal(marker));
    EXPECT_FALSE(is_marker_internal(big));
    const auto shown = significant_functions(all, nullptr, 0.01);
    ASSERT_EQ(shown.size(), 2u);
    EXPECT_EQ(shown[0].name, "kernel");
    EXPECT_EQ(shown[1].name, "memcpy");  // 86% of the bytes, no FLOPs
    const auto points = functions_worth_a_point(shown, all, 0.01);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].name, "kernel");
}

TEST(FunctionList, WorkSpreadThinIsCountedAndALowerShareOffered) {
    // 600 instantiations of 0.1% of the FLOPs each and a few functions of more: at 1% the table
    // lists the few, and its line says what the others hold and what a lower --min-share lists.
    std::vector<RegionCounts> all;
    for (int k = 0; k < 600; ++k) all.push_back(counts("Kernel<" + std::to_string(k) + ">::apply", 1000, 10));
    all.push_back(counts("main", 20000, 100000));
    all.push_back(counts("setup", 30000, 10));
    SamplingResult sampling;
    sampling.functions["main"].seconds = 0.5;
    sampling.functions["Kernel<3>::apply"].seconds = 0.5;
    const auto shown = significant_functions(all, &sampling, 0.01);
    const auto share = function_list_share(all, shown, &sampling, 0.01);
    EXPECT_EQ(share.listed, shown.size());
    EXPECT_EQ(share.listed, 3u);  // setup and main by their FLOPs and bytes, Kernel<3> by its time
    EXPECT_EQ(share.left_out, 599u);
    EXPECT_DOUBLE_EQ(share.all_flops, 650000);
    EXPECT_DOUBLE_EQ(share.listed_flops, 51000);
    EXPECT_DOUBLE_EQ(share.left_out_flops, 599000);
    EXPECT_DOUBLE_EQ(share.largest_left_out_flops, 1000);
    ASSERT_TRUE(share.listed_seconds && share.all_seconds);
    EXPECT_DOUBLE_EQ(*share.listed_seconds, 1.0);
    EXPECT_DOUBLE_EQ(*share.all_seconds, 1.0);
    // The largest left out holds 0.154% of the FLOPs: 0.1 is the roundest share under it, and
    // what it lists is what the table would.
    EXPECT_EQ(share.lower_min_share_percent, 0.1);
    EXPECT_EQ(share.lower_lists, significant_functions(all, &sampling, 0.1 / 100).size() - shown.size());
    EXPECT_EQ(share.lower_lists, 599u);
    // Nothing left out: nothing offered.
    const auto everything = significant_functions(all, &sampling, 0);
    const auto none = function_list_share(all, everything, &sampling, 0);
    EXPECT_EQ(none.left_out, 0u);
    EXPECT_EQ(none.lower_lists, 0u);
}

} // namespace

namespace {

// Call-stack samples: `with` stacks holding `fn` (over `leaf`), then `stuck` stacks not unwound past `leaf`,
// all on thread 1, one every 1e-4 s of a thread that is always on a CPU.
SamplingResult stacks(const std::string& fn, long long with, long long stuck, const std::string& leaf = "kern") {
    SamplingResult s;
    s.ok = true;
    s.call_stacks = true;
    s.period_seconds = 1e-4;
    s.stack_functions = {"main", fn, leaf};
    s.stack_function_files = {"/app", "/app", "/lib/libk.so"};
    for (long long i = 0; i < with; ++i) s.stacks.push_back({1, true, {2, 1, 0}});
    for (long long i = 0; i < stuck; ++i) s.stacks.push_back({1, false, {2}});
    s.stacks_incomplete = stuck;
    s.samples = with + stuck;
    s.threads[1] = {s.samples, 0, static_cast<std::uint64_t>((s.samples - 1) * 1e5)};
    return s;
}

RegionCounts with_instructions(RegionCounts c, double instructions) {
    c.instructions = instructions;
    return c;
}

} // namespace

TEST(FunctionRegions, CallStacksGiveTheInclusiveTimeOfCallsTooManyToTime) {
    const auto r = region("caller", 200, 1600, 50000, {"caller"});
    const auto s = stacks("caller", 100, 0);
    const auto time = function_region_time(r, {}, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::sampled_stacks);
    ASSERT_TRUE(time.seconds);
    EXPECT_NEAR(*time.seconds, 100 * 1e-4, 1e-12);
    EXPECT_EQ(time.samples, 100);
    EXPECT_NE(time.note.find("inclusive CPU time from 100 call-stack samples"), std::string::npos) << time.note;
}

TEST(FunctionRegions, StacksThatMayHideTheFunctionLeaveItsTimeUnknown) {
    const auto r = region("caller", 200, 1600, 50000, {"caller"});
    const auto s = stacks("caller", 100, 10);  // 10% of its samples may be missing
    const auto time = function_region_time(r, {}, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::unknown);
    EXPECT_NE(time.note.find("may hide it"), std::string::npos) << time.note;
    const auto few = stacks("caller", 5, 0);
    EXPECT_EQ(function_region_time(r, {}, nullptr, &few, 10000).source, TimeSource::unknown);
}

TEST(FunctionRegions, TheInstrumentRunPlacesStacksStuckInCodeThatRunsOnlyInsideTheFunction) {
    auto r = region("caller", 200, 1600, 50000, {"caller"});
    auto s = stacks("caller", 100, 10, "kern_ZEN");
    // The instrument run saw the library's kernel under another name (another CPU dispatch): its file decides.
    auto kern = with_instructions(counts("kern_HASWELL", 100, 800), 1e6);
    kern.object = "/lib/libk.so";
    r.inner_instructions = {{"kern_HASWELL", 1e6}, {"caller", 10}};
    const auto time = function_region_time(r, {kern, with_instructions(counts("caller", 100, 800), 10)}, nullptr,
                                           &s, 10000);
    EXPECT_EQ(time.source, TimeSource::sampled_stacks) << time.note;
    EXPECT_EQ(time.samples, 110);
    // Half of the kernel's instructions ran outside: the stuck samples stay unplaced.
    r.inner_instructions["kern_HASWELL"] = 5e5;
    EXPECT_EQ(function_region_time(r, {kern}, nullptr, &s, 10000).source, TimeSource::unknown);
}

TEST(FunctionRegions, AStrippedFunctionPlacesStacksByItsOwnShareNotItsFiles) {
    // A stripped library's static kernel, named alike by the sampler and the Valgrind tool, ran only
    // inside the function; another static function of the file ran as much outside it.
    const std::string kernel = "(no symbol: libk.so+0x1140)", setup = "(no symbol: libk.so+0x2000)";
    auto r = region("caller", 200, 1600, 50000, {"caller"});
    auto s = stacks("caller", 100, 10, kernel);
    auto kern = with_instructions(counts(kernel, 100, 800), 1e6);
    auto other = with_instructions(counts(setup, 100, 800), 1e6);
    kern.object = other.object = "/lib/libk.so";
    r.inner_instructions = {{kernel, 1e6}, {"caller", 10}};
    const std::vector<RegionCounts> exclusive = {kern, other, with_instructions(counts("caller", 100, 800), 10)};
    const auto time = function_region_time(r, exclusive, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::sampled_stacks) << time.note;  // the file's share, 0.5, would not
    EXPECT_EQ(time.samples, 110);
}

TEST(FunctionRegions, WorkOfOtherThreadsNeedsACallerThatNeverSlept) {
    auto r = region("caller", 200, 1600, 50000, {"caller"});
    r.threads = 3;
    auto s = stacks("caller", 100, 0);
    auto time = function_region_time(r, {}, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::sampled_stacks) << time.note;
    EXPECT_EQ(time.threads, 3);
    s.threads[1].last_ns *= 4;  // on a CPU a quarter of its life
    time = function_region_time(r, {}, nullptr, &s, 10000);
    EXPECT_EQ(time.source, TimeSource::unknown);
    EXPECT_NE(time.note.find("on a CPU only"), std::string::npos) << time.note;
}
