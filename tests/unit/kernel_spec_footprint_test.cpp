// Kernel specs against a machine's caches (core/kernel_footprint.hpp): what a team's
// caches hold, what operands occupy, declared residences the caches cannot hold, and a
// working set that fits a cache predicted from it (audit h47: a 16 KB DAXPY was predicted
// from DRAM, below what it runs at; a 400 MB array 'resident_in: L3' was accepted).
#include "core/kernel_footprint.hpp"
#include "core/kernel_spec.hpp"
#include "core/roofline.hpp"
#include "io/kernel_spec_yaml.hpp"
#include "render/model_report.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace roofline;

namespace footprint_test {

// A Zen-like core pair: private 48 KiB L1 and 1 MiB L2 per core, a 32 MiB L3 for both.
std::vector<CacheLevel> zen_caches() {
    CacheLevel l1, l2, l3;
    l1.level = 1, l1.size_bytes = 48 << 10, l1.shared_by_cores = 1, l1.instances = 2;
    l2.level = 2, l2.size_bytes = 1 << 20, l2.shared_by_cores = 1, l2.instances = 2;
    l3.level = 3, l3.size_bytes = 32 << 20, l3.shared_by_cores = 2, l3.instances = 1;
    return {l1, l2, l3};
}

KernelSpec spec(const std::string& yaml) { return kernel_specs_from_yaml(yaml, "k.yaml").at(0); }

std::string daxpy(const std::string& n, const std::string& y_extra = "") {
    return "name: daxpy\nflops: 2\nsizes: {N: " + n +
           "}\niterations: N\narrays:\n  - {name: x, type: double, reads: 1}\n"
           "  - {name: y, type: double, reads: 1, writes: 1" + y_extra + "}\n"
           "  - {name: alpha, type: double, reads: 1, resident_in: registers}\n";
}

} // namespace footprint_test

TEST(KernelSpecFootprint, CapacitiesAreTheInstancesATeamUses) {
    const auto one = cache_capacities(footprint_test::zen_caches(), 1);
    ASSERT_EQ(one.size(), 3u);
    EXPECT_EQ(one[0].level, "L1");
    EXPECT_DOUBLE_EQ(one[0].bytes, 48 << 10);
    EXPECT_DOUBLE_EQ(one[2].bytes, 32 << 20);
    const auto two = cache_capacities(footprint_test::zen_caches(), 2);
    EXPECT_DOUBLE_EQ(two[0].bytes, 2 * (48 << 10));  // each thread its own L1
    EXPECT_DOUBLE_EQ(two[2].bytes, 32 << 20);        // one L3 for both
    EXPECT_TRUE(cache_capacities({}, 1).empty());
}

TEST(KernelSpecFootprint, SizeGivenIsExactElseTheBytesTouchedBoundIt) {
    const KernelSpec k = footprint_test::spec(footprint_test::daxpy("1000", ", elements: N"));
    const auto x = operand_footprint(k.arrays[0], k), y = operand_footprint(k.arrays[1], k);
    ASSERT_TRUE(x && y);
    EXPECT_FALSE(x->exact);
    EXPECT_DOUBLE_EQ(x->bytes, 8000);   // 1 read x 1000 iterations x 8 B, at most
    EXPECT_TRUE(y->exact);
    EXPECT_DOUBLE_EQ(y->bytes, 8000);   // its 1000 elements, not its 2000 accesses
    EXPECT_FALSE(operand_footprint(k.arrays[2], k));  // registers occupy no cache
    KernelSpec no_count = k;
    no_count.iterations.reset();
    EXPECT_FALSE(operand_footprint(no_count.arrays[0], no_count));
}

