#include "measure/elf_symbols.hpp"
#include "measure/function_loops.hpp"
#include "measure/source_lines.hpp"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace roofline;
using namespace roofline::measure;

namespace {

// The line of tests/loops/loop_shapes.c holding `text` (exactly one), so the
// expectations follow the file when it is edited.
int line_of(const std::string& text) {
    std::ifstream in(ROOFLINE_TEST_LOOP_SHAPES_SOURCE);
    std::string line;
    int number = 0, found = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.find(text) != std::string::npos) {
            EXPECT_EQ(found, 0) << "'" << text << "' is on more than one line";
            found = number;
        }
    }
    EXPECT_NE(found, 0) << "no line holds '" << text << "'";
    return found;
}

int marked(const std::string& loop) { return line_of("/* " + loop + " */"); }

// "loop_shapes.c:FIRST-LAST": from the loop's marked first line to the line holding `last`.
std::string lines(const std::string& loop, const std::string& last) {
    return "loop_shapes.c:" + std::to_string(marked(loop)) + "-" + std::to_string(line_of(last));
}
// ... or to line `last`.
std::string lines(const std::string& loop, int last) {
    return "loop_shapes.c:" + std::to_string(marked(loop)) + "-" + std::to_string(last);
}

std::vector<std::string> names(const FunctionLoops& f) {
    std::vector<std::string> out;
    for (const auto& l : f.loops) out.push_back(l.name);
    return out;
}

using LoopNames = std::vector<std::string>;

struct Program {
    explicit Program(const std::string& path) : symbols(path), source(path) {}
    ElfSymbols symbols;
    SourceLines source;
    FunctionLoops loops(const std::string& function) const {
        auto f = function_loops(symbols, source, function);
        if (!f) ADD_FAILURE() << "no function " << function;
        return f ? *f : FunctionLoops{};
    }
};

} // namespace

TEST(SourceLines, TheRangeIsOfTheMostNamedFileAndItsStatements) {
    EXPECT_FALSE(source_range_of({}).has_value());
    const auto r = source_range_of({{"/a/k.c", 12, true},
                                    {"/usr/include/x.h", 3, true},
                                    {"/a/k.c", 14, true},
                                    {"/a/k.c", 2, false},  // not a statement: the function's brace
                                    {"/usr/include/x.h", 90, true}});
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->file, "/a/k.c");
    EXPECT_EQ(r->first_line, 12);
    EXPECT_EQ(r->last_line, 14);
    const auto no_statements = source_range_of({{"/a/k.c", 7, false}, {"/a/k.c", 5, false}});
    ASSERT_TRUE(no_statements.has_value());
    EXPECT_EQ(no_statements->first_line, 5);
}

TEST(SourceLines, TheRangeIsOfTheUnitsOwnFileWhenItHasLinesThere) {
    // An AVX-512 daxpy of intrinsics: two rows of the header for each of its own file's.
    const std::vector<SourceLine> rows = {{"/usr/lib/gcc/include/avx512fintrin.h", 13324, true},
                                          {"/usr/lib/gcc/include/avx512fintrin.h", 6318, true},
                                          {"/tmp/k.c", 13, true},
                                          {"/usr/lib/gcc/include/avx512fintrin.h", 6325, true}};
    EXPECT_EQ(source_range_of(rows)->file, "/usr/lib/gcc/include/avx512fintrin.h");  // no unit's file given
    const auto own = source_range_of(rows, "/tmp/k.c");
    ASSERT_TRUE(own.has_value());
    EXPECT_EQ(source_range_text(*own), "k.c:13");
    // The line table may name it with "./" in it; a unit file with no rows leaves the most named.
    EXPECT_EQ(source_range_of({{"/tmp/./k.c", 7, true}, {"/usr/x.h", 1, true}, {"/usr/x.h", 2, true}}, "/tmp/k.c")->file,
              "/tmp/./k.c");
    EXPECT_EQ(source_range_of(rows, "/tmp/other.c")->file, "/usr/lib/gcc/include/avx512fintrin.h");
}

TEST(FunctionLoops, LoopsAreNamedByTheirSourceLinesAtO2) {
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_O2);
    ASSERT_TRUE(p.source.has_lines());
    const int body = marked("matmul j") + 1;  // the multiplies' bodies are the same text
    EXPECT_EQ(names(p.loops("no_loop")), LoopNames{});
    EXPECT_EQ(names(p.loops("daxpy")), LoopNames{lines("daxpy", "y[i] += a * x[i];")});
    EXPECT_EQ(names(p.loops("sweep_reduce_copy")),
              (LoopNames{lines("sweep", "b[i] = 0.25"), lines("reduce", "s += b[i];"), lines("copy", "c[i] = 2.0")}));
    EXPECT_EQ(names(p.loops("matmul")),
              (LoopNames{lines("matmul i", body), lines("matmul k", body), lines("matmul j", body)}));
    const int blocked_body = marked("blocked j") + 1;
    EXPECT_EQ(names(p.loops("matmul_blocked")),
              (LoopNames{lines("blocked ii", blocked_body), lines("blocked kk", blocked_body),
                     lines("blocked i", blocked_body), lines("blocked k", blocked_body),
                     lines("blocked j", blocked_body)}));
    EXPECT_EQ(names(p.loops("call_in_loop")), LoopNames{lines("calling", "s = add_scaled(s, x[i]);")});
    // The break leaves the body: the loop is its test, and the store and break are outside.
    EXPECT_EQ(names(p.loops("first_above")), LoopNames{lines("searching", "if (x[i] > limit) {")});

    const auto daxpy = p.loops("daxpy");
    ASSERT_EQ(daxpy.loops.size(), 1u);
    EXPECT_EQ(daxpy.loops[0].header, daxpy.cfg.graph.blocks[daxpy.forest.loops[0].header].start);
    EXPECT_FALSE(daxpy.loops[0].instructions.empty());
    EXPECT_TRUE(daxpy.notes.empty());
}

