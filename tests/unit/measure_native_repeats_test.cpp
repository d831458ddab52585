// measure --repeat (issue 35) run for real: the time engine's native run repeated.
#include "measure/child_process.hpp"
#include "measure/engine.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace roofline;
using namespace roofline::measure;

namespace {

struct Counter {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("roofline-repeat-" + std::to_string(::getpid()) + "-" +
                         ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                           .string();
    ~Counter() { std::filesystem::remove(path); }
    int lines() const {
        std::ifstream in(path);
        int n = 0;
        for (std::string line; std::getline(in, line);) ++n;
        return n;
    }
};

MeasureRequest time_request(std::vector<std::string> argv, RepeatRequest repeat) {
    MeasureRequest r;
    r.argv = std::move(argv);
    r.engine = EngineKind::time;
    r.repeat = repeat;
    return r;
}

} // namespace

TEST(MeasureNativeRepeats, AWarmUpThenTheTimedRuns) {
    Counter c;
    const auto result = run_measurement(time_request({"sh", "-c", "echo >> " + c.path}, {3, -1}));
    EXPECT_EQ(c.lines(), 4);
    EXPECT_EQ(result.native_runs, 4);
    ASSERT_TRUE(result.wall_timing);
    EXPECT_EQ(result.wall_timing->runs, 3);
    EXPECT_EQ(result.wall_timing->warmup_runs, 1);
    EXPECT_DOUBLE_EQ(result.wall_seconds, result.wall_timing->fastest);
    EXPECT_FALSE(result.repeat_plan.automatic);
}

TEST(MeasureNativeRepeats, ALongProgramIsTimedOnceByDefault) {
    Counter c;
    // 1.2 s: no room in the 3 s budget for a warm-up and two timed runs.
    const auto result = run_measurement(time_request({"sh", "-c", "sleep 1.2; echo >> " + c.path}, {}));
    EXPECT_EQ(c.lines(), 1);
    ASSERT_TRUE(result.wall_timing);
    EXPECT_EQ(result.wall_timing->runs, 1);
    EXPECT_EQ(result.wall_timing->warmup_runs, 0);
    EXPECT_TRUE(result.repeat_plan.automatic);
}

TEST(MeasureNativeRepeats, ARunThatEndsUnlikeTheFirstIsLeftOut) {
    Counter c;
    // Exits 0 the first two times, then 1: the third run is left out, and no fourth is made.
    const auto script = "echo >> " + c.path + "; [ $(wc -l < " + c.path + ") -le 2 ]";
    const auto result = run_measurement(time_request({"sh", "-c", script}, {4, 0}));
    EXPECT_EQ(c.lines(), 3);
    ASSERT_TRUE(result.wall_timing);
    EXPECT_EQ(result.wall_timing->runs, 2);
    bool said = false;
    for (const auto& w : result.warnings) said = said || w.find("native run 3 of 4 exited with status 1") != std::string::npos;
    EXPECT_TRUE(said);
    EXPECT_TRUE(result.status.exited);
    EXPECT_EQ(result.status.exit_code, 0);  // the first run's
}

TEST(MeasureNativeRepeats, ACrashIsNotRepeated) {
    Counter c;
    const auto result = run_measurement(time_request({"sh", "-c", "echo >> " + c.path + "; kill -SEGV $$"}, {3, -1}));
    EXPECT_EQ(c.lines(), 1);
    EXPECT_FALSE(result.status.exited);
    ASSERT_TRUE(result.wall_timing);
    EXPECT_EQ(result.wall_timing->runs, 1);
}
