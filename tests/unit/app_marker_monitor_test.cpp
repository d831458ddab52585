// app/marker_monitor: a job's published snapshots to one sample per job and interval.
#include "app/marker_monitor.hpp"
#include "app/request_error.hpp"
#include "io/points_json.hpp"
#include "io/temp_dir.hpp"
#include "io/text_file.hpp"

#include <gtest/gtest.h>

#include <chrono>

using namespace roofline;

namespace {

std::uint64_t monotonic_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// The counts of an instrument run: region "step", 10 calls of 100 FLOPs each.
std::string counts_file(const TempDir& dir) {
    Point step;
    step.name = "step";
    step.work = 1000;
    step.bytes["L1"] = 4000;
    step.seconds = 1;
    step.details["calls"] = 10;
    const auto path = dir.file("counts.json");
    write_points_file(path, {step});
    return path;
}

void publish(const std::string& dir, int pid, std::uint64_t start_ns, std::uint64_t time_ns, long long step_calls,
             long long other_calls) {
    write_text_file_atomic(
        dir + "/" + std::to_string(pid) + ".json",
        fmt::format(R"({{"schema": "roofline.monitor/1", "pid": {}, "job": "77", "start_ns": {}, "time_ns": {},
                    "period_ms": 1000, "regions": [
                    {{"name": "step", "calls": {}, "seconds": 0.5, "threads": 1, "nested": false}},
                    {{"name": "other", "calls": {}, "seconds": 0.1, "threads": 1, "nested": false}}]}})",
                    pid, start_ns, time_ns, step_calls, other_calls));
}

} // namespace

TEST(AppMarkerMonitor, ARegionAskedForMustHaveCounts) {
    TempDir dir("roofline-marker-monitor");
    try {
        app::MarkerMonitor monitor({"77", false, dir.file("snapshots"), counts_file(dir), {"nonesuch"}}, {});
        FAIL() << "a region without counts cannot be sampled";
    } catch (const app::RequestError& e) {
        EXPECT_NE(std::string(e.what()).find("--region 'nonesuch' is not in"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("(its regions: step)"), std::string::npos) << e.what();
    }
}

TEST(AppMarkerMonitor, CallsSinceTheLastLookTimesThePerCallCounts) {
    TempDir dir("roofline-marker-monitor");
    const auto snapshots = dir.file("snapshots");
    std::vector<app::MarkerMonitorNote> notes;
    app::MarkerMonitor monitor({"77", false, snapshots, counts_file(dir), {}},
                               [&](const app::MarkerMonitorNote& n) { notes.push_back(n); });
    monitor.start();
    // Nothing published yet: said once.
    EXPECT_TRUE(monitor.sample().empty());
    EXPECT_TRUE(monitor.sample().empty());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].kind, app::MarkerMonitorNote::Kind::nothing_published_yet);
    // A process started after the monitor counts from its start.
    const auto start = monotonic_ns() + 1'000'000'000ull;
    publish(snapshots, 42, start, start + 2'000'000'000ull, 12, 3);
    auto samples = monitor.sample();
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_EQ(samples[0].sample.job, "77");
    EXPECT_DOUBLE_EQ(samples[0].calls, 12);
    EXPECT_DOUBLE_EQ(samples[0].sample.point.work, 12 * 100.0);
    EXPECT_DOUBLE_EQ(samples[0].sample.point.seconds, 2);
    EXPECT_EQ(samples[0].sample.processes, 1u);
    EXPECT_EQ(samples[0].regions_uncounted, std::vector<std::string>{"other"});
    // The next interval: only the calls since, and "other" is not said again.
    publish(snapshots, 42, start, start + 3'000'000'000ull, 20, 5);
    samples = monitor.sample();
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_DOUBLE_EQ(samples[0].sample.point.work, 8 * 100.0);
    EXPECT_TRUE(samples[0].regions_uncounted.empty());
    EXPECT_TRUE(monitor.seen_any());
}
