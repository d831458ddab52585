// The loops of one function, from its control-flow graph: dominators, back edges,
// natural loops (loops sharing a header merged into one), the tree of their nesting,
// and the cycles that are not natural loops (irreducible: entered at more than one
// block), which are reported, never dropped silently. `measure --loops` (issue 36)
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

struct Loop {
    std::size_t header = 0;               // the block every iteration starts at
    std::vector<BackEdge> back_edges;     // every edge back to the header (one per `continue` path)
    std::vector<std::size_t> blocks;      // its body, sorted: the header, its inner loops' blocks too
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
    std::vector<Loop> loops;        // outer loops before the loops they hold; siblings by header address
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
