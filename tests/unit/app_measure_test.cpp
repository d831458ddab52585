// app/measure: the runs of a CPU measurement, which are made and which not.
#include "app/measure.hpp"

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
