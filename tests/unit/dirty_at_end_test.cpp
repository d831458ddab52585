// A point whose written lines were still dirty in the simulated caches at the end of the run: its
// DRAM bytes lack those write-backs, and a note says how many (the tool's count of its own lines),
// or how many at most (an older tool's output).
#include "core/dirty_at_end.hpp"
#include "core/roofline.hpp"

#include <gtest/gtest.h>

namespace {

using namespace roofline;

Point written(double dram, double dirty_at_close) {
    Point p;
    p.name = "fill";
    p.bytes = {{"L1", 192e6}, {"DRAM", dram}};
    p.details[kCacheDirtyAtEndBytes] = dirty_at_close;
    return p;
}

// An audit's fill region (3 passes writing 64 MB last in the run): 192 MB of write-allocate reads
// and 157.4 MB of write-backs counted, 34.6 MB still dirty at the end, never written back.
TEST(DirtyAtEnd, ALastRegionsUnwrittenLinesAreSaid) {
    const auto d = dirty_at_end(written(349.4e6, 34.6e6), 34.59e6);
    ASSERT_TRUE(d.has_value());
    EXPECT_DOUBLE_EQ(d->unwritten_bytes, 34.59e6);  // the smaller: what was still dirty at the run's end
    EXPECT_DOUBLE_EQ(d->dram_bytes, 349.4e6);
    const auto text = dirty_at_end_text(*d);
    EXPECT_NE(text.find("up to 34.6 MB of its write-backs are counted nowhere"), std::string::npos) << text;
    EXPECT_NE(text.find("its DRAM bytes, 349 MB, may lack them (with them up to 384 MB)"), std::string::npos) << text;
}

TEST(DirtyAtEnd, ARegionThatLaterCodeFlushedIsBoundedByTheRunsEnd) {
    // 32 MB dirty when it closed, but the run ended with 2 MB dirty: at most 2 MB are missing,
    // under 5% of its 618 MB: nothing to say.
    EXPECT_FALSE(dirty_at_end(written(618e6, 32e6), 2.1e6).has_value());
    // Without the run's figure its own bounds it.
    EXPECT_TRUE(dirty_at_end(written(618e6, 32e6), std::nullopt).has_value());
}

// The tool's own count (dirty_at_exit): the lines the point's stores made dirty that were still
// dirty at the end, written back at the end and charged to their writer. Exact, so said without
// "up to".
TEST(DirtyAtEnd, TheToolsCountOfAPointsOwnLinesIsExact) {
    Point copy = written(1.57e6, 2.21e6);
    copy.details[kCacheDirtyAtExitBytes] = 1.5728e6;
    const auto d = dirty_at_end(copy, 1.94e6);
    ASSERT_TRUE(d.has_value());
    EXPECT_TRUE(d->exact);
    EXPECT_DOUBLE_EQ(d->unwritten_bytes, 1.5728e6);
    EXPECT_EQ(dirty_at_end_text(*d),
              "1.57 MB of its write-backs are counted nowhere: lines its stores made dirty were still dirty in the "
              "simulated caches when the run ended, which the cache simulation never writes back (the hardware does, "
              "after the run); its DRAM bytes, 1.57 MB, lack them (with them 3.14 MB)");
}

// measure_llc_near_full's regions: "near" closed early in the run with 2.22 MB dirty in the caches
// (other regions' lines among them), the run ended with 2.29 MB dirty, and the bound said "up to
// 1.97 MB" for it, though later regions evicted its lines (counted, charged to it) or wrote over
// them: the tool finds none of its lines dirty at the end. No note; nor under the floor or the share.
TEST(DirtyAtEnd, ARegionWithNoLinesLeftDirtyHasNoNote) {
    Point near = written(0.92e6, 2.2171e6);
    near.details[kCacheDirtyAtExitBytes] = 0;
    EXPECT_FALSE(dirty_at_end(near, 2.2922e6).has_value());
    near.details.erase(kCacheDirtyAtExitBytes);  // an older tool: the bound
    EXPECT_TRUE(dirty_at_end(near, 2.2922e6).has_value());
    Point over = written(19.7e6, 1.16e6);
    over.details[kCacheDirtyAtExitBytes] = 0.36e6;  // under the 1 MiB floor
    EXPECT_FALSE(dirty_at_end(over, 2.29e6).has_value());
    over.details[kCacheDirtyAtExitBytes] = 1.2e6;  // 6.1% of its DRAM bytes
    EXPECT_TRUE(dirty_at_end(over, 2.29e6).has_value());
    over.details[kCacheDirtyAtExitBytes] = 1.2e6;
    over.bytes["DRAM"] = 30e6;  // 4%
    EXPECT_FALSE(dirty_at_end(over, 2.29e6).has_value());
}

// Past the tool's 16,382 writer contexts a line written under a later set of regions carries no
// writer and the end's flush charges it to none: "late" in scenario
// measure_dirty_at_exit_contexts_exhausted (130 x 130 nested pairs first) wrote 1.5 MiB still
// dirty at the end and got dirty_at_exit 0, taken as exact: no note. The tool adds
// dirty_at_exit_up_to for such a region (its count with every writerless line's, 1.6 MB there): a
// bound, said "up to", the smaller of it and the old bound.
TEST(DirtyAtEnd, ARegionPastTheWriterContextsIsBounded) {
    Point late = written(1.725e6, 2.62e6);
    late.details[kCacheDirtyAtExitBytes] = 0;
    late.details[kCacheDirtyAtExitUpToBytes] = 1.6e6;
    const auto d = dirty_at_end(late, 2.61e6);
    ASSERT_TRUE(d.has_value());
    EXPECT_FALSE(d->exact);
    EXPECT_DOUBLE_EQ(d->unwritten_bytes, 1.6e6);
    EXPECT_NE(dirty_at_end_text(*d).find("up to 1.6 MB of its write-backs"), std::string::npos);
    // a pair region of one line each: its bound (its lines with every writerless one) under the floor
    Point pair = written(8.4e3, 1.2e6);
    pair.details[kCacheDirtyAtExitBytes] = 0;
    pair.details[kCacheDirtyAtExitUpToBytes] = 33e3;
    EXPECT_FALSE(dirty_at_end(pair, 2.61e6).has_value());
}

TEST(DirtyAtEnd, SmallOrAbsentFiguresAreNoNote) {
    EXPECT_FALSE(dirty_at_end(written(10e6, 0.4e6), 0.4e6).has_value());  // under the 1 MiB floor
    EXPECT_FALSE(dirty_at_end(written(100e6, 4e6), 4e6).has_value());     // 4% of its DRAM bytes
    EXPECT_TRUE(dirty_at_end(written(100e6, 6e6), 6e6).has_value());      // 6%
    EXPECT_TRUE(dirty_at_end(written(0, 16e6), 16e6).has_value());        // all in cache: none counted
    Point none = written(100e6, 6e6);
    none.details.clear();  // no cache simulation
    EXPECT_FALSE(dirty_at_end(none, 6e6).has_value());
    Point no_dram = written(100e6, 6e6);
    no_dram.bytes.erase("DRAM");
    EXPECT_FALSE(dirty_at_end(no_dram, 6e6).has_value());
}

} // namespace
