#include "core/loop_forest.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/function_cfg.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::measure;

namespace {

using Blocks = std::vector<std::size_t>;

int deepest(const LoopForest& forest) {
    int depth = 0;
    for (const auto& loop : forest.loops) depth = std::max(depth, loop.depth);
    return depth;
}

struct Found {
    FunctionCfg cfg;
    LoopForest forest;
};

Found loops_of(const ElfSymbols& symbols, const std::string& function) {
    auto cfg = function_cfg(symbols, function);
    if (!cfg) ADD_FAILURE() << "no function " << function;
    Found found{cfg ? *cfg : FunctionCfg{}, {}};
    found.forest = find_loops(found.cfg.graph);
    return found;
}

} // namespace

TEST(FunctionCfg, BlocksSplitAtJumpTargetsAndAfterJumps) {
    // 0x1000: xor eax,eax; 0x1002: inc eax; cmp eax,10; jne 0x1002; 0x1009: ret
    const std::string code("\x31\xc0"
                           "\xff\xc0"
                           "\x83\xf8\x0a"
                           "\x75\xf9"
                           "\xc3",
                           10);
    const auto cfg = decode_function_cfg(code, 0x1000, "count_to_ten");
    EXPECT_TRUE(cfg.complete());
    EXPECT_EQ(cfg.instructions, (std::vector<std::uint64_t>{0x1000, 0x1002, 0x1004, 0x1007, 0x1009}));
    ASSERT_EQ(cfg.graph.blocks.size(), 3u);
    EXPECT_EQ(cfg.graph.blocks[0].start, 0x1000u);
    EXPECT_EQ(cfg.graph.blocks[0].end, 0x1002u);
    EXPECT_EQ(cfg.graph.blocks[0].successors, (Blocks{1}));  // falls through into the loop
    EXPECT_EQ(cfg.graph.blocks[1].start, 0x1002u);
    EXPECT_EQ(cfg.graph.blocks[1].end, 0x1009u);
    EXPECT_EQ(cfg.graph.blocks[1].successors, (Blocks{1, 2}));  // jne back, or on to ret
    EXPECT_TRUE(cfg.graph.blocks[2].successors.empty());
    const auto forest = find_loops(cfg.graph);
    ASSERT_EQ(forest.loops.size(), 1u);
    EXPECT_EQ(forest.loops[0].header, 1u);
}

TEST(FunctionCfg, ACallFallsThroughAndAJumpOutOfTheFunctionLeavesIt) {
    // 0x2000: call 0x3000; 0x2005: jmp 0x4000 (a tail call)
    const std::string code("\xe8\xfb\x0f\x00\x00"
                           "\xe9\xf6\x1f\x00\x00",
                           10);
    const auto cfg = decode_function_cfg(code, 0x2000, "tail");
    EXPECT_TRUE(cfg.complete());
    ASSERT_EQ(cfg.graph.blocks.size(), 1u);  // the call does not end the block
    EXPECT_EQ(cfg.graph.blocks[0].end, 0x200au);
    EXPECT_TRUE(cfg.graph.blocks[0].successors.empty());
    // The call is kept with its callee (what measure --loops adds to the loop holding it), and so is
    // the jump out, a tail call.
    ASSERT_EQ(cfg.calls.size(), 2u);
    EXPECT_EQ(cfg.calls[0].at, 0x2000u);
    EXPECT_EQ(cfg.calls[0].target, 0x3000u);
    EXPECT_FALSE(cfg.calls[0].tail);
    EXPECT_EQ(cfg.calls[1].at, 0x2005u);
    EXPECT_EQ(cfg.calls[1].target, 0x4000u);
    EXPECT_TRUE(cfg.calls[1].tail);
    EXPECT_FALSE(cfg.calls[1].conditional);
}

TEST(FunctionCfg, ATailCallIsACallAtO2AndO3) {
    // loop_shapes.c's offset_sum ends in a jump to sum_scaled (GCC's sibling call): a call site
    // whose callee's work measure --loops gives to offset_sum's callers.
    for (const char* path : {ROOFLINE_TEST_LOOP_SHAPES_O2, ROOFLINE_TEST_LOOP_SHAPES_O3}) {
        const ElfSymbols symbols(path);
        const auto cfg = function_cfg(symbols, "offset_sum");
        const auto* callee = symbols.symbol_named("sum_scaled");
        ASSERT_TRUE(cfg.has_value() && callee != nullptr) << path;
        ASSERT_EQ(cfg->calls.size(), 1u) << path;
        EXPECT_TRUE(cfg->calls[0].tail) << path;
        EXPECT_EQ(cfg->calls[0].target, callee->start) << path;
    }
}

