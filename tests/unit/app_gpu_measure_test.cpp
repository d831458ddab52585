// GPU measure's use case (app/gpu_measure.hpp) without a GPU: a CSV recorded by ncu earlier
// gives a point per kernel and says nothing on the way; without ncu a command is refused as a
// request; ncu's command line asks for the roofline metrics and runs the program last.
#include "app/gpu/cuda/ncu_profile.hpp"
#include "app/gpu_measure.hpp"
#include "io/temp_dir.hpp"
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace roofline::app {
namespace {

const std::string kCsv = std::string(ROOFLINE_TEST_DATA_DIR) + "/ncu-details.csv";

TEST(GpuMeasure, ARecordedCsvGivesAPointPerKernelWithoutRunningAnything) {
    GpuMeasureRequest r;
    r.ncu_csv = kCsv;
    int notes = 0;
    const auto result = measure_gpu_kernels(r, nullptr, [&](const GpuMeasureNote&) { ++notes; });
    EXPECT_EQ(notes, 0);
    EXPECT_EQ(result.from, kCsv);
    EXPECT_TRUE(result.ncu.empty());
    EXPECT_FALSE(result.ended_early);
    EXPECT_FALSE(result.offload);
    EXPECT_TRUE(result.offload_error.empty());
    ASSERT_FALSE(result.kernels.empty());
    for (const auto& p : result.kernels) {
        EXPECT_EQ(p.source.origin(), PointOrigin::ncu) << p.name;
        EXPECT_GT(p.seconds, 0) << p.name;
    }
    Provenance provenance;
    describe_gpu_measure(r, result, provenance);
    EXPECT_EQ(provenance.engine, "ncu");
    EXPECT_EQ(provenance.options.at("ncu_csv"), kCsv);
    EXPECT_EQ(provenance.options.count("ncu"), 0u);
}

TEST(GpuMeasure, ACsvWithoutKernelsSaysSo) {
    TempDir dir("roofline-gpu-measure-test");
    const std::string empty = dir.file("empty.csv");
    { FILE* f = std::fopen(empty.c_str(), "w"); std::fclose(f); }
    GpuMeasureRequest r;
    r.ncu_csv = empty;
    EXPECT_THROW(measure_gpu_kernels(r, nullptr, {}), std::runtime_error);
}

TEST(GpuMeasure, WithoutNcuACommandIsARequestErrorAndNothingRuns) {
    TempDir dir("roofline-gpu-measure-test");
    const test::ScopedEnv path("PATH", dir.path());
    GpuMeasureRequest r;
    r.command = {"/bin/false"};
    try {
        (void)measure_gpu_kernels(r, nullptr, {});
        FAIL() << "no ncu anywhere, and no error";
    } catch (const RequestError& e) {
        EXPECT_NE(std::string(e.what()).find("ncu is not on PATH"), std::string::npos) << e.what();
    }
}

TEST(GpuMeasure, NcuCommandAsksForTheMetricsAndRunsTheProgramLast) {
    const auto argv = cuda::ncu_command("/opt/ncu", "/tmp/x.csv", {"./app", "-n", "3"});
    ASSERT_GE(argv.size(), 4u);
    EXPECT_EQ(argv.front(), "/opt/ncu");
    EXPECT_EQ(std::vector<std::string>(argv.end() - 3, argv.end()), (std::vector<std::string>{"./app", "-n", "3"}));
    const auto log = std::find(argv.begin(), argv.end(), "--log-file");
    ASSERT_NE(log, argv.end());
    EXPECT_EQ(*(log + 1), "/tmp/x.csv");
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--metrics"), argv.end());
    // The kernels run at the clocks the roofs were measured at, not ncu's locked base clock.
    const auto clocks = std::find(argv.begin(), argv.end(), "--clock-control");
    ASSERT_NE(clocks, argv.end());
    EXPECT_EQ(*(clocks + 1), "none");
}

} // namespace
} // namespace roofline::app
