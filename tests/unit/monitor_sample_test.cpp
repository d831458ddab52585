// roofline monitor's arithmetic (core/monitor_sample, core/job_summary) and the snapshot
// reader (measure/monitor_snapshot): no processes, no clocks.
#include "core/job_summary.hpp"
#include "core/monitor_sample.hpp"
#include "measure/engine.hpp"
#include "measure/monitor_snapshot.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace roofline;

namespace {

Point region(const std::string& name, double flops, double l1, double dram, double calls) {
    Point p;
    p.name = name;
    p.work = flops;
    p.bytes = {{"L1", l1}, {"DRAM", dram}};
    p.seconds = 1;
    p.details = {{"calls", calls}, {"flops_f64_fma", flops}, {"mpi_rank", 3}};
    return p;
}

ProcessSnapshot snap(long long pid, std::uint64_t start, std::uint64_t t, std::vector<RegionTotals> regions) {
    ProcessSnapshot s;
    s.pid = pid;
    s.start_ns = start;
    s.time_ns = t;
    s.regions = std::move(regions);
    return s;
}

} // namespace

TEST(MonitorSample, PerCallCountsDivideByCallsAndSkipRegionsWithoutCalls) {
    Point program = region("(program)", 1e9, 1, 1, 0);
    program.details.erase("calls");
    const auto counts = per_call_counts({program, region("step", 4e6, 8e6, 1e6, 10)});
    ASSERT_EQ(counts.size(), 1u);
    const auto& w = counts.at("step");
    EXPECT_DOUBLE_EQ(w.work, 4e5);
    EXPECT_DOUBLE_EQ(w.bytes.at("L1"), 8e5);
    EXPECT_DOUBLE_EQ(w.bytes.at("DRAM"), 1e5);
    EXPECT_DOUBLE_EQ(w.details.at("flops_f64_fma"), 4e5);
    EXPECT_EQ(w.details.count("mpi_rank"), 0u);  // not a count: not scaled per call
    EXPECT_THROW(per_call_counts({program}), std::invalid_argument);
}