TEST(FunctionCfg, ACallThroughThePltGoesToAStubInThePlt) {
    // loop_shapes' main calls malloc through its PLT: the stub names the import and lies in a PLT
    // section (measure --loops follows where its jump went); no function's own code does.
    const ElfSymbols symbols(ROOFLINE_TEST_LOOP_SHAPES_O2);
    const auto cfg = function_cfg(symbols, "main");
    ASSERT_TRUE(cfg.has_value());
    const auto malloc_call = std::find_if(cfg->calls.begin(), cfg->calls.end(), [&](const auto& c) {
        return c.target != 0 && symbols.plt_import_at(c.target) == "malloc";
    });
    ASSERT_NE(malloc_call, cfg->calls.end());
    EXPECT_TRUE(symbols.in_plt(malloc_call->target));
    for (const char* function : {"main", "daxpy", "halve_add"})
        EXPECT_FALSE(symbols.in_plt(symbols.symbol_named(function)->start)) << function;
}

TEST(FunctionCfg, AnIndirectCallHasNoTarget) {
    // 0x2000: call *%rax; 0x2002: call *0x10(%rip); 0x2008: ret
    const std::string code("\xff\xd0"
                           "\xff\x15\x10\x00\x00\x00"
                           "\xc3",
                           9);
    const auto cfg = decode_function_cfg(code, 0x2000, "indirect_calls");
    EXPECT_TRUE(cfg.complete());  // calls return: the graph misses nothing
    ASSERT_EQ(cfg.calls.size(), 2u);
    EXPECT_EQ(cfg.calls[0].at, 0x2000u);
    EXPECT_EQ(cfg.calls[0].target, 0u);
    EXPECT_EQ(cfg.calls[1].at, 0x2002u);
    EXPECT_EQ(cfg.calls[1].target, 0u);
}

TEST(FunctionCfg, AnIndirectJumpMakesTheGraphIncomplete) {
    // jmp *%rax; ret
    const std::string code("\xff\xe0\xc3", 3);
    const auto cfg = decode_function_cfg(code, 0x1000, "switch");
    ASSERT_EQ(cfg.incomplete.size(), 1u);
    EXPECT_NE(cfg.incomplete[0].find("indirect jump at 0x1000"), std::string::npos) << cfg.incomplete[0];
    EXPECT_EQ(cfg.graph.blocks.size(), 2u);
    EXPECT_TRUE(cfg.graph.blocks[0].successors.empty());
}

TEST(FunctionCfg, ManyIndirectJumpsAreOneReason) {
    // An interpreter's computed gotos: five times jmp *%rax (0x1000, 0x1002, ...), then ret.
    std::string code;
    for (int i = 0; i < 5; ++i) code += std::string("\xff\xe0", 2);
    code += "\xc3";
    const auto cfg = decode_function_cfg(code, 0x1000, "interpreter");
    ASSERT_EQ(cfg.incomplete.size(), 1u);
    EXPECT_NE(cfg.incomplete[0].find("5 indirect jumps at 0x1000, 0x1002, 0x1004 and 2 more"), std::string::npos)
        << cfg.incomplete[0];
}

TEST(FunctionCfg, BytesThatDoNotDecodeEndTheWalkAndSaySo) {
    // nop; 0x06 (push %es: invalid in 64-bit mode); ret
    const std::string code("\x90\x06\xc3", 3);
    const auto cfg = decode_function_cfg(code, 0x1000, "damaged");
    ASSERT_EQ(cfg.incomplete.size(), 1u);
    EXPECT_NE(cfg.incomplete[0].find("0x1001 do not decode"), std::string::npos) << cfg.incomplete[0];
    EXPECT_EQ(cfg.instructions, (std::vector<std::uint64_t>{0x1000}));
}

TEST(FunctionCfg, AVX512InstructionsDecode) {
    // vaddpd %zmm2,%zmm1,%zmm0 (EVEX); vfmadd231pd %zmm2,%zmm1,%zmm0{%k1}; ret
    const std::string code("\x62\xf1\xf5\x48\x58\xc2"
                           "\x62\xf2\xf5\x49\xb8\xc2"
                           "\xc3",
                           13);
    const auto cfg = decode_function_cfg(code, 0x1000, "avx512");
    EXPECT_TRUE(cfg.complete());
    EXPECT_EQ(cfg.instructions, (std::vector<std::uint64_t>{0x1000, 0x1006, 0x100c}));
}

