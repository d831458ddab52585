// The loops of one function of a program, found in its machine code and named:
// its control-flow graph (function_cfg), the loop forest of that graph
// (core/loop_forest), and for each loop the instructions of its body and the source
// lines they come from (source_lines), or its address in the function without
// debug information. What `measure --loops` places a point for (issue 36).
#pragma once

#include "core/loop_forest.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/function_cfg.hpp"
#include "measure/source_lines.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

struct NamedLoop {
    std::uint64_t header = 0;                 // link-time address of the header block
    std::vector<std::uint64_t> instructions;  // its body's, inner loops' included, ascending
    std::optional<SourceRange> source;        // nullopt: no debug information for it
    // "loop_shapes.c:19-20" (the file's last path component), or "daxpy+0x1a" without
    // lines; a name two loops of the function would share gets its header's offset
    // ("loop_shapes.c:19-20 @+0x40"), so each is unique within its function; a cycle
    // entered at more than one place (not a natural loop) says so: "... (entered at 2 places)".
    std::string name;
};

struct FunctionLoops {
    FunctionCfg cfg;
    LoopForest forest;
    std::vector<NamedLoop> loops;  // forest.loops' order: outer loops before their inner ones
    // What a reader must know about the loops found: an incomplete graph (its
    // reasons) and cycles that are not natural loops (their entries, the loop they are listed as), in words.
    std::vector<std::string> notes;
};

// Function `function` of `symbols` (the file `lines` reads too); nullopt when the
// file has no such function or its code is not in the file.
std::optional<FunctionLoops> function_loops(const ElfSymbols& symbols, const SourceLines& lines,
                                            const std::string& function);
// ... of the function `symbol` of `symbols` (two static functions may share a name).
std::optional<FunctionLoops> function_loops(const ElfSymbols& symbols, const SourceLines& lines,
                                            const ElfSymbols::Symbol& symbol);

} // namespace roofline::measure
