#include "measure/elf_symbols.hpp"
#include "measure/function_cfg.hpp"
#include "measure/function_loops.hpp"
#include "measure/loop_counts.hpp"
#include "measure/source_lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::measure;

namespace {

InstructionCounts ran(std::uint64_t address, double runs, double flops = 0, double loaded = 0) {
    InstructionCounts ic;
    ic.address = address;
    ic.counts.instructions = runs;
    if (flops > 0) ic.counts.flops["f64_add"] = flops;
    ic.counts.bytes_loaded = loaded;
    ic.counts.cache_traffic["DRAM_read"] = loaded / 2;
    return ic;
}

InstructionCounts jumped(std::uint64_t address, double runs, double taken) {
    auto ic = ran(address, runs);
    ic.jumps = true;
    ic.taken = taken;
    return ic;
}

FunctionLoops loops_of(const FunctionCfg& cfg) {
    FunctionLoops f;
    f.cfg = cfg;
    f.forest = find_loops(cfg.graph);
    f.loops.resize(f.forest.loops.size());
    for (auto& l : f.loops) l.name = "a loop";
    return f;
}

// 0x1000: xor eax,eax; 0x1002: inc eax; cmp eax,10; jne 0x1002; 0x1009: ret
const std::string kCountToTen("\x31\xc0\xff\xc0\x83\xf8\x0a\x75\xf9\xc3", 10);

} // namespace

TEST(LoopCounts, ALoopsCountsItsIterationsAndTheRestIsOutside) {
    const auto found = loops_of(decode_function_cfg(kCountToTen, 0x1000, "count_to_ten"));
    ASSERT_EQ(found.loops.size(), 1u);
    const auto counts = loop_counts(found, {ran(0x1000, 1), ran(0x1002, 10, 10, 80), ran(0x1004, 10),
                                            jumped(0x1007, 10, 9), ran(0x1009, 1, 0, 8),
                                            ran(0x9000, 5)});  // another function's: ignored
    ASSERT_EQ(counts.loops.size(), 1u);
    const auto& loop = counts.loops[0];
    EXPECT_EQ(loop.self.instructions, 30);
    EXPECT_EQ(loop.inclusive.instructions, 30);
    EXPECT_EQ(loop.self.flops.at("f64_add"), 10);
    EXPECT_EQ(loop.self.bytes_loaded, 80);
    EXPECT_EQ(loop.self.cache_traffic.at("DRAM_read"), 40);
    EXPECT_EQ(loop.header_runs, 10);
    EXPECT_EQ(loop.back_edges, 9);   // the jump back was taken 9 times
    EXPECT_EQ(loop.iterations, 10);  // tested at the bottom: its body ran at every header run
    EXPECT_EQ(loop.entries, 1);
    EXPECT_EQ(counts.outside.instructions, 2);
    EXPECT_EQ(counts.outside.bytes_loaded, 8);
    EXPECT_EQ(counts.function.instructions, 32);
    EXPECT_EQ(counts.function.bytes_loaded, 88);
    EXPECT_EQ(counts.unplaced, 0u);
}

TEST(LoopCounts, ALoopEnteredTwiceAndCountsAtNoInstructionStart) {
    const auto found = loops_of(decode_function_cfg(kCountToTen, 0x1000, "count_to_ten"));
    // Entered twice, 10 times round in all: the header ran 12 times, the jump back was taken 10.
    const auto counts = loop_counts(found, {ran(0x1000, 2), ran(0x1002, 12), ran(0x1003, 1), ran(0x1004, 12),
                                            jumped(0x1007, 12, 10), ran(0x1009, 2)});
    EXPECT_EQ(counts.loops[0].back_edges, 10);
    EXPECT_EQ(counts.loops[0].iterations, 12);
    EXPECT_EQ(counts.loops[0].entries, 2);
    EXPECT_EQ(counts.unplaced, 1u);  // 0x1003 is inside inc's bytes: counted outside, and said
    EXPECT_EQ(counts.outside.instructions, 5);
    EXPECT_EQ(counts.function.instructions, 41);
}

TEST(LoopCounts, ABackEdgeByFallingThroughAndByAnUnconditionalJump) {
    // A loop closed by a plain jmp, left by a je:
    // 0x1000: inc eax; cmp eax,10; 0x1005: je 0x100b; 0x1007: jmp 0x1000; nop; nop; 0x100b: ret
    const std::string code("\xff\xc0\x83\xf8\x0a\x74\x04\xeb\xf7\x90\x90\xc3", 12);
    const auto found = loops_of(decode_function_cfg(code, 0x1000, "jmp_back"));
    ASSERT_EQ(found.loops.size(), 1u);
    const auto counts = loop_counts(found, {ran(0x1000, 7), ran(0x1002, 7), jumped(0x1005, 7, 1), ran(0x1007, 6),
                                            ran(0x100b, 1)});
    EXPECT_EQ(counts.loops[0].back_edges, 6);  // the jmp back ran 6 times
    EXPECT_EQ(counts.loops[0].iterations, 6);  // the header's je left once, where no jump back follows
    EXPECT_EQ(counts.loops[0].entries, 1);
}

