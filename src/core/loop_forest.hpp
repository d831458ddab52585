// The loops of one function, from its control-flow graph: dominators, back edges,
// natural loops (loops sharing a header merged into one), the cycles that are not
// natural loops (irreducible: entered at more than one block), reported and kept as
// loops of their own, never dropped silently, and the tree of their nesting. `measure --loops` (issue 36)
// finds the graph in a function's machine code and names a point per loop. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace roofline {

// One basic block: the code [start, end) (addresses, or anything ordered: the
// analysis reads only the edges) and the blocks control may go to next.
struct CfgBlock {
    std::uint64_t start = 0, end = 0;
    std::vector<std::size_t> successors;  // indices into ControlFlowGraph::blocks
};

struct ControlFlowGraph {
    std::vector<CfgBlock> blocks;
    std::size_t entry = 0;  // the block control enters the function at
};

// An edge `from -> to` whose target dominates its source.
struct BackEdge {
    std::size_t from = 0, to = 0;
    friend bool operator==(const BackEdge&, const BackEdge&) = default;
};

inline constexpr std::size_t kNoLoop = static_cast<std::size_t>(-1);

// A natural loop, or a cycle entered at more than one block (irreducible: compilers make
// them when they peel or jump into a loop's middle; -O3's vectorized loops have them), kept
// as a loop of its own so its counts are not lost in the code around it.
struct Loop {
    std::size_t header = 0;               // the block every iteration starts at (irreducible: its first entry by address)
    std::vector<BackEdge> back_edges;     // every edge back to the header (irreducible: from its blocks to an entry)
    std::vector<std::size_t> entries;     // blocks control comes in at from outside: {header}, or several
    bool irreducible = false;
    std::vector<std::size_t> blocks;      // its body, sorted: the header, its inner loops' blocks too
                                          // (irreducible: the cycle's, and the natural loops headed in it)
    std::size_t parent = kNoLoop;         // the loop it is nested in (index into LoopForest::loops)
    std::vector<std::size_t> children;    // the loops directly inside it
    int depth = 1;                        // 1: outermost
};

// A cycle no natural loop holds: a strongly connected set of blocks (without the
// back edges) that control enters at more than one block.
struct IrreducibleCycle {
    std::vector<std::size_t> blocks;   // sorted
    std::vector<std::size_t> entries;  // its blocks with a predecessor outside it, sorted
};

struct LoopForest {
    // Natural loops and irreducible cycles (their own Loop each); outer loops before the
    // loops they hold; siblings by header address.
    std::vector<Loop> loops;
    std::vector<std::size_t> roots; // the outermost loops
    std::vector<IrreducibleCycle> irreducible;
    // Per block: its innermost loop (kNoLoop: in no loop), and whether the entry reaches it.
    std::vector<std::size_t> innermost_loop;
    std::vector<bool> reachable;
};

// Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm): per block,
// the block that immediately dominates it; the entry's is itself, an unreachable
// block's kNoLoop.
std::vector<std::size_t> immediate_dominators(const ControlFlowGraph& graph);
// Does block `a` dominate block `b`, by the immediate dominators above.
bool dominates(const std::vector<std::size_t>& idom, std::size_t a, std::size_t b);

// The loops of the graph. Successor indices out of range are a std::invalid_argument.
LoopForest find_loops(const ControlFlowGraph& graph);

} // namespace roofline
