#include "measure/call_shares.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace roofline::measure;

namespace {

const FunctionKey kMain{"/bin/app", "main"}, kLoop{"/bin/app", "call_in_loop"}, kAdd{"/bin/app", "add_scaled"},
    kDot{"/bin/app", "dot"}, kFib{"/bin/app", "fib"}, kExp{"/lib/libm.so.6", "exp"};

CalledFunction own(double flops, double instructions, double samples, double entries = -1) {
    CalledFunction f;
    f.self.flops["f64_fma"] = flops;
    f.self.instructions = instructions;
    f.self.bytes_loaded = 8 * instructions;
    f.samples = samples;
    f.entries = entries;
    return f;
}

} // namespace

TEST(CallShares, AFunctionCalledFromOnePlaceBringsAllItsCounts) {
    const std::vector<CallSite> sites{{kLoop, kAdd, 1000}};
    const auto shares = share_calls(sites, {{kLoop, own(0, 5000, 10, 1)}, {kAdd, own(2000, 3000, 6, 1000)}});
    ASSERT_EQ(shares.counts.size(), 1u);
    EXPECT_DOUBLE_EQ(shares.share[0], 1.0);
    EXPECT_DOUBLE_EQ(shares.counts[0].total_flops(), 2000);
    EXPECT_DOUBLE_EQ(shares.counts[0].instructions, 3000);
    EXPECT_DOUBLE_EQ(shares.counts[0].bytes_loaded, 24000);
    EXPECT_DOUBLE_EQ(shares.samples[0], 6);
    EXPECT_EQ(shares.sites_of.at(kAdd), 1u);
}

TEST(CallShares, TwoPlacesShareByTheirCallsAndCallsFromElsewhereKeepTheirPart) {
    // add_scaled entered 1000 times: 600 from one site, 200 from another, 200 from where no
    // call instruction was seen (a function pointer): those 20% go to no site.
    const std::vector<CallSite> sites{{kLoop, kAdd, 600}, {kMain, kAdd, 200}};
    const auto shares = share_calls(sites, {{kLoop, own(0, 1, 0)}, {kMain, own(0, 1, 0)}, {kAdd, own(2000, 3000, 10, 1000)}});
    EXPECT_DOUBLE_EQ(shares.share[0], 0.6);
    EXPECT_DOUBLE_EQ(shares.share[1], 0.2);
    EXPECT_DOUBLE_EQ(shares.counts[0].total_flops(), 1200);
    EXPECT_DOUBLE_EQ(shares.counts[1].total_flops(), 400);
    EXPECT_DOUBLE_EQ(shares.samples[0], 6);
    EXPECT_EQ(shares.sites_of.at(kAdd), 2u);
    // Entries not counted (a library's function): its known sites' calls are all its calls.
    const auto library = share_calls({{kLoop, kExp, 300}, {kMain, kExp, 100}},
                                     {{kLoop, own(0, 1, 0)}, {kMain, own(0, 1, 0)}, {kExp, own(400, 800, 4)}});
    EXPECT_DOUBLE_EQ(library.share[0], 0.75);
    EXPECT_DOUBLE_EQ(library.counts[0].total_flops(), 300);
    EXPECT_DOUBLE_EQ(library.samples[1], 1);
}

TEST(CallShares, ACallBringsWhatItsCalleeCalledToo) {
    // main -> call_in_loop (once) -> dot (10 times) -> exp (in a library, 40 times)
    const std::vector<CallSite> sites{{kMain, kLoop, 1}, {kLoop, kDot, 10}, {kDot, kExp, 40}};
    const auto shares = share_calls(sites, {{kMain, own(1, 10, 0, 1)},
                                            {kLoop, own(10, 100, 1, 1)},
                                            {kDot, own(100, 1000, 10, 10)},
                                            {kExp, own(1000, 4000, 20)}});
    EXPECT_DOUBLE_EQ(shares.counts[2].total_flops(), 1000);          // exp's
    EXPECT_DOUBLE_EQ(shares.counts[1].total_flops(), 100 + 1000);    // dot's and its calls'
    EXPECT_DOUBLE_EQ(shares.counts[0].total_flops(), 10 + 100 + 1000);
    EXPECT_DOUBLE_EQ(shares.samples[0], 1 + 10 + 20);
    EXPECT_TRUE(shares.notes.empty());
}