// The loops of C functions of known shape, compiled at -O2 (tests/loops/loop_shapes.c).
TEST(FunctionCfg, LoopsOfCompiledFunctionsAtO2) {
    const ElfSymbols symbols(ROOFLINE_TEST_LOOP_SHAPES_O2);
    ASSERT_TRUE(symbols.loaded());
    EXPECT_TRUE(loops_of(symbols, "no_loop").forest.loops.empty());

    const auto daxpy = loops_of(symbols, "daxpy");
    EXPECT_TRUE(daxpy.cfg.complete());
    EXPECT_EQ(daxpy.forest.loops.size(), 1u);

    const auto siblings = loops_of(symbols, "sweep_reduce_copy");
    EXPECT_EQ(siblings.forest.loops.size(), 3u);
    EXPECT_EQ(siblings.forest.roots.size(), 3u);  // side by side, none inside another
    EXPECT_EQ(deepest(siblings.forest), 1);

    const auto matmul = loops_of(symbols, "matmul");
    EXPECT_EQ(matmul.forest.loops.size(), 3u);
    EXPECT_EQ(matmul.forest.roots.size(), 1u);
    EXPECT_EQ(deepest(matmul.forest), 3);

    const auto blocked = loops_of(symbols, "matmul_blocked");
    EXPECT_EQ(blocked.forest.loops.size(), 5u);
    EXPECT_EQ(deepest(blocked.forest), 5);

    const auto calling = loops_of(symbols, "call_in_loop");
    EXPECT_TRUE(calling.cfg.complete());
    EXPECT_EQ(calling.forest.loops.size(), 1u);

    const auto early_exit = loops_of(symbols, "first_above");
    EXPECT_EQ(early_exit.forest.loops.size(), 1u);

    for (const char* f : {"no_loop", "daxpy", "sweep_reduce_copy", "matmul", "matmul_blocked", "call_in_loop",
                          "first_above"}) {
        const auto found = loops_of(symbols, f);
        EXPECT_TRUE(found.cfg.complete()) << f << ": " << (found.cfg.incomplete.empty() ? "" : found.cfg.incomplete[0]);
        EXPECT_TRUE(found.forest.irreducible.empty()) << f;
    }

    // A switch's jump table is followed: its cases are in the loop's body.
    const auto dispatch = loops_of(symbols, "dispatch");
    EXPECT_TRUE(dispatch.cfg.complete()) << (dispatch.cfg.incomplete.empty() ? "" : dispatch.cfg.incomplete[0]);
    ASSERT_EQ(dispatch.forest.loops.size(), 1u);
    std::size_t jump_table_block = 0;
    for (std::size_t b = 0; b < dispatch.cfg.graph.blocks.size(); ++b)
        if (dispatch.cfg.graph.blocks[b].successors.size() >= 7) jump_table_block = b;
    ASSERT_NE(jump_table_block, 0u) << "no block with an edge to each of the switch's cases";
    for (const auto c : dispatch.cfg.graph.blocks[jump_table_block].successors)
        EXPECT_EQ(dispatch.forest.innermost_loop[c], 0u) << "a case outside the loop";
    // A computed goto (a table of addresses with no bound) is not followed: the graph says so.
    EXPECT_FALSE(loops_of(symbols, "threaded").cfg.complete());
}

// At -O3 the vectorizer adds loops (a vector body beside its scalar remainder), so only
// what it cannot change is checked: every loop of the source is there, at its depth.
TEST(FunctionCfg, LoopsOfCompiledFunctionsAtO3) {
    const ElfSymbols symbols(ROOFLINE_TEST_LOOP_SHAPES_O3);
    ASSERT_TRUE(symbols.loaded());
    EXPECT_TRUE(loops_of(symbols, "no_loop").forest.loops.empty());
    EXPECT_GE(loops_of(symbols, "daxpy").forest.loops.size(), 1u);
    const auto siblings = loops_of(symbols, "sweep_reduce_copy");
    EXPECT_GE(siblings.forest.roots.size(), 3u);
    EXPECT_EQ(deepest(siblings.forest), 1);
    EXPECT_EQ(deepest(loops_of(symbols, "matmul").forest), 3);
    EXPECT_EQ(deepest(loops_of(symbols, "matmul_blocked").forest), 5);
    EXPECT_GE(loops_of(symbols, "call_in_loop").forest.loops.size(), 1u);
}

TEST(FunctionCfg, AFunctionTheFileDoesNotHave) {
    const ElfSymbols symbols(ROOFLINE_TEST_LOOP_SHAPES_O2);
    EXPECT_FALSE(function_cfg(symbols, "no_such_function").has_value());
}

// -march=native's AVX-512 DQ code (vcvtqq2pd, vextractf64x2) that Capstone 4 does not decode:
// its length is read from its EVEX encoding (register, SIB + disp8, imm8 forms), so the loop
// around it is found and the graph is complete, not cut at the first such instruction.
TEST(FunctionCfg, EvexInstructionsCapstoneDoesNotKnowKeepTheGraph) {
    const std::string code("\x62\xf1\xfe\x48\xe6\xc0"              // vcvtqq2pd %zmm0,%zmm0
                           "\x62\xf1\xfe\x48\xe6\x44\xc7\x01"      // vcvtqq2pd 0x40(%rdi,%rax,8),%zmm0
                           "\x62\xf3\xfd\x28\x19\xcb\x01"          // vextractf64x2 $1,%ymm1,%xmm3
                           "\xff\xc8"                              // dec %eax
                           "\x75\xe7"                              // jne 0x1000
                           "\xc3",                                 // ret
                           26);
    const auto cfg = decode_function_cfg(code, 0x1000, "evex_loop");
    EXPECT_TRUE(cfg.complete()) << (cfg.incomplete.empty() ? "" : cfg.incomplete.front());
    EXPECT_EQ(cfg.instructions, (std::vector<std::uint64_t>{0x1000, 0x1006, 0x100e, 0x1015, 0x1017, 0x1019}));
    EXPECT_EQ(cfg.end, 0x101au);
}
