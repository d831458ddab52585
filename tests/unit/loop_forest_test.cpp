#include "core/loop_forest.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

using namespace roofline;

namespace {

// Block i covers [16 i, 16 i + 16); its successors as given.
ControlFlowGraph graph_of(std::vector<std::vector<std::size_t>> successors) {
    ControlFlowGraph g;
    for (std::size_t i = 0; i < successors.size(); ++i)
        g.blocks.push_back({16 * i, 16 * i + 16, std::move(successors[i])});
    return g;
}

using Blocks = std::vector<std::size_t>;

} // namespace

TEST(LoopForest, StraightLineCodeHasNoLoops) {
    const auto forest = find_loops(graph_of({{1}, {2}, {}}));
    EXPECT_TRUE(forest.loops.empty());
    EXPECT_TRUE(forest.irreducible.empty());
    EXPECT_EQ(forest.innermost_loop, Blocks(3, kNoLoop));
}

TEST(LoopForest, DominatorsOfADiamondAndALoop) {
    // 0 -> 1 | 2 -> 3 -> 4 -> 3 | 5
    const auto g = graph_of({{1, 2}, {3}, {3}, {4}, {3, 5}, {}});
    const auto idom = immediate_dominators(g);
    EXPECT_EQ(idom, (Blocks{0, 0, 0, 0, 3, 4}));
    EXPECT_TRUE(dominates(idom, 0, 5));
    EXPECT_TRUE(dominates(idom, 3, 5));
    EXPECT_FALSE(dominates(idom, 1, 3));  // 3 is also reached through 2
    EXPECT_FALSE(dominates(idom, 4, 3));
}

TEST(LoopForest, SingleLoop) {
    // 0 -> 1 (header) -> 2 -> 1 (back) | 3
    const auto forest = find_loops(graph_of({{1}, {2}, {1, 3}, {}}));
    ASSERT_EQ(forest.loops.size(), 1u);
    const auto& loop = forest.loops[0];
    EXPECT_EQ(loop.header, 1u);
    EXPECT_EQ(loop.blocks, (Blocks{1, 2}));
    EXPECT_EQ(loop.back_edges, (std::vector<BackEdge>{{2, 1}}));
    EXPECT_EQ(loop.parent, kNoLoop);
    EXPECT_EQ(loop.depth, 1);
    EXPECT_EQ(forest.roots, (Blocks{0}));
    EXPECT_EQ(forest.innermost_loop, (Blocks{kNoLoop, 0, 0, kNoLoop}));
    EXPECT_TRUE(forest.irreducible.empty());
}

TEST(LoopForest, NestedLoopsFormATree) {
    // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2 (inner back) | 4 -> 1 (outer back) | 5
    const auto forest = find_loops(graph_of({{1}, {2}, {3}, {2, 4}, {1, 5}, {}}));
    ASSERT_EQ(forest.loops.size(), 2u);
    const auto& outer = forest.loops[0];
    const auto& inner = forest.loops[1];
    EXPECT_EQ(outer.header, 1u);
    EXPECT_EQ(outer.blocks, (Blocks{1, 2, 3, 4}));
    EXPECT_EQ(outer.children, (Blocks{1}));
    EXPECT_EQ(outer.depth, 1);
    EXPECT_EQ(inner.header, 2u);
    EXPECT_EQ(inner.blocks, (Blocks{2, 3}));
    EXPECT_EQ(inner.parent, 0u);
    EXPECT_EQ(inner.depth, 2);
    EXPECT_TRUE(inner.children.empty());
    EXPECT_EQ(forest.roots, (Blocks{0}));
    EXPECT_EQ(forest.innermost_loop, (Blocks{kNoLoop, 0, 1, 1, 0, kNoLoop}));
}

TEST(LoopForest, TwoSiblingLoopsInAddressOrder) {
    // 0 -> 2 (a block looping on itself) -> 1 -> 3 -> 1 | 4, with block 2 placed at the
    // lower address: the vector's order is not the code's.
    auto g = graph_of({{2}, {3}, {2, 1}, {1, 4}, {}});
    std::swap(g.blocks[1].start, g.blocks[2].start);
    std::swap(g.blocks[1].end, g.blocks[2].end);
    // Now block 2 (self loop) is at address 16 and the loop {1, 3} at 32.
    const auto forest = find_loops(g);
    ASSERT_EQ(forest.loops.size(), 2u);
    EXPECT_EQ(forest.loops[0].header, 2u);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{2}));
    EXPECT_EQ(forest.loops[0].back_edges, (std::vector<BackEdge>{{2, 2}}));
    EXPECT_EQ(forest.loops[1].header, 1u);
    EXPECT_EQ(forest.loops[1].blocks, (Blocks{1, 3}));
    EXPECT_EQ(forest.roots, (Blocks{0, 1}));
    for (const auto& loop : forest.loops) {
        EXPECT_EQ(loop.parent, kNoLoop);
        EXPECT_TRUE(loop.children.empty());
    }
}

TEST(LoopForest, ALoopWhoseBodyCallsAFunction) {
    // A call falls through: 2 ends at a call and continues at 3, inside the loop.
    // 0 -> 1 (header) -> 2 (call) -> 3 -> 1 | 4
    const auto forest = find_loops(graph_of({{1}, {2}, {3}, {1, 4}, {}}));
    ASSERT_EQ(forest.loops.size(), 1u);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{1, 2, 3}));
}