TEST(KernelSpecFootprint, ResidenceLargerThanItsCacheIsAProblem) {
    const auto caps = cache_capacities(footprint_test::zen_caches(), 1);
    const std::string head = "name: l3res\nflops: 2\nsizes: {N: 100000000}\niterations: N\narrays:\n";
    // 400 MB said to stay in a 32 MiB L3: refused when its size is given ...
    auto problems = residency_problems(
        footprint_test::spec(head + "  - {name: B, type: float, reads: 1, resident_in: L3, elements: N}\n"), caps);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].kind, ResidencyProblem::Kind::too_small);
    EXPECT_EQ(problems[0].level, "L3");
    EXPECT_DOUBLE_EQ(problems[0].bytes, 4e8);
    EXPECT_DOUBLE_EQ(problems[0].capacity, 32 << 20);
    // ... and unchecked when it is not but the loop touches more than the level holds.
    problems = residency_problems(footprint_test::spec(head + "  - {name: B, type: float, reads: 1, resident_in: L3}\n"
                                                              "  - {name: C, type: float, reads: 1, writes: 1, "
                                                              "resident_in: L1}\n"),
                                  caps);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].kind, ResidencyProblem::Kind::unchecked);
    EXPECT_EQ(problems[0].level, "L1");
    EXPECT_EQ(problems[1].level, "L3");
    EXPECT_DOUBLE_EQ(problems[1].bytes, 4e8);
    // Sizes that fit are no problem, however often the loop re-reads them.
    EXPECT_TRUE(residency_problems(footprint_test::spec(head + "  - {name: B, type: float, reads: 1, resident_in: L2, "
                                                               "elements: 1000}\n"),
                                   caps)
                    .empty());
    // A level the machine does not have; a machine that describes no caches checks nothing.
    std::vector<CacheCapacity> no_l3(caps.begin(), caps.begin() + 2);
    problems = residency_problems(
        footprint_test::spec(head + "  - {name: B, type: float, reads: 1, resident_in: L3, elements: 10}\n"), no_l3);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].kind, ResidencyProblem::Kind::no_such_level);
    EXPECT_TRUE(residency_problems(
                    footprint_test::spec(head + "  - {name: B, type: float, reads: 1, resident_in: L3, elements: N}\n"), {})
                    .empty());
    // Two threads: the L1s of both cores hold twice as much.
    const std::string l1 = "  - {name: C, type: double, reads: 1, resident_in: L1, elements: 8192}\n";  // 64 KiB
    EXPECT_EQ(residency_problems(footprint_test::spec(head + l1), caps).size(), 1u);
    EXPECT_TRUE(residency_problems(footprint_test::spec(head + l1), cache_capacities(footprint_test::zen_caches(), 2))
                    .empty());
}

TEST(KernelSpecFootprint, WorkingSetThatFitsACacheIsPredictedFromIt) {
    const auto caps = cache_capacities(footprint_test::zen_caches(), 1);
    // 1000 elements: at most 24 KB touched, in the 48 KiB L1.
    const KernelSpec small = footprint_test::spec(footprint_test::daxpy("1000"));
    const auto fit = fit_in_cache(small, caps);
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->level, "L1");
    EXPECT_FALSE(fit->exact);
    EXPECT_DOUBLE_EQ(fit->footprint, 24000);
    EXPECT_EQ(fit->moved, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(bytes_per_iteration(fit->placed), (std::map<std::string, double>{{"L1", 24}}));
    EXPECT_EQ(fit->placed.arrays[2].resident_in, "registers");

    // Predicted from L1 it is above what memory allows: the bound holds for the warm loop.
    Roofline r;
    r.compute = {"DP peak", "", 200};
    r.bandwidth = {{"L1 load", "L1", 600}, {"L2 load", "L2", 300}, {"L3 load", "L3", 180}, {"DRAM load", "DRAM", 60}};
    const auto warm = predict(fit->placed, r, View::carm), cold = predict(small, r, View::carm);
    EXPECT_EQ(warm.binding_level, "L1");
    EXPECT_NEAR(warm.performance, 600 * 2.0 / 24, 1e-9);
    EXPECT_EQ(cold.binding_level, "DRAM");
    EXPECT_GT(warm.performance, cold.performance);

    // The innermost level that holds it: 3000 elements (72 KB at most) in L2.
    const auto mid = fit_in_cache(footprint_test::spec(footprint_test::daxpy("3000")), caps);
    ASSERT_TRUE(mid);
    EXPECT_EQ(mid->level, "L2");
    // With sizes given the footprint is exact: 3000 x 2 x 8 = 48000 B fits L1.
    const auto exact = fit_in_cache(footprint_test::spec("name: d\nflops: 2\nsizes: {N: 3000}\niterations: N\n"
                                                         "arrays:\n  - {name: x, type: double, reads: 1, elements: N}\n"
                                                         "  - {name: y, type: double, reads: 1, writes: 1, elements: N}\n"),
                                    caps);
    ASSERT_TRUE(exact);
    EXPECT_TRUE(exact->exact);
    EXPECT_EQ(exact->level, "L1");

    // Too big, written to stay in memory, or unknown in size: left as written.
    EXPECT_FALSE(fit_in_cache(footprint_test::spec(footprint_test::daxpy("20000000")), caps));
    EXPECT_FALSE(fit_in_cache(footprint_test::spec("name: d\nflops: 2\nsizes: {N: 1000}\niterations: N\narrays:\n"
                                                   "  - {name: x, type: double, reads: 1, resident_in: memory}\n"
                                                   "  - {name: y, type: double, reads: 1, writes: 1, resident_in: DRAM}\n"),
                              caps));
    const auto half = fit_in_cache(footprint_test::spec(footprint_test::daxpy("1000", ", resident_in: memory")), caps);
    ASSERT_TRUE(half);
    EXPECT_EQ(half->moved, (std::vector<std::string>{"x"}));  // y stays where the spec put it
    KernelSpec unsized = small;
    unsized.iterations.reset();
    EXPECT_FALSE(fit_in_cache(unsized, caps));
    EXPECT_FALSE(fit_in_cache(small, {}));
}

