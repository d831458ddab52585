// app/measure: the runs of a CPU measurement, which are made and which not.
#include "app/measure.hpp"
#include "measure/merge.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

app::ProgramMeasureRequest timed(std::vector<std::string> argv) {
    app::ProgramMeasureRequest request;
    request.measure.argv = std::move(argv);
    request.measure.engine = measure::EngineKind::time;
    return request;
}

} // namespace

TEST(AppMeasure, OnlyTheEnginesRunsWhenNothingElseIsAskedFor) {
    const auto m = app::measure_program(timed({"true"}));
    EXPECT_EQ(m.result.engine, measure::EngineKind::time);
    EXPECT_TRUE(m.result.status.exited);
    EXPECT_FALSE(m.timing);
    EXPECT_FALSE(m.sampling);
    EXPECT_TRUE(m.sampling_error.empty());
}

TEST(AppMeasure, ARankThatMayNotRerunRunsOnce) {
    // --functions would sample a second run; a rank whose launcher lets it start the program once may not.
    auto request = timed({"true"});
    request.functions = true;
    request.in_rank = true;
    request.rank_can_rerun = false;
    const auto m = app::measure_program(request);
    EXPECT_FALSE(m.timing);
    EXPECT_FALSE(m.sampling);
    EXPECT_TRUE(m.sampling_error.empty()) << m.sampling_error;
}

TEST(AppMeasure, FunctionsAskForASampledRun) {
    auto request = timed({"true"});
    request.functions = true;
    const auto m = app::measure_program(request);
    // Made: either its samples, or why sampling could not be set up here.
    EXPECT_TRUE(m.sampling.has_value() || !m.sampling_error.empty());
    EXPECT_FALSE(m.timing);  // no --region-function: no call timing
}

TEST(AppMeasure, AMissingCommandIsCommandNotFound) {
    EXPECT_THROW(app::measure_program(timed({"/nonexistent/program"})), measure::CommandNotFound);
}

namespace {

measure::RegionCounts counted(const std::string& name, double flops) {
    measure::RegionCounts c;
    c.name = name;
    c.calls = 1;
    c.flops["f64_add"] = flops;
    c.bytes_loaded = 8 * flops;
    c.instructions = 4 * flops;
    return c;
}

// An instrument run's counts: the program, one function, and a --region-function that matched nothing.
app::ProgramMeasurement instrument_run() {
    app::ProgramMeasurement m;
    m.result.engine = measure::EngineKind::instrument;
    m.result.wall_seconds = 1;
    m.result.counts = {counted(measure::kProgramRegion, 1e6), counted("<function swep>", 0)};
    m.result.functions = {counted("sweep", 1e6)};
    measure::SamplingResult s;
    s.ok = true;
    s.period_seconds = 1e-4;
    s.samples = 100;
    s.functions["sweep"] = {100, 0.01, ""};
    m.sampling = s;
    return m;
}

} // namespace

TEST(AppMeasure, AnUnmatchedRegionFunctionIsAWarningAndNoPoint) {
    const auto m = instrument_run();
    const auto made = app::measure_points(m, {});
    ASSERT_FALSE(made.messages.empty());
    EXPECT_EQ(made.messages.front().kind, app::MeasureMessage::Kind::warning);
    EXPECT_EQ(made.messages.front().text.rfind("--region-function swep: no function of that name was called", 0), 0u)
        << made.messages.front().text;
    EXPECT_TRUE(made.function_regions.empty());
    for (const auto& p : made.points) EXPECT_NE(p.name, "<function swep>");
}

TEST(AppMeasure, FunctionsWithSamplesArePointsOnlyWhenAskedFor) {
    const auto m = instrument_run();
    const auto has_sweep = [](const app::MeasuredPoints& made) {
        for (const auto& p : made.points)
            if (p.name == "sweep") return p.source == PointOrigin::instrument_sampling && p.seconds == 0.01;
        return false;
    };
    app::PointsRequest request;
    EXPECT_FALSE(has_sweep(app::measure_points(m, request)));
    request.functions = true;
    const auto made = app::measure_points(m, request);
    EXPECT_TRUE(has_sweep(made));
    ASSERT_EQ(made.shown_functions.size(), 1u);
    EXPECT_EQ(made.shown_functions.front().name, "sweep");
}
