// A function's control-flow graph found statically in its machine code (x86-64,
// decoded by Capstone, AVX-512 included), for the loops of `measure --loops`
// (core/loop_forest). Blocks end after a jump or a return and start at every jump
// target; direct jumps and conditional jumps give edges, and so does falling
// through. A call falls through (its callee returns). What the code does not say
// statically makes the graph incomplete, and the reasons are kept: an indirect jump
// other than a switch's jump table in the usual form has targets this does not follow,
// and bytes that do not decode end the walk.
#pragma once

#include "core/loop_forest.hpp"
#include "measure/elf_symbols.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::measure {

struct FunctionCfg {
    std::string function;
    std::uint64_t start = 0, end = 0;  // [start, end): link-time addresses of the symbol
    ControlFlowGraph graph;            // blocks' addresses are link-time addresses; the entry is block 0
    std::vector<std::uint64_t> instructions;  // every decoded instruction's address, ascending
    // Every direct jump inside the function, by address: where a loop's back edge goes
    // when it is taken, so its executions can be told from a jump's counts.
    struct Jump {
        std::uint64_t at = 0, target = 0;
        bool conditional = false;
    };
    std::vector<Jump> jumps;  // ascending `at`
    // Every call instruction, by address: what `measure --loops` adds a callee's counts to the
    // loop holding the call by. target 0: an indirect call (through a register or memory). A
    // direct jump out of the function is a tail call (`tail`; `conditional`: it is taken only
    // sometimes): the callee's work is done for this function's caller too.
    struct Call {
        std::uint64_t at = 0, target = 0;
        bool tail = false, conditional = false;
    };
    std::vector<Call> calls;  // ascending `at`
    // Why the graph may miss edges (empty: complete), each naming its address.
    std::vector<std::string> incomplete;
    bool complete() const { return incomplete.empty(); }
};

// `n` bytes of the program at link-time address `vaddr` (its read-only data: a switch's
// jump table); empty when they are not in the file.
using CodeReader = std::function<std::string_view(std::uint64_t vaddr, std::size_t n)>;

// The graph of `code`, the bytes of function `name` at link-time address `start`.
// A jump out of [start, start + code.size()) (a tail call, the function's .cold part)
// leaves the function: no edge. With `read`, an indirect jump through a switch's jump
// table as compilers write it for position-independent code (32-bit offsets from the
// table, its bound from the compare before it) gets an edge to every entry; any other
// indirect jump leaves the graph incomplete.
FunctionCfg decode_function_cfg(std::string_view code, std::uint64_t start, std::string name,
                                const CodeReader& read = {});

// Function `name` of `symbols` (demangled), decoded; nullopt when the file has no
// such function, or its code is not in the file.
std::optional<FunctionCfg> function_cfg(const ElfSymbols& symbols, const std::string& name);
std::optional<FunctionCfg> function_cfg(const ElfSymbols& symbols, const ElfSymbols::Symbol& symbol);

// Whether a jump inside the function goes back to its first instruction (a loop that starts
// where the function does): then that instruction's runs are the loop's passes as well as
// the calls, and do not count calls.
bool entry_is_jump_target(const FunctionCfg& cfg);

} // namespace roofline::measure