TEST(KernelSpecFootprint, NonTemporalStoresNeverStayInACache) {
    const auto caps = cache_capacities(footprint_test::zen_caches(), 1);
    const KernelSpec nt = footprint_test::spec("name: t\nflops: 2\nsizes: {N: 1000}\niterations: N\narrays:\n"
                                               "  - {name: a, type: double, writes: 1, non_temporal: true}\n"
                                               "  - {name: b, type: double, reads: 1}\n"
                                               "  - {name: c, type: double, reads: 1}\n");
    const auto fit = fit_in_cache(nt, caps);
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->moved, (std::vector<std::string>{"b", "c"}));
    EXPECT_EQ(bytes_per_iteration(fit->placed), (std::map<std::string, double>{{"L1", 24}, {"DRAM", 8}}));
}

TEST(KernelSpecFootprint, ElementsKeyIsAPositiveExpression) {
    const std::string head = "name: k\nflops: 1\nsizes: {N: 10}\narrays:\n";
    EXPECT_DOUBLE_EQ(*footprint_test::spec(head + "  - {name: a, type: double, reads: 1, elements: 3*N}\n")
                          .arrays[0]
                          .elements,
                     30);
    try {
        footprint_test::spec(head + "  - {name: a, type: double, reads: 1, elements: 0}\n");
        ADD_FAILURE() << "elements: 0 accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("elements: expected a number of elements of at least 1"), std::string::npos)
            << e.what();
    }
}

// A strided operand fills a line of cache per access: every 8th double of 4e6 reads spans
// 256 MB, so the sum cannot fit a 32 MiB L3. Counted by its elements (30.5 MiB) it was
// predicted from L3 at 23.6 GFLOP/s; it ran at 0.61 (bench/model-vs-measured.sh).
TEST(KernelSpecFootprint, StridedAccessesOccupyTheLinesTheyTouch) {
    const std::string head = "name: s\nflops: 1\nsizes: {N: 4000000}\niterations: N\narrays:\n";
    const KernelSpec strided = footprint_test::spec(head + "  - {name: a, type: double, reads: 1, stride: 8}\n");
    const auto f = operand_footprint(strided.arrays[0], strided);
    ASSERT_TRUE(f);
    EXPECT_DOUBLE_EQ(f->bytes, 4e6 * 64);
    EXPECT_FALSE(fit_in_cache(strided, cache_capacities(footprint_test::zen_caches(), 1)));
    const KernelSpec contiguous = footprint_test::spec(head + "  - {name: a, type: double, reads: 1}\n");
    const auto fit = fit_in_cache(contiguous, cache_capacities(footprint_test::zen_caches(), 1));
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->level, "L3");
    // Lines a cache keeps until they are used whole hold only the elements.
    const KernelSpec kept =
        footprint_test::spec(head + "  - {name: a, type: double, writes: 1, stride: 4000, lines_kept_in: L2}\n");
    EXPECT_DOUBLE_EQ(operand_footprint(kept.arrays[0], kept)->bytes, 4e6 * 8);
}

