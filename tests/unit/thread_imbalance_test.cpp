// Threads at once and unequal shares (core/thread_imbalance, the Valgrind tool's "threads",
// "threads_working" and "busiest_thread_*"): a program whose main thread did serial FLOPs, then
// started 2 workers and joined them, read 3 threads on a 2-CPU machine ("more threads than
// cores"); and a region whose one worker did 3 times the other's FLOPs was judged against the
// roofs of 2 threads with nothing said. Figures below are what tests/scenarios/
// measure_thread_shares.sh's programs count by hand.
#include "core/roofline.hpp"
#include "core/thread_imbalance.hpp"
#include "measure/engine.hpp"
#include "measure/merge.hpp"
#include "measure/protocol_json.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

// A result of one counted run: the program's and one region's counts, each timed.
measure::MeasureResult counted(const std::string& tool_json) {
    measure::MeasureResult result;
    result.engine = measure::EngineKind::instrument;
    result.wall_seconds = 1;
    measure::RegionTiming region;
    region.name = "work";
    region.seconds = 0.5;
    region.calls = 1;
    result.timings.push_back(region);
    result.counts = measure::parse_vgtool_json(tool_json, "v.json").regions;
    return result;
}

const Point& point(const std::vector<Point>& points, const std::string& name) {
    for (const auto& p : points)
        if (p.name == name) return p;
    throw std::runtime_error("no point " + name);
}

} // namespace

// Main: 800,000 serial FLOPs; then two workers of 800,000 each, joined. At once: 2; working: 3.
TEST(ThreadImbalance, ThePointsThreadsAreThoseAtOnceNotEverySlot) {
    const auto result = counted(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 2, "threads_working": 3, "flops": {"f64": {"add": 1200000,
         "mul": 1200000}}, "bytes_loaded": 9600000, "bytes_stored": 9600000, "instructions": 1,
         "busiest_thread_flops": 800000, "busiest_thread_bytes": 6400000},
        {"name": "work", "calls": 1, "threads": 2, "threads_working": 3, "flops": {"f64": {"add": 1200000,
         "mul": 1200000}}, "bytes_loaded": 9600000, "bytes_stored": 9600000, "instructions": 1,
         "busiest_thread_flops": 800000, "busiest_thread_bytes": 6400000}]})J");
    ASSERT_EQ(result.counts[0].threads_working, 3);
    const auto points = measure::merge_points(result);
    EXPECT_EQ(point(points, "(program)").threads, 2);
    EXPECT_EQ(point(points, "work").threads, 2);
    EXPECT_DOUBLE_EQ(point(points, "work").details.at(kThreadsWorking), 3);
    // Equal shares (800,000 each of 2,400,000 over 3): nothing to say.
    EXPECT_FALSE(thread_imbalance(point(points, "work")));
}

// Two workers: one 3 x 400,000 FLOPs, the other 400,000 (a 3:1 split). Busiest 1,200,000 of 1,600,000:
// 1.5x the equal share of 800,000.
TEST(ThreadImbalance, TheBusiestThreadsExcessIsSaidWithWhatItCosts) {
    const auto result = counted(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "(program)", "calls": 1, "threads": 2, "threads_working": 2, "flops": {"f64": {"add": 800000,
         "mul": 800000}}, "bytes_loaded": 6400000, "bytes_stored": 6400000, "instructions": 1,
         "busiest_thread_flops": 1200000, "busiest_thread_bytes": 9600000},
        {"name": "work", "calls": 1, "threads": 2, "threads_working": 2, "flops": {"f64": {"add": 800000,
         "mul": 800000}}, "bytes_loaded": 6400000, "bytes_stored": 6400000, "instructions": 1,
         "busiest_thread_flops": 1200000, "busiest_thread_bytes": 9600000}]})J");
    const auto points = measure::merge_points(result);
    const auto t = thread_imbalance(point(points, "work"));
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->ratio, 1.5);
    EXPECT_EQ(t->threads_working, 2);
    EXPECT_EQ(t->threads, 2);
    EXPECT_FALSE(t->bytes);
    const auto text = thread_imbalance_text(*t);
    EXPECT_NE(text.find("1.50x an equal share of its FLOPs (1.2e+06 of 1.6e+06, over the 2 threads"), std::string::npos)
        << text;
    EXPECT_NE(text.find("set by the busiest thread"), std::string::npos) << text;
    EXPECT_NE(text.find("about 1.50x below it"), std::string::npos) << text;
    // The report's analysis carries it.
    Roofline r;
    r.compute.name = "DP peak";
    r.compute.value = 100;
    EXPECT_TRUE(analyze(r, point(points, "work"), View::carm).thread_imbalance);
}

TEST(ThreadImbalance, TheThresholdAndWhatIsNotSaid) {
    Point p;
    p.name = "r";
    p.work = 1000;
    p.work_unit = "FLOP";
    p.threads = 4;
    p.details[kThreadsWorking] = 4;
    p.details[kBusiestThreadFlops] = 312.5;  // exactly 1.25x the mean of 250: not past it
    EXPECT_FALSE(thread_imbalance(p));
    p.details[kBusiestThreadFlops] = 313;
    EXPECT_TRUE(thread_imbalance(p));
    // One thread did it all: no share to compare with.
    p.details[kThreadsWorking] = 1;
    EXPECT_FALSE(thread_imbalance(p));
    // An older tool's output: no figures, nothing said.
    Point old;
    old.work = 1000;
    old.work_unit = "FLOP";
    EXPECT_FALSE(thread_imbalance(old));
    // Fewer at once than did the work (a serial part on main, then workers): the factor is not claimed.
    p.details[kThreadsWorking] = 3;
    p.details[kBusiestThreadFlops] = 600;
    p.threads = 2;
    const auto t = thread_imbalance(p);
    ASSERT_TRUE(t);
    const auto text = thread_imbalance_text(*t);
    EXPECT_NE(text.find("at most 2 at once"), std::string::npos) << text;
    EXPECT_EQ(text.find("below it"), std::string::npos) << text;
    // A point without FLOPs: by bytes.
    Point copy;
    copy.work = 0;
    copy.work_unit = "FLOP";
    copy.details[kThreadsWorking] = 2;
    copy.details["bytes_loaded"] = 500;
    copy.details["bytes_stored"] = 500;
    copy.details[kBusiestThreadBytes] = 900;
    const auto b = thread_imbalance(copy);
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->bytes);
    EXPECT_DOUBLE_EQ(b->ratio, 1.8);
}

TEST(ThreadImbalance, ADamagedFileIsRefused) {
    // One thread's FLOPs above all of the region's.
    EXPECT_THROW(measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "r", "calls": 1, "threads": 1, "threads_working": 1, "flops": {"f64": {"add": 10}}, "bytes_loaded": 0,
         "bytes_stored": 0, "instructions": 1, "busiest_thread_flops": 11}]})J", "v.json"),
                 measure::MeasureError);
    EXPECT_THROW(measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "r", "calls": 1, "threads": 1, "threads_working": -1, "bytes_loaded": 0, "bytes_stored": 0,
         "instructions": 1}]})J", "v.json"),
                 measure::MeasureError);
    // An older tool's output (no threads_working): read as before.
    const auto old = measure::parse_vgtool_json(R"J({"schema": "roofline.vgtool/1", "regions": [
        {"name": "r", "calls": 1, "threads": 3, "bytes_loaded": 0, "bytes_stored": 0, "instructions": 1}]})J", "v.json");
    EXPECT_EQ(old.regions[0].threads, 3);
    EXPECT_EQ(old.regions[0].threads_working, 0);
}
