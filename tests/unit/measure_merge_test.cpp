#include "measure/merge.hpp"

#include <gtest/gtest.h>

using namespace roofline::measure;

TEST(MeasureMerge, TimingsAndCountsByName) {
    MeasureResult r;
    r.engine = EngineKind::instrument;
    r.wall_seconds = 2.0;
    r.timings = {{"solve", 10, 1.0, 2}, {"io", 1, 0.5, 1}};
    RegionCounts solve;
    solve.name = "solve";
    solve.flops = {{"f64_fma", 4e9}, {"f64_add", 1e9}};
    solve.flops_by_width = {{"256", 5e9}};
    solve.bytes_loaded = 2e9;
    solve.bytes_stored = 1e9;
    RegionCounts program = solve;
    program.name = "(program)";
    RegionCounts fn;
    fn.name = "<function daxpy>";
    fn.flops = {{"f64_fma", 1}};
    r.counts = {solve, program, fn};

    std::vector<std::string> skipped;
    const auto points = merge_points(r, &skipped);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].name, "solve");
    EXPECT_DOUBLE_EQ(points[0].work, 5e9);
    EXPECT_DOUBLE_EQ(points[0].bytes.at("L1"), 3e9);
    EXPECT_DOUBLE_EQ(points[0].seconds, 1.0);
    EXPECT_EQ(points[0].threads, 2);
    EXPECT_EQ(points[0].source, roofline::PointOrigin::instrument);
    EXPECT_DOUBLE_EQ(points[0].details.at("flops_f64_fma"), 4e9);
    EXPECT_DOUBLE_EQ(points[0].details.at("flops_by_width_256"), 5e9);
    EXPECT_DOUBLE_EQ(points[0].details.at("calls"), 10);
    EXPECT_EQ(points[1].name, "io");
    EXPECT_DOUBLE_EQ(points[1].work, 0);
    EXPECT_TRUE(points[1].bytes.empty());
    EXPECT_EQ(points[2].name, "(program)");
    EXPECT_DOUBLE_EQ(points[2].seconds, 2.0);
    EXPECT_EQ(points[2].threads, 2);
    EXPECT_DOUBLE_EQ(points[2].work, 5e9);
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_NE(skipped[0].find("<function daxpy>"), std::string::npos);
}

TEST(MeasureMerge, PerfBytesByLevel) {
    MeasureResult r;
    r.engine = EngineKind::perf;
    r.wall_seconds = 1.0;
    RegionCounts program;
    program.name = "(program)";
    program.flops = {{"all", 1e9}};
    program.bytes_by_level = {{"DRAM", 4e9}};
    r.counts = {program};
    const auto points = merge_points(r);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_DOUBLE_EQ(points[0].bytes.at("DRAM"), 4e9);
    EXPECT_EQ(points[0].bytes.count("L1"), 0u);
    EXPECT_EQ(points[0].source, roofline::PointOrigin::perf);
}

TEST(MeasureMerge, UntimedRegionIsSkipped) {
    MeasureResult r;
    r.timings = {{"never_ended", 0, 0.0, 1}};
    std::vector<std::string> skipped;
    EXPECT_TRUE(merge_points(r, &skipped).empty());
    EXPECT_EQ(skipped.size(), 1u);
}

TEST(MeasureMerge, ThreadsThatDidTheWorkWinOverThoseThatOpenedTheRegion) {
    // A region opened on one thread around a library's thread pool: the marker
    // library saw 1 thread, the Valgrind tool counted 4 doing FLOPs.
    MeasureResult r;
    r.engine = EngineKind::instrument;
    r.wall_seconds = 1.0;
    r.timings = {{"gemm", 1, 0.5, 1}};
    RegionCounts gemm;
    gemm.name = "gemm";
    gemm.flops = {{"f64_fma", 1e9}};
    gemm.threads = 4;
    RegionCounts program = gemm;
    program.name = "(program)";
    program.threads = 5;
    r.counts = {gemm, program};
    const auto points = merge_points(r);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].threads, 4);
    EXPECT_EQ(points[1].threads, 5);
}

TEST(MeasureMerge, ThreadsThatOpenedTheRegionAreTheLeast) {
    // Two threads each opened "solve" natively; under Valgrind, which runs one
    // thread at a time, the first had exited before the second started, so the
    // tool saw one thread working at once (seen under load, 1 run in 4).
    MeasureResult r;
    r.engine = EngineKind::instrument;
    r.wall_seconds = 1.0;
    r.timings = {{"solve", 2, 0.5, 2}};
    RegionCounts solve;
    solve.name = "solve";
    solve.flops = {{"f64_add", 1e6}};
    solve.threads = 1;
    r.counts = {solve};
    const auto points = merge_points(r);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].threads, 2);
}