TEST(KernelSpecFootprint, ReusedOperandThatFitsACacheButIsCountedFromMemoryIsNamed) {
    // A 256-bin histogram over 1e8 indices (audit J): h (1 KiB) was counted from memory at every
    // update, 132 B an iteration at DRAM, 178 ms on a Zen 5 --quick model, with nothing said; with
    // 'resident_in: L1' it is 4 B and 7.36 ms. The working set (400 MB of idx) fits no cache.
    const auto caps = cache_capacities(footprint_test::zen_caches(), 2);
    const std::string head = "name: histogram\nflops: 0\nsizes: {N: 100000000}\niterations: N\narrays:\n"
                             "  - {name: idx, type: int32, reads: 1}\n";
    const KernelSpec hist = footprint_test::spec(
        head + "  - {name: h, type: int32, reads: 1, writes: 1, stride: random, elements: 256}\n");
    ASSERT_FALSE(fit_in_cache(hist, caps));
    const auto reused = reused_outside_their_cache(hist, caps);
    ASSERT_EQ(reused.size(), 1u);
    EXPECT_EQ(reused[0].operand, "h");
    EXPECT_EQ(reused[0].level, "L1");
    EXPECT_EQ(reused[0].counted, "memory");
    EXPECT_DOUBLE_EQ(reused[0].bytes, 1024);
    EXPECT_DOUBLE_EQ(reused[0].accesses, 2e8);
    EXPECT_DOUBLE_EQ(reused[0].capacity, 2 * (48 << 10));

    // SpMV's x (1e6 doubles, 7.6 MiB, read 7 times an element) fits the L3, not the L2s.
    const KernelSpec spmv = footprint_test::spec(
        "name: spmv\nflops: 2\nsizes: {N: 1000000}\niterations: 7*N\narrays:\n"
        "  - {name: val, type: double, reads: 1}\n"
        "  - {name: x, type: double, reads: 1, stride: random, elements: N}\n");
    const auto x = reused_outside_their_cache(spmv, caps);
    ASSERT_EQ(x.size(), 1u);
    EXPECT_EQ(x[0].level, "L3");

    // Not named: declared where it stays (even 'memory'), too large for any cache, touched once
    // per element (a stream with its size given), or with no size.
    for (const std::string h : {"  - {name: h, type: int32, reads: 1, writes: 1, elements: 256, resident_in: L1}\n",
                                "  - {name: h, type: int32, reads: 1, writes: 1, elements: 256, resident_in: memory}\n",
                                "  - {name: h, type: int32, reads: 1, writes: 1, elements: 1e9}\n",
                                "  - {name: h, type: int32, reads: 1, writes: 1}\n"})
        EXPECT_TRUE(reused_outside_their_cache(footprint_test::spec(head + h), caps).empty()) << h;
    EXPECT_TRUE(reused_outside_their_cache(
                    footprint_test::spec("name: s\nflops: 1\nsizes: {N: 100000000}\niterations: N\narrays:\n"
                                         "  - {name: a, type: double, reads: 1, elements: N}\n"),
                    caps)
                    .empty());
    // Nothing to say without caches.
    EXPECT_TRUE(reused_outside_their_cache(hist, {}).empty());
}

// --- threads: a spec's iterations and 'elements' are the whole loop's, split among the team ---------

namespace footprint_test {

// Two cores: private 32 KiB L1 and 1 MiB L2 each, one 4 MiB L3 for both.
std::vector<CacheLevel> two_core_caches() {
    CacheLevel l1, l2, l3;
    l1.level = 1, l1.size_bytes = 32 << 10, l1.shared_by_cores = 1, l1.instances = 2;
    l2.level = 2, l2.size_bytes = 1 << 20, l2.shared_by_cores = 1, l2.instances = 2;
    l3.level = 3, l3.size_bytes = 4 << 20, l3.shared_by_cores = 2, l3.instances = 1;
    return {l1, l2, l3};
}

// A STREAM triad whose three arrays are N doubles each (given as 'elements').
std::string triad(const std::string& n) {
    return "name: triad\nflops: 2\nsizes: {N: " + n +
           "}\niterations: N\narrays:\n  - {name: a, type: double, writes: 1, elements: N}\n"
           "  - {name: b, type: double, reads: 1, elements: N}\n  - {name: c, type: double, reads: 1, elements: N}\n"
           "  - {name: s, type: double, reads: 1, resident_in: registers}\n";
}

// The team's roofs at 1 and 2 threads, as a bench of the two cores gives them.
Roofline team_roofline(int threads) {
    Roofline r;
    r.threads = threads;
    r.compute = {"DP peak", "", 32.0 * threads};
    r.bandwidth = {{"L1", "L1", 200.0 * threads}, {"L2", "L2", 100.0 * threads}, {"L3", "L3", threads == 1 ? 50.0 : 90.0},
                   {"DRAM", "DRAM", threads == 1 ? 20.0 : 30.0}};
    return r;
}

} // namespace footprint_test

