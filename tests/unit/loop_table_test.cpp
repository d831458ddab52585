#include "render/loop_table.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace roofline;

namespace {

LoopRow row(std::string function, std::string name, int depth, double self, double inclusive, double calls = 0) {
    LoopRow r;
    r.function = std::move(function);
    r.name = std::move(name);
    r.depth = depth;
    r.self_flops = self;
    r.inclusive_flops = inclusive;
    r.call_flops = calls;
    r.self_bytes = 8 * self;
    r.iterations = 10;
    r.entries = 1;
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

} // namespace

TEST(LoopTable, NestedLoopsAreIndentedUnderTheirFunction) {
    const auto text = render_loop_table("title", {row("matmul", "m.c:1-5", 1, 0, 2000), row("matmul", "m.c:2-5", 2, 0, 2000),
                                                  row("matmul", "m.c:4-5", 3, 2000, 2000), row("daxpy", "d.c:9", 1, 50, 50)});
    const auto lines = lines_of(text);
    ASSERT_EQ(lines.size(), 8u) << text;
    EXPECT_EQ(lines[0], "title");
    EXPECT_EQ(lines[1].find("loop"), 0u);
    EXPECT_EQ(lines[1].find("call FLOPs"), std::string::npos) << "no loop calls anything: no column for it";
    EXPECT_EQ(lines[2], "in matmul:");
    EXPECT_EQ(lines[3].rfind("m.c:1-5 ", 0), 0u) << lines[3];
    EXPECT_EQ(lines[4].rfind("  m.c:2-5 ", 0), 0u) << lines[4];
    EXPECT_EQ(lines[5].rfind("    m.c:4-5 ", 0), 0u) << lines[5];
    EXPECT_EQ(lines[6], "in daxpy:");
    EXPECT_EQ(lines[7].rfind("d.c:9 ", 0), 0u) << lines[7];
}

TEST(LoopTable, ALoopsCallsHaveAColumnWhereAnyLoopCalls) {
    const auto text = render_loop_table("t", {row("call_in_loop", "c.c:7", 1, 0, 2000, 2000), row("daxpy", "d.c:9", 1, 50, 50)});
    const auto lines = lines_of(text);
    ASSERT_EQ(lines.size(), 6u) << text;
    EXPECT_NE(lines[1].find("call FLOPs"), std::string::npos) << lines[1];
    EXPECT_NE(lines[3].find("2.00k"), std::string::npos) << lines[3];
    // daxpy calls nothing: a dash in the column
    EXPECT_NE(lines[5].find(" - "), std::string::npos) << lines[5];
}