TEST(LoopForest, ABreakLeavesTheBodyAndTwoContinuesMakeOneLoop) {
    // 0 -> 1 (header: test) -> 2 | 5;  2 -> 3 | 5 (break);  3 -> 1 (continue) | 4;  4 -> 1 (end of body)
    const auto forest = find_loops(graph_of({{1}, {2, 5}, {3, 5}, {1, 4}, {1}, {}}));
    ASSERT_EQ(forest.loops.size(), 1u);
    const auto& loop = forest.loops[0];
    EXPECT_EQ(loop.header, 1u);
    EXPECT_EQ(loop.blocks, (Blocks{1, 2, 3, 4}));
    EXPECT_EQ(loop.back_edges, (std::vector<BackEdge>{{3, 1}, {4, 1}}));
    EXPECT_EQ(forest.innermost_loop[5], kNoLoop);
}

TEST(LoopForest, AnIrreducibleCycleIsReportedNotDropped) {
    // 0 -> 1 | 2;  1 <-> 2;  1 -> 3. Neither 1 nor 2 dominates the other: no natural loop.
    const auto forest = find_loops(graph_of({{1, 2}, {2, 3}, {1}, {}}));
    ASSERT_EQ(forest.irreducible.size(), 1u);
    EXPECT_EQ(forest.irreducible[0].blocks, (Blocks{1, 2}));
    EXPECT_EQ(forest.irreducible[0].entries, (Blocks{1, 2}));
    // ... and kept as a loop of its own, entered at both blocks, its header the first by address.
    ASSERT_EQ(forest.loops.size(), 1u);
    const auto& loop = forest.loops[0];
    EXPECT_TRUE(loop.irreducible);
    EXPECT_EQ(loop.blocks, (Blocks{1, 2}));
    EXPECT_EQ(loop.entries, (Blocks{1, 2}));
    EXPECT_EQ(loop.header, 1u);
    EXPECT_EQ(loop.back_edges, (std::vector<BackEdge>{{1, 2}, {2, 1}}));  // each jump to the other entry
    EXPECT_EQ(forest.innermost_loop, (std::vector<std::size_t>{kNoLoop, 0, 0, kNoLoop}));
}

TEST(LoopForest, ANaturalLoopHeadedInAnIrreducibleCycleIsNestedInIt) {
    // 0 -> 1 | 2;  1 -> 1 (a natural loop) | 2;  2 -> 1 | 3. The cycle {1, 2} is entered at
    // both; the self loop at 1 is inside it.
    const auto forest = find_loops(graph_of({{1, 2}, {1, 2}, {1, 3}, {}}));
    ASSERT_EQ(forest.loops.size(), 2u);
    EXPECT_TRUE(forest.loops[0].irreducible);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{1, 2}));
    EXPECT_FALSE(forest.loops[1].irreducible);
    EXPECT_EQ(forest.loops[1].blocks, (Blocks{1}));
    EXPECT_EQ(forest.loops[1].parent, 0u);
    EXPECT_EQ(forest.loops[1].depth, 2);
    EXPECT_EQ(forest.loops[1].entries, (Blocks{1}));
    EXPECT_EQ(forest.roots, (Blocks{0}));
}

TEST(LoopForest, AnIrreducibleCycleInsideANaturalLoop) {
    // 0 -> 1 (header) -> 2 | 3;  2 <-> 3;  3 -> 4 -> 1 (back) | 5
    const auto forest = find_loops(graph_of({{1}, {2, 3}, {3}, {2, 4}, {1, 5}, {}}));
    ASSERT_EQ(forest.loops.size(), 2u);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{1, 2, 3, 4}));
    EXPECT_FALSE(forest.loops[0].irreducible);
    ASSERT_EQ(forest.irreducible.size(), 1u);
    EXPECT_EQ(forest.irreducible[0].blocks, (Blocks{2, 3}));
    EXPECT_TRUE(forest.loops[1].irreducible);  // nested in the natural loop
    EXPECT_EQ(forest.loops[1].blocks, (Blocks{2, 3}));
    EXPECT_EQ(forest.loops[1].parent, 0u);
    EXPECT_EQ(forest.innermost_loop, (std::vector<std::size_t>{kNoLoop, 0, 1, 1, 0, kNoLoop}));
}

TEST(LoopForest, UnreachableBlocksAreInNoLoop) {
    // 3 <-> 4 is a cycle control never enters.
    const auto forest = find_loops(graph_of({{1}, {1, 2}, {}, {4}, {3}}));
    ASSERT_EQ(forest.loops.size(), 1u);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{1}));
    EXPECT_EQ(forest.reachable, (std::vector<bool>{true, true, true, false, false}));
    EXPECT_TRUE(forest.irreducible.empty());
}

TEST(LoopForest, ThreeDeepNestAndTheEntryAsAHeader) {
    // The entry block itself heads the outer loop (a function that is one loop).
    // 0 -> 1 -> 2 -> 2 | 3;  3 -> 1 | 4;  4 -> 0 | 5
    const auto forest = find_loops(graph_of({{1}, {2}, {2, 3}, {1, 4}, {0, 5}, {}}));
    ASSERT_EQ(forest.loops.size(), 3u);
    EXPECT_EQ(forest.loops[0].header, 0u);
    EXPECT_EQ(forest.loops[1].header, 1u);
    EXPECT_EQ(forest.loops[2].header, 2u);
    EXPECT_EQ(forest.loops[2].depth, 3);
    EXPECT_EQ(forest.loops[2].parent, 1u);
    EXPECT_EQ(forest.loops[1].parent, 0u);
    EXPECT_EQ(forest.loops[0].blocks, (Blocks{0, 1, 2, 3, 4}));
}

TEST(LoopForest, ASuccessorOutOfRangeIsAnError) {
    EXPECT_THROW(find_loops(graph_of({{1}, {7}})), std::invalid_argument);
}