TEST(KernelSpecThreads, TeamCapacityIsWhatTheBusiestInstanceLetsAnEvenSplitHold) {
    const auto one = cache_capacities(footprint_test::two_core_caches(), 1);
    const auto two = cache_capacities(footprint_test::two_core_caches(), 2);
    ASSERT_EQ(two.size(), 3u);
    EXPECT_DOUBLE_EQ(one[1].bytes, 1 << 20);
    EXPECT_DOUBLE_EQ(two[1].bytes, 2 << 20);  // each thread its own L2
    EXPECT_DOUBLE_EQ(two[1].copies, 2);
    EXPECT_DOUBLE_EQ(two[2].bytes, 4 << 20);  // one L3 for both
    EXPECT_DOUBLE_EQ(two[2].copies, 1);
    // 3 threads on L2s each shared by 2 cores: two instances in use, two threads on the first;
    // an even split fills that one at 2/3 of the data: 1.5 L2s, not 2.
    CacheLevel pair;
    pair.level = 2, pair.size_bytes = 1 << 20, pair.shared_by_cores = 2, pair.instances = 2;
    const auto three = cache_capacities({pair}, 3);
    EXPECT_DOUBLE_EQ(three[0].bytes, 1.5 * (1 << 20));
    EXPECT_DOUBLE_EQ(three[0].copies, 1.5);
    // More threads than cores (4 on two private L2s): two a core, still two L2s.
    EXPECT_DOUBLE_EQ(cache_capacities(footprint_test::two_core_caches(), 4)[1].bytes, 2 << 20);
}

// By hand: N = 65536 doubles x 3 arrays = 1.5 MiB. One thread: over its 1 MiB L2, inside the
// 4 MiB L3: 32 B/it at 50 GB/s = 3.125 GFLOP/s, 65536 x 32 B / 50 GB/s = 41.9 us. Two threads
// hold 0.75 MiB each in their own L2s: 32 B/it at the team's 200 GB/s = 12.5 GFLOP/s, 10.5 us.
TEST(KernelSpecThreads, TriadThatFitsTwoL2sButNotOneIsPredictedFromL2AtTwoThreads) {
    const KernelSpec k = footprint_test::spec(footprint_test::triad("65536"));
    const auto fit1 = fit_in_cache(k, cache_capacities(footprint_test::two_core_caches(), 1));
    ASSERT_TRUE(fit1);
    EXPECT_EQ(fit1->level, "L3");
    EXPECT_DOUBLE_EQ(fit1->footprint, 1.5 * (1 << 20));
    const auto p1 = predict(fit1->placed, footprint_test::team_roofline(1), View::carm);
    EXPECT_EQ(p1.binding_level, "L3");
    EXPECT_NEAR(p1.performance, 3.125, 1e-9);
    EXPECT_NEAR(*p1.seconds, 65536 * 32 / 50e9, 1e-15);

    const auto fit2 = fit_in_cache(k, cache_capacities(footprint_test::two_core_caches(), 2));
    ASSERT_TRUE(fit2);
    EXPECT_EQ(fit2->level, "L2");
    EXPECT_DOUBLE_EQ(fit2->footprint, 1.5 * (1 << 20));  // the team's data, not one thread's
    EXPECT_DOUBLE_EQ(fit2->capacity, 2 << 20);
    const auto p2 = predict(fit2->placed, footprint_test::team_roofline(2), View::carm);
    EXPECT_EQ(p2.binding_level, "L2");
    EXPECT_NEAR(p2.performance, 12.5, 1e-9);
    EXPECT_NEAR(*p2.seconds, 65536 * 32 / 200e9, 1e-15);
    // The work and bytes are the whole loop's at any thread count.
    EXPECT_DOUBLE_EQ(p2.point.work, p1.point.work);
    EXPECT_DOUBLE_EQ(p2.point.work, 2.0 * 65536);
}

// The shared L3 holds the team's data once: 3 MiB (N = 131072) fits it at two threads (not the
// two L2s' 2 MiB): 90 GB/s x 2/32 = 5.625 GFLOP/s; 6 MiB (N = 262144) does not: from memory,
// 30 GB/s x 2/32 = 1.875 GFLOP/s.
TEST(KernelSpecThreads, SharedL3HoldsTheTeamsDataOnce) {
    const auto caps = cache_capacities(footprint_test::two_core_caches(), 2);
    const KernelSpec fits = footprint_test::spec(footprint_test::triad("131072"));
    const auto fit = fit_in_cache(fits, caps);
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->level, "L3");
    EXPECT_NEAR(predict(fit->placed, footprint_test::team_roofline(2), View::carm).performance, 5.625, 1e-9);
    const KernelSpec big = footprint_test::spec(footprint_test::triad("262144"));
    EXPECT_FALSE(fit_in_cache(big, caps));
    const auto cold = predict(big, footprint_test::team_roofline(2), View::carm);
    EXPECT_EQ(cold.binding_level, "DRAM");
    EXPECT_NEAR(cold.performance, 1.875, 1e-9);
}