TEST(FunctionLoops, AnIncompleteGraphIsNoted) {
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_O2);
    const auto threaded = p.loops("threaded");  // a computed goto
    ASSERT_FALSE(threaded.notes.empty());
    EXPECT_NE(threaded.notes[0].find("threaded: its control-flow graph is incomplete"), std::string::npos)
        << threaded.notes[0];
    EXPECT_NE(threaded.notes[0].find("indirect jump"), std::string::npos) << threaded.notes[0];
    EXPECT_TRUE(p.loops("dispatch").notes.empty());  // its switch's jump table is followed
}

TEST(FunctionLoops, EveryLoopHasAUniqueNameAtO3) {
    // The vectorizer's copies of a loop share its lines: their names tell them apart by address.
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_O3);
    for (const char* f : {"daxpy", "sweep_reduce_copy", "matmul", "matmul_blocked", "call_in_loop"}) {
        const auto found = p.loops(f);
        std::set<std::string> unique;
        for (const auto& l : found.loops) {
            EXPECT_TRUE(l.source.has_value()) << f;
            EXPECT_TRUE(unique.insert(l.name).second) << f << ": two loops named " << l.name;
            EXPECT_TRUE(std::regex_match(
                l.name, std::regex(R"(loop_shapes\.c:\d+(-\d+)?( \(entered at \d+ places\))?( @\+0x[0-9a-f]+)?)")))
                << l.name;
        }
    }
}

TEST(FunctionLoops, ACycleEnteredAtTwoPlacesIsALoopNamedSoAtO3) {
    // GCC 12 -O3 jams two of matmul's k iterations into its j loop; the k iterations left over
    // run in a second copy of the k loop, which control enters at its top and in its middle (its
    // scalar j tail): a cycle with two entries, no natural loop. It is a loop of its own (in the
    // i loop), named so, and said in a note, so its counts are not the i loop's own.
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_O3);
    const auto found = p.loops("matmul");
    std::size_t irreducible = 0;
    for (std::size_t i = 0; i < found.loops.size(); ++i) {
        const auto& shape = found.forest.loops[i];
        if (!shape.irreducible) continue;
        ++irreducible;
        const auto& name = found.loops[i].name;
        EXPECT_NE(name.find(fmt::format(" (entered at {} places)", shape.entries.size())), std::string::npos) << name;
        EXPECT_GE(shape.entries.size(), 2u);
        EXPECT_NE(shape.parent, kNoLoop) << "the cycle is inside the i loop";
        bool noted = false;
        for (const auto& n : found.notes) noted = noted || n.find("'" + name + "'") != std::string::npos;
        EXPECT_TRUE(noted) << name;
    }
    EXPECT_EQ(irreducible, found.forest.irreducible.size());
    EXPECT_GE(irreducible, 1u);
}

TEST(FunctionLoops, AnInnerLoopIsNamedByItsOwnLinesAtO3) {
    // GCC -O3 unrolls the multiplies' k loop by two and jams it into the j loop: the first
    // instruction of the vector j loop also carries empty location views of the k and i
    // lines; the loop is named by the lines its instructions are compiled from.
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_O3);
    for (const auto& [function, inner] : {std::pair{"matmul", "matmul j"}, std::pair{"matmul_blocked", "blocked j"}}) {
        const auto found = p.loops(function);
        std::size_t deepest = 0;
        for (const auto& l : found.forest.loops) deepest = std::max<std::size_t>(deepest, l.depth);
        for (std::size_t i = 0; i < found.loops.size(); ++i) {
            if (static_cast<std::size_t>(found.forest.loops[i].depth) != deepest) continue;
            ASSERT_TRUE(found.loops[i].source.has_value()) << function;
            EXPECT_EQ(found.loops[i].source->first_line, marked(inner)) << function << ": " << found.loops[i].name;
        }
    }
}

TEST(FunctionLoops, WithoutDebugInformationLoopsAreNamedByAddress) {
    const Program p(ROOFLINE_TEST_LOOP_SHAPES_NODEBUG);
    EXPECT_FALSE(p.source.has_lines());
    const auto matmul = p.loops("matmul");
    ASSERT_EQ(matmul.loops.size(), 3u);
    for (const auto& l : matmul.loops) {
        EXPECT_FALSE(l.source.has_value());
        EXPECT_TRUE(std::regex_match(l.name, std::regex(R"(matmul\+0x[0-9a-f]+)"))) << l.name;
    }
}