TEST(MonitorSample, DeltaBetweenSnapshotsAndFromTheStart) {
    const auto a = snap(7, 1'000'000'000, 3'000'000'000, {{"step", 100, 0.5, 1, false}});
    const auto b = snap(7, 1'000'000'000, 4'500'000'000, {{"step", 250, 1.25, 2, false}, {"new", 3, 0.1, 1, true}});
    const auto d = snapshot_delta(&a, b);
    EXPECT_DOUBLE_EQ(d.seconds, 1.5);
    EXPECT_EQ(d.calls.at("step"), 150);
    EXPECT_DOUBLE_EQ(d.busy_seconds.at("step"), 0.75);
    EXPECT_EQ(d.calls.at("new"), 3);  // first seen in b: all its calls are this interval's
    EXPECT_EQ(d.threads.at("step"), 2);
    EXPECT_EQ(d.nested.count("new"), 1u);
    const auto from_start = snapshot_delta(nullptr, a);
    EXPECT_DOUBLE_EQ(from_start.seconds, 2.0);
    EXPECT_EQ(from_start.calls.at("step"), 100);
    // A reset region (totals went down) counts from zero; time going backwards is refused.
    const auto reset = snap(7, 1'000'000'000, 5'000'000'000, {{"step", 20, 0.1, 1, false}});
    EXPECT_EQ(snapshot_delta(&b, reset).calls.at("step"), 20);
    EXPECT_THROW(snapshot_delta(&b, a), std::invalid_argument);
    EXPECT_THROW(snapshot_delta(&a, snap(8, 0, 9'000'000'000, {})), std::invalid_argument);
}

TEST(MonitorSample, IntervalSampleSumsProcessesAndSkipsNestedRegions) {
    const auto counts = per_call_counts({region("outer", 1000, 800, 100, 1), region("inner", 400, 300, 0, 1)});
    ProcessDelta p1;
    p1.pid = 1;
    p1.seconds = 1.0;
    p1.calls = {{"outer", 10}, {"inner", 20}, {"unknown", 5}};
    p1.busy_seconds = {{"outer", 0.5}, {"inner", 0.25}, {"unknown", 0.1}};
    p1.threads = {{"outer", 2}, {"inner", 2}, {"unknown", 1}};
    p1.nested = {"inner"};
    ProcessDelta p2 = p1;
    p2.pid = 2;
    p2.seconds = 1.1;
    p2.calls = {{"outer", 5}, {"inner", 0}, {"unknown", 0}};
    const auto s = interval_sample({p1, p2}, counts);
    EXPECT_DOUBLE_EQ(s.point.work, 15 * 1000.0);  // inner's work is in outer's
    EXPECT_DOUBLE_EQ(s.point.bytes.at("L1"), 15 * 800.0);
    EXPECT_DOUBLE_EQ(s.point.bytes.at("DRAM"), 15 * 100.0);
    EXPECT_DOUBLE_EQ(s.point.seconds, 1.1);  // the longer interval: never a rate above any process's
    EXPECT_EQ(s.point.threads, 4);
    EXPECT_DOUBLE_EQ(s.calls, 15);
    EXPECT_EQ(s.point.source, PointOrigin::monitor);
    ASSERT_EQ(s.regions_missing.size(), 1u);
    EXPECT_EQ(s.regions_missing[0], "unknown");
    // Only the regions asked for: inner alone.
    const auto only = interval_sample({p1}, counts, {"inner"});
    EXPECT_DOUBLE_EQ(only.point.work, 20 * 400.0);
    EXPECT_DOUBLE_EQ(only.point.details.at("monitor_busy_seconds"), 0.25);
    // No calls: a sample with no work (idle), one thread.
    ProcessDelta idle;
    idle.pid = 3;
    idle.seconds = 2;
    const auto none = interval_sample({idle}, counts);
    EXPECT_DOUBLE_EQ(none.point.work, 0);
    EXPECT_EQ(none.point.threads, 1);
}

TEST(MonitorSnapshot, ParsesTheLibrarysFileAndRefusesOthers) {
    const auto s = measure::parse_monitor_snapshot(
        R"({"schema": "roofline.monitor/1", "pid": 42, "job": "77", "start_ns": 5, "time_ns": 18446744073709551000,
            "period_ms": 1000, "finished": true,
            "regions": [{"name": "step", "calls": 12, "seconds": 0.5, "threads": 1, "nested": false}]})",
        "42.json");
    EXPECT_EQ(s.pid, 42);
    EXPECT_EQ(s.job, "77");
    EXPECT_EQ(s.time_ns, 18446744073709551000ull);  // exact: read as an integer
    EXPECT_TRUE(s.finished);
    ASSERT_EQ(s.regions.size(), 1u);
    EXPECT_EQ(s.regions[0].calls, 12);
    EXPECT_THROW(measure::parse_monitor_snapshot("{\"schema\": \"roofline.marker/1\"}", "x"), measure::MeasureError);
    EXPECT_THROW(measure::parse_monitor_snapshot("{", "x"), measure::MeasureError);
    // A schema of another type is a rejection with a message, not a JSON library type_error (fuzz finding).
    EXPECT_THROW(measure::parse_monitor_snapshot("{\"schema\": [\"roofline.monitor/1\"]}", "x"),
                 measure::MeasureError);
    EXPECT_THROW(measure::parse_monitor_snapshot(
                     R"({"schema": "roofline.monitor/1", "pid": 1, "start_ns": 9, "time_ns": 5, "regions": []})", "x"),
                 measure::MeasureError);
}

TEST(JobSummary, TimeBoundAndEfficiencyOverTime) {
    auto judged = [](double offset, double seconds, bool memory, double efficiency) {
        JobSample s;
        s.offset_seconds = offset;
        s.seconds = seconds;
        Analysis a;
        a.memory_bound = memory;
        a.efficiency = efficiency;
        s.analysis = a;
        return s;
    };
    JobSample idle;
    idle.offset_seconds = 5;
    idle.seconds = 1;
    const auto s = summarize_job({judged(30, 10, false, 0.9), judged(10, 10, true, 0.5), idle, judged(20, 10, true, 0.7)});
    EXPECT_EQ(s.samples, 4u);
    EXPECT_EQ(s.judged, 3u);
    EXPECT_DOUBLE_EQ(s.seconds, 31);
    EXPECT_DOUBLE_EQ(s.memory_bound_seconds, 20);
    EXPECT_DOUBLE_EQ(s.compute_bound_seconds, 10);
    EXPECT_DOUBLE_EQ(s.unjudged_seconds, 1);
    EXPECT_DOUBLE_EQ(*s.efficiency_min, 0.5);
    EXPECT_DOUBLE_EQ(*s.efficiency_median, 0.7);
    EXPECT_DOUBLE_EQ(*s.efficiency_max, 0.9);
    EXPECT_DOUBLE_EQ(s.rows.front().offset_seconds, 5);  // ordered by time
    EXPECT_FALSE(summarize_job({idle}).efficiency_median.has_value());
}