TEST(LoopCounts, ALoopTestedAtTheTopRanItsBodyOnceLessThanItsHeader) {
    // As -O0 makes `for (i = 0; i < 10; i++)`: enter at the test, the body falls through to it.
    // 0x1000: xor eax,eax; 0x1002: jmp 0x1006; 0x1004: inc eax; 0x1006: cmp eax,10; 0x1009: jl 0x1004; 0x100b: ret
    const std::string code("\x31\xc0\xeb\x02\xff\xc0\x83\xf8\x0a\x7c\xf9\xc3", 12);
    const auto found = loops_of(decode_function_cfg(code, 0x1000, "top_tested"));
    ASSERT_EQ(found.loops.size(), 1u);
    const auto counts = loop_counts(found, {ran(0x1000, 1), ran(0x1002, 1), ran(0x1004, 10), ran(0x1006, 11),
                                            jumped(0x1009, 11, 10), ran(0x100b, 1)});
    EXPECT_EQ(counts.loops[0].header_runs, 11);
    EXPECT_EQ(counts.loops[0].back_edges, 10);  // inc falls through to the test 10 times
    EXPECT_EQ(counts.loops[0].iterations, 10);  // the 11th test left without running the body
    EXPECT_EQ(counts.loops[0].entries, 1);
    EXPECT_EQ(counts.loops[0].self.instructions, 32);
}

TEST(LoopCounts, ARotatedLoopLeftAtItsTopRanItsBodyAtEveryHeaderRun) {
    // As gcc -O2 makes `for (i = 0; i < n; i++) if (a[i] == key) return i;`: entered at the
    // compare (the header, which only tests), the loop's own test at the bottom (add; cmp; je out).
    // The search found its key at a[3]: 4 compares, the 4th left at the top: the body ran 4 times.
    // 0x1000: xor eax,eax; 0x1002: jmp 0x100d; 0x1004: add rax,1; 0x1008: cmp rax,rsi;
    // 0x100b: je 0x1013; 0x100d: cmp [rdi+rax*4],edx; 0x1010: jne 0x1004; 0x1012: ret;
    // 0x1013: mov eax,-1; 0x1018: ret
    const std::string code("\x31\xc0\xeb\x09\x48\x83\xc0\x01\x48\x39\xf0\x74\x06\x39\x14\x87\x75\xf2\xc3"
                           "\xb8\xff\xff\xff\xff\xc3",
                           25);
    const auto found = loops_of(decode_function_cfg(code, 0x1000, "search"));
    ASSERT_EQ(found.loops.size(), 1u);
    const auto counts = loop_counts(found, {ran(0x1000, 1), ran(0x1002, 1), ran(0x1004, 3), ran(0x1008, 3),
                                            jumped(0x100b, 3, 0), ran(0x100d, 4, 0, 16), jumped(0x1010, 4, 3),
                                            ran(0x1012, 1)});
    EXPECT_EQ(counts.loops[0].header_runs, 4);
    EXPECT_EQ(counts.loops[0].back_edges, 3);
    EXPECT_EQ(counts.loops[0].iterations, 4);  // was 3: the found key's compare was taken for a test that ran no body
    EXPECT_EQ(counts.loops[0].entries, 1);
}