TEST(CallShares, ARecursiveFunctionsCountsGoToItsCallersNotToItself) {
    // A loop calls fib 5 times; fib calls itself 95 times: entered 100 times, all of it the loop's.
    const std::vector<CallSite> sites{{kLoop, kFib, 5}, {kFib, kFib, 95}};
    const auto shares = share_calls(sites, {{kLoop, own(0, 10, 0, 1)}, {kFib, own(300, 900, 9, 100)}});
    EXPECT_DOUBLE_EQ(shares.share[0], 1.0);
    EXPECT_DOUBLE_EQ(shares.counts[0].total_flops(), 300);
    EXPECT_DOUBLE_EQ(shares.share[1], 0.0);  // fib's counts already hold every level of it
    EXPECT_DOUBLE_EQ(shares.counts[1].total_flops(), 0);
    // Two functions calling each other: the cycle is cut, and said.
    const auto cycle = share_calls({{kLoop, kDot, 1}, {kDot, kAdd, 1}, {kAdd, kDot, 1}},
                                   {{kLoop, own(0, 1, 0, 1)}, {kDot, own(10, 10, 0, 2)}, {kAdd, own(1, 1, 0, 1)}});
    EXPECT_DOUBLE_EQ(cycle.counts[0].total_flops(), 0.5 * (10 + 1));  // dot's calls: one of its two entries
    ASSERT_EQ(cycle.notes.size(), 1u);
    EXPECT_NE(cycle.notes[0].find("dot is called back by a function it calls"), std::string::npos);
}

TEST(CallShares, AnIndirectOrUncountedCallBringsNothing) {
    const std::vector<CallSite> sites{{kLoop, {"/bin/app", ""}, 50}, {kLoop, {"", "memset"}, 7}, {kLoop, kAdd, 0}};
    const auto shares = share_calls(sites, {{kLoop, own(0, 10, 0, 1)}, {kAdd, own(5, 5, 0, 0)}});
    for (std::size_t s = 0; s < sites.size(); ++s) {
        EXPECT_EQ(shares.share[s], 0.0);
        EXPECT_EQ(shares.counts[s].instructions, 0.0);
    }
    EXPECT_EQ(shares.sites_of.count(kAdd), 0u);  // a call that never ran is no site of it
}

TEST(CallShares, TheShareOfEachFunctionsWorkInsideTheCallsOfAFunction) {
    // main -> call_in_loop (once) -> dot (10 calls); main -> dot (30 calls) too; dot -> exp (all 40 calls
    // of exp are dot's). Inside call_in_loop: itself whole, a quarter of dot and so of exp, nothing of main.
    const std::vector<CallSite> sites{{kMain, kLoop, 1}, {kLoop, kDot, 10}, {kMain, kDot, 30}, {kDot, kExp, 40}};
    const std::map<FunctionKey, CalledFunction> functions{{kMain, own(1, 10, 0, 1)},
                                                          {kLoop, own(10, 100, 1, 1)},
                                                          {kDot, own(100, 1000, 10, 40)},
                                                          {kExp, own(1000, 4000, 20)}};
    const auto inside = shares_inside(sites, functions, {kLoop});
    EXPECT_DOUBLE_EQ(inside.at(kLoop), 1.0);
    EXPECT_DOUBLE_EQ(inside.at(kDot), 0.25);
    EXPECT_DOUBLE_EQ(inside.at(kExp), 0.25);
    EXPECT_DOUBLE_EQ(inside.at(kMain), 0.0);
    // Inside dot: all of exp; inside main: everything it reaches.
    EXPECT_DOUBLE_EQ(shares_inside(sites, functions, {kDot}).at(kExp), 1.0);
    EXPECT_DOUBLE_EQ(shares_inside(sites, functions, {kMain}).at(kDot), 1.0);
    EXPECT_DOUBLE_EQ(shares_inside(sites, functions, {kMain}).at(kExp), 1.0);
}