// The program ran at least the threads of its busiest region. Two pthreads, one doing 3x the other's
// work, in a marker region: natively 2 alive at once; under Valgrind (a loaded machine) the short one
// had ended before the long one started and the tool counted 1 for the program, which was then
// judged at one core's roofs and told to "use all cores".
TEST(MeasureMerge, ProgramThreadsAreAtLeastItsBusiestRegions) {
    MeasureResult r;
    r.engine = EngineKind::instrument;
    r.wall_seconds = 1.0;
    r.timings = {{"unequal", 1, 0.5, 2}};
    RegionCounts unequal;
    unequal.name = "unequal";
    unequal.flops = {{"f64_add", 1e6}};
    unequal.threads = 1;
    RegionCounts program = unequal;
    program.name = "(program)";
    r.counts = {unequal, program};
    const auto points = merge_points(r);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].threads, 2);
    EXPECT_EQ(points[1].name, "(program)");
    EXPECT_EQ(points[1].threads, 2);
}

// Without counts or marker regions wider than one thread, the whole program's threads are the CPUs
// its first run kept busy on average (CPU time over wall time), when clearly more than one.
TEST(MeasureMerge, ProgramThreadsFromCpuTimeOnlyWhenNothingCountedThem) {
    MeasureResult r;
    r.engine = EngineKind::time;
    r.wall_seconds = 1.0;
    r.cpu_wall_seconds = 1.0;
    r.cpu_user_seconds = 3.8;
    r.cpu_system_seconds = 0.1;
    auto points = merge_points(r);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].name, "(program)");
    EXPECT_EQ(points[0].threads, 4);
    EXPECT_DOUBLE_EQ(points[0].details.at("threads_from_cpu_time"), 3.9);
    EXPECT_DOUBLE_EQ(points[0].details.at("cpu_system_seconds"), 0.1);

    r.cpu_user_seconds = 1.3;  // one thread working, another waking now and then: 1
    points = merge_points(r);
    EXPECT_EQ(points[0].threads, 1);
    EXPECT_EQ(points[0].details.count("threads_from_cpu_time"), 0u);

    r.cpu_user_seconds = 3.8;  // the tool counted 2 threads at once: its count stands (CPU time
    RegionCounts program;      // counts threads spinning at a barrier too)
    program.name = "(program)";
    program.threads = 2;
    program.flops = {{"f64_add", 1e9}};
    r.counts = {program};
    points = merge_points(r);
    EXPECT_EQ(points[0].threads, 2);
    EXPECT_EQ(points[0].details.count("threads_from_cpu_time"), 0u);

    // The tool saw one at a time (a worker ended before its sibling started under Valgrind), while
    // the native run kept 1.9 CPUs busy: 2, from CPU time, said.
    r.counts[0].threads = 1;
    r.cpu_user_seconds = 1.8;
    points = merge_points(r);
    EXPECT_EQ(points[0].threads, 2);
    EXPECT_DOUBLE_EQ(points[0].details.at("threads_from_cpu_time"), 1.9);
    EXPECT_TRUE(points[0].work_counted);
    r.cpu_user_seconds = 1.2;  // a serial program with a helper waking now and then: 1
    points = merge_points(r);
    EXPECT_EQ(points[0].threads, 1);
    EXPECT_EQ(points[0].details.count("threads_from_cpu_time"), 0u);
}

TEST(MeasureMerge, EveryPointOfTheNativeRunCarriesTheCpusItWasAllowed) {
    MeasureResult r;
    r.wall_seconds = 2.0;
    r.timings = {{"solve", 1, 1.0, 8}};
    r.cpus_allowed = 1;  // taskset -c 0: 8 threads on one CPU
    const auto points = merge_points(r, nullptr);
    ASSERT_EQ(points.size(), 2u);
    for (const auto& p : points) EXPECT_DOUBLE_EQ(p.details.at(roofline::kCpusAllowed), 1) << p.name;
    r.cpus_allowed = 0;  // unknown: nothing claimed
    for (const auto& p : merge_points(r, nullptr)) EXPECT_FALSE(p.details.contains(roofline::kCpusAllowed)) << p.name;
}
