// perf_event plumbing with software events, which work without a hardware PMU.
#include "measure/child_process.hpp"
#include "measure/engine.hpp"
#include "measure/perf_events.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace roofline::measure;

namespace {

std::vector<EncodedEvent> software_events() {
    std::vector<EncodedEvent> events;
    for (const auto& [alias, name] : {std::pair{"task_clock", "perf::TASK-CLOCK"}, {"cs", "perf::CONTEXT-SWITCHES"}}) {
        std::string error;
        auto e = encode_event(alias, name, error);
        EXPECT_TRUE(e.has_value()) << error;
        if (e) events.push_back(*e);
    }
    return events;
}

} // namespace

TEST(MeasurePerfEvents, EncodeAndEnvironment) {
    const auto events = software_events();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(perf_events_env(events), "task_clock=1:0x1,cs=1:0x3");
    // Whole-CPU counters: one entry per instance and CPU, the alias repeated.
    const std::vector<EncodedEvent> uncore = {{"imc_read", "uncore_imc_*/cas_count_read/", 14, 0x304, 0, 0, 0},
                                              {"imc_read", "uncore_imc_*/cas_count_read/", 15, 0x304, 0, 0, 0},
                                              {"df", "amd_df/x/", 12, 0x7, 0, 0x5, 64}};
    EXPECT_EQ(perf_events_env(uncore), "imc_read=14:0x304@0,imc_read=15:0x304@0,df=12:0x7:0x0:0x5@64");
    std::string error;
    EXPECT_FALSE(encode_event("x", "NO_SUCH_EVENT_ANYWHERE:FOO", error).has_value());
    EXPECT_FALSE(error.empty());
}

TEST(MeasurePerfEvents, SoftwareCountersOnABusyChild) {
    if (!probe_perf().software) GTEST_SKIP() << "perf_event_open is not permitted here";
    ProcessCounters counters;
    const auto events = software_events();
    const auto run = run_child({"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}, {},
                               [&](pid_t pid) { counters.open(pid, events); });
    EXPECT_EQ(run.status.exit_code, 0);
    EXPECT_TRUE(counters.failures().empty());
    const auto values = counters.read();
    ASSERT_EQ(values.count("task_clock"), 1u);
    EXPECT_GT(values.at("task_clock").value, 0);  // nanoseconds of CPU time
    EXPECT_LE(values.at("task_clock").value, run.wall_seconds * 1e9 * 1.5 + 1e7);
    ASSERT_EQ(values.count("cs"), 1u);
    // A count (a whole number; 0 is possible with exclude_kernel), and no more
    // than one switch per 10 us of the run.
    const double switches = values.at("cs").value;
    EXPECT_EQ(switches, std::floor(switches));
    EXPECT_LE(switches, run.wall_seconds * 1e5 + 100);
    EXPECT_GT(values.at("task_clock").running_share, 0);
}

TEST(MeasurePerfEvents, ProbeExplainsItself) {
    const auto probe = probe_perf();
    if (probe.hardware) GTEST_SKIP() << "hardware counters available";
    EXPECT_NE(probe.reason.find("perf_event_paranoid"), std::string::npos) << probe.reason;
    EXPECT_FALSE(probe.guidance.empty());
}

TEST(MeasurePerfEvents, AutoSelectionWithoutPmu) {
    if (probe_perf().hardware) GTEST_SKIP() << "hardware counters available: auto picks perf";
    MeasureRequest request;
    request.argv = {"true"};
    const auto result = run_measurement(request);
    EXPECT_NE(result.engine, EngineKind::perf);
    EXPECT_NE(result.engine_reason.find("perf is unavailable"), std::string::npos) << result.engine_reason;
    EXPECT_TRUE(result.status.exited);
}

TEST(MeasurePerfEvents, PerfEngineRefusesWithGuidance) {
    if (probe_perf().hardware) GTEST_SKIP() << "hardware counters available";
    MeasureRequest request;
    request.argv = {"true"};
    request.engine = EngineKind::perf;
    try {
        run_measurement(request);
        FAIL();
    } catch (const MeasureError& e) {
        EXPECT_NE(std::string(e.what()).find("To fix"), std::string::npos) << e.what();
    }
}

// The perf engine's whole path (event file, encoding, counters on the child,
// formulas) with a software-only event set, as if hardware counters were there.
#include "measure/engines_internal.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

TEST(MeasurePerfEvents, PerfEnginePathWithSoftwareEvents) {
    if (!probe_perf().software) GTEST_SKIP() << "perf_event_open is not permitted here";
    char dir_template[] = "/tmp/roofline-events-XXXXXX";
    ASSERT_NE(::mkdtemp(dir_template), nullptr);
    const std::string dir = dir_template;
    std::ofstream(dir + "/soft.txt") << "name soft\nmatch vendor=* families=*\ndescription software only\n"
                                        "event tc = perf::TASK-CLOCK\nevent cs = perf::CONTEXT-SWITCHES\n"
                                        "metric cycles = tc / 1\nmetric instructions = cs\n";
    MeasureRequest request;
    request.argv = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 4"};
    request.events_dir = dir;
    MeasureResult result;
    PerfProbe pretend;
    pretend.hardware = true;
    detail::run_perf_engine(request, result, pretend);
    std::filesystem::remove_all(dir);
    EXPECT_EQ(result.status.exit_code, 4);
    ASSERT_FALSE(result.counts.empty());
    const auto& program = result.counts.back();
    EXPECT_EQ(program.name, "(program)");
    EXPECT_GT(program.events.at("tc"), 0);
    EXPECT_GT(program.events.at("cycles"), 0);
    // "instructions" is the context-switch count here: a whole number, bounded by the run.
    const double switches = program.events.at("instructions");
    EXPECT_EQ(switches, std::floor(switches));
    EXPECT_LE(switches, result.wall_seconds * 1e5 + 100);
    EXPECT_EQ(result.multiplexing.count("tc"), 1u);
}