TEST(LoopCounts, ATopTestedLoopWithABreakAtItsBottomRanItsBodyOnceLessThanItsHeader) {
    // As gcc -O1 and clang -O2 make `while (i < n) { s += a[i] * a[i]; i++; if (s > lim) break; }`:
    // the loop's own test at the top (cmp; je out), the body's work, then the break as the
    // conditional jump back (ucomisd; jbe top). A run of 1000 elements, the break never taken:
    // the header ran 1001 times, the body 1000 (e8d06d0 said 1001: the jump back that may leave
    // made it a rotated loop, though the work is not in the header).
    // 0x1000: xor ecx,ecx; 0x1002: cmp rcx,rsi; 0x1005: je 0x1015; 0x1007: addsd xmm1,[rdi];
    // 0x100b: add rcx,1; 0x100f: ucomisd xmm1,xmm0; 0x1013: jbe 0x1002; 0x1015: ret
    const std::string code("\x31\xc9\x48\x39\xf1\x74\x0e\xf2\x0f\x58\x0f\x48\x83\xc1\x01\x66\x0f\x2e\xc8\x76\xed\xc3",
                           22);
    const auto found = loops_of(decode_function_cfg(code, 0x1000, "sum_until"));
    ASSERT_EQ(found.loops.size(), 1u);
    const auto counts = loop_counts(found, {ran(0x1000, 1), ran(0x1002, 1001), jumped(0x1005, 1001, 1),
                                            ran(0x1007, 1000, 1000, 8000), ran(0x100b, 1000), ran(0x100f, 1000),
                                            jumped(0x1013, 1000, 1000), ran(0x1015, 1)});
    EXPECT_EQ(counts.loops[0].header_runs, 1001);
    EXPECT_EQ(counts.loops[0].back_edges, 1000);
    EXPECT_EQ(counts.loops[0].entries, 1);
    EXPECT_EQ(counts.loops[0].iterations, 1000);
}

TEST(LoopCounts, ALoopEnteredInItsMiddleRanItsBodyAtEveryHeaderRun) {
    // As -O2 makes of `for (s = 0; s < 10; s++) { work; swap; }` when the last swap moves out:
    // entered at the work (the header, which stores, then tests), the swap jumps back to it.
    // 0x1000: xor eax,eax; 0x1002: jmp 0x1006; 0x1004: nop; nop; 0x1006: mov [rdi],eax; inc eax;
    // 0x100a: cmp eax,10; 0x100d: jne 0x1004; 0x100f: ret
    const std::string code("\x31\xc0\xeb\x02\x90\x90\x89\x07\xff\xc0\x83\xf8\x0a\x75\xf5\xc3", 16);
    const auto found = loops_of(decode_function_cfg(code, 0x1000, "entered_in_middle"));
    ASSERT_EQ(found.loops.size(), 1u);
    auto store = ran(0x1006, 10);
    store.counts.bytes_stored = 40;
    const auto counts = loop_counts(found, {ran(0x1000, 1), ran(0x1002, 1), ran(0x1004, 9), ran(0x1005, 9), store,
                                            ran(0x1008, 10), ran(0x100a, 10), jumped(0x100d, 10, 9), ran(0x100f, 1)});
    EXPECT_EQ(counts.loops[0].header_runs, 10);
    EXPECT_EQ(counts.loops[0].back_edges, 9);
    EXPECT_EQ(counts.loops[0].iterations, 10);  // its header stores: the body ran each time
    EXPECT_EQ(counts.loops[0].entries, 1);
}

// Nesting with real code: the multiply of tests/loops/loop_shapes.c at -O2, every
// instruction counted once. Self counts are each loop's own instructions, inclusive
// counts hold the inner loops', and the loops' self counts and the rest add up.
TEST(LoopCounts, SelfAndInclusiveCountsOfNestedLoopsAddUp) {
    const ElfSymbols symbols(ROOFLINE_TEST_LOOP_SHAPES_O2);
    const SourceLines lines(ROOFLINE_TEST_LOOP_SHAPES_O2);
    const auto found = function_loops(symbols, lines, "matmul");
    ASSERT_TRUE(found.has_value());
    ASSERT_EQ(found->loops.size(), 3u);
    std::vector<InstructionCounts> once;
    for (const auto a : found->cfg.instructions) once.push_back(ran(a, 1, 1));
    const auto counts = loop_counts(*found, once);
    double self_sum = counts.outside.instructions;
    for (std::size_t l = 0; l < 3; ++l) {
        EXPECT_EQ(counts.loops[l].inclusive.instructions, static_cast<double>(found->loops[l].instructions.size()));
        self_sum += counts.loops[l].self.instructions;
    }
    EXPECT_EQ(self_sum, static_cast<double>(found->cfg.instructions.size()));
    EXPECT_EQ(counts.function.instructions, static_cast<double>(found->cfg.instructions.size()));
    // outer = its own + the middle loop's inclusive; middle = its own + the inner's
    EXPECT_EQ(counts.loops[0].inclusive.instructions, counts.loops[0].self.instructions + counts.loops[1].inclusive.instructions);
    EXPECT_EQ(counts.loops[1].inclusive.instructions, counts.loops[1].self.instructions + counts.loops[2].inclusive.instructions);
    EXPECT_EQ(counts.loops[2].inclusive.instructions, counts.loops[2].self.instructions);
    EXPECT_GT(counts.loops[0].self.instructions, 0);
    EXPECT_EQ(counts.loops[0].inclusive.flops.at("f64_add"), counts.loops[0].inclusive.instructions);
}
