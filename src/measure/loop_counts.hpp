// A function's counts split by its loops (measure --loops, issue 36): the Valgrind
// tool's counts of every instruction of the function (--roofline-per-instruction)
// summed over each loop's blocks. Self counts are a loop's own blocks (its body
// less its inner loops'), inclusive counts hold its inner loops too; the code in no
// loop keeps the rest, so the loops' self counts and the code outside them add up to
// the function's. How often a loop ran comes from its header's runs and its back edges'
// and exits' jumps. Pure.
#pragma once

#include "measure/engine.hpp"
#include "measure/function_loops.hpp"
#include "measure/protocol_json.hpp"

#include <cstddef>
#include <vector>

namespace roofline::measure {

struct LoopCounts {
    RegionCounts self;       // its own blocks: its body less its inner loops
    RegionCounts inclusive;  // its whole body, inner loops included, and `calls`
    // What the calls made from its body (inner loops' included) brought: each callee's inclusive
    // counts times the call site's share of its calls (measure/call_shares); filled by program_loops.
    RegionCounts calls;
    double header_runs = 0;  // executions of its header's first instruction (irreducible: of its entries')
    double back_edges = 0;   // executions of its back edges: times control went round it
    double entries = 0;      // header runs less back edges: times control came in from outside
    // Times its body ran: its header's runs less the exits taken at a header that only tests
    // (no jump back from it, no FLOPs, stores or calls in it: a loop tested at the top, as -O0
    // makes, whose last test runs no body; a loop entered in its middle does work in its header).
    // A loop tested at the bottom (a jump back that may leave it) whose other blocks neither work
    // nor load data (a search: its body is the header's compare) ran its body at every header
    // run, a break at its top included: `back_edges + entries`. Where they do the work, the
    // header that only tests is the loop's own test (a break at the bottom is no rotation).
    double iterations = 0;
};

struct FunctionLoopCounts {
    std::vector<LoopCounts> loops;  // FunctionLoops::loops' order
    RegionCounts outside;           // the function's instructions in no loop
    RegionCounts function;          // all of them: the loops' self counts plus `outside`
    // Counts at addresses no decoded instruction starts at (the tool and the decoder
    // disagree about the code): they are in `function` and `outside`, and this says how many.
    std::size_t unplaced = 0;
};

// `instructions`: the tool's counts of `found`'s function (others are ignored: those
// whose address is outside the function's code).
FunctionLoopCounts loop_counts(const FunctionLoops& found, const std::vector<InstructionCounts>& instructions);

// The innermost loop of `found` holding the instruction at `address` (an index into its
// loops), kNoLoop when none does or no decoded instruction starts there.
std::size_t loop_at(const FunctionLoops& found, std::uint64_t address);

// into += factor * from: FLOPs by precision, kind and width, bytes loaded and stored, bytes
// by level and cache traffic, instructions executed.
void add_counts(RegionCounts& into, const RegionCounts& from, double factor = 1.0);

} // namespace roofline::measure