// x of a matrix-vector product parallel over rows: every thread reads all of it. 'per_thread:
// true' counts a copy in each private L2 (two at two threads), one in the shared L3.
TEST(KernelSpecThreads, PerThreadOperandHasACopyInEachCacheInstanceInUse) {
    const auto one = cache_capacities(footprint_test::two_core_caches(), 1);
    const auto two = cache_capacities(footprint_test::two_core_caches(), 2);
    const std::string head = "name: mvm\nflops: 2\nsizes: {M: 4000, N: 160000}\niterations: M*N\narrays:\n"
                             "  - {name: A, type: double, reads: 1}\n";
    // 1.22 MiB of x in L2: split between the two threads' L2s it would fit; whole in each, not.
    const std::string x = "  - {name: x, type: double, reads: 1, resident_in: L2, elements: N";
    EXPECT_TRUE(residency_problems(footprint_test::spec(head + x + "}\n"), two).empty());
    const auto problems = residency_problems(footprint_test::spec(head + x + ", per_thread: true}\n"), two);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].kind, ResidencyProblem::Kind::too_small);
    EXPECT_DOUBLE_EQ(problems[0].bytes, 2 * 160000 * 8.0);
    EXPECT_DOUBLE_EQ(problems[0].capacity, 2 << 20);
    // One thread: one copy either way, over one L2.
    EXPECT_EQ(residency_problems(footprint_test::spec(head + x + ", per_thread: true}\n"), one).size(), 1u);
    // The shared L3 holds one copy for both threads: 1.22 MiB of 4 MiB.
    const std::string x3 = "  - {name: x, type: double, reads: 1, resident_in: L3, elements: N, per_thread: true}\n";
    EXPECT_TRUE(residency_problems(footprint_test::spec(head + x3), two).empty());
    // A whole working set: 0.6 MiB a thread fits each L2 when per thread (2 x 0.6 of 2 MiB), and
    // the fit counts both copies.
    const KernelSpec small = footprint_test::spec(
        "name: k\nflops: 1\nsizes: {N: 80000}\niterations: N\narrays:\n"
        "  - {name: t, type: double, reads: 1, elements: N, per_thread: true}\n");
    const auto fit = fit_in_cache(small, two);
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->level, "L2");
    EXPECT_DOUBLE_EQ(fit->footprint, 2 * 80000 * 8.0);
    // 'per_thread' needs a size to be each thread's.
    EXPECT_THROW(footprint_test::spec("name: k\nflops: 1\narrays:\n  - {name: t, type: double, reads: 1, per_thread: "
                                      "true}\n"),
                 std::exception);
}

TEST(KernelSpecThreads, NoSizeBelowOneElementNoEmptyNames) {
    const std::string head = "name: k\nflops: 1\nsizes: {N: 10}\narrays:\n";
    for (const std::string bad : {head + "  - {name: a, type: double, reads: 1, elements: 0.5}\n",
                                  head + "  - {name: '', type: double, reads: 1}\n",
                                  std::string("name: ''\nflops: 1\narrays:\n  - {name: a, type: double, reads: 1}\n")})
        try {
            footprint_test::spec(bad);
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const std::exception& e) {
            const std::string what = e.what();
            EXPECT_TRUE(what.find("at least 1") != std::string::npos || what.find("(not empty)") != std::string::npos)
                << what;
        }
}

// 'elements: 1e30' said "make it 0 B" (the bytes wrapped in a 64-bit cast): the size is said as it is.
TEST(KernelSpecThreads, HugeSizesAreSaidNotWrapped) {
    const KernelSpec k = footprint_test::spec(
        "name: k\nflops: 1\nsizes: {N: 10}\niterations: N\narrays:\n"
        "  - {name: b, type: double, reads: 1, resident_in: L2, elements: 1e30}\n");
    const auto problems = residency_problems(k, cache_capacities(footprint_test::two_core_caches(), 2));
    ASSERT_EQ(problems.size(), 1u);
    const std::string text = residency_problem_text(k, problems[0], 2);
    EXPECT_NE(text.find("make it 8e+30 B and L2 holds 2 MiB for 2 threads"), std::string::npos) << text;
}
