#include "render/text_wrap.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace roofline {
namespace {

std::size_t widest_line(const std::string& text) {
    std::istringstream in(text);
    std::size_t widest = 0;
    for (std::string line; std::getline(in, line);) {
        std::size_t n = 0;
        for (const unsigned char c : line) n += (c & 0xC0) != 0x80;
        widest = std::max(widest, n);
    }
    return widest;
}

TEST(TextWrap, ShortLinesAndNarrowWidthsAreLeftAlone) {
    EXPECT_EQ(wrap_lines("roofline: done\nsecond line\n", 40), "roofline: done\nsecond line\n");
    const std::string long_line(100, 'x');
    EXPECT_EQ(wrap_lines(long_line + " y", 10), long_line + " y");  // under 20: unchanged
    EXPECT_EQ(wrap_lines("", 40), "");
}

TEST(TextWrap, LongLinesBreakAtSpacesWithIndentedContinuations) {
    const std::string message =
        "roofline: warning: other processes kept 0.84 of this process's 2 CPUs busy while the roofs were measured: "
        "figures may be low";
    const auto wrapped = wrap_lines(message + "\n", 40);
    EXPECT_LE(widest_line(wrapped), 40u);
    EXPECT_EQ(wrapped.substr(0, 39), "roofline: warning: other processes kept");
    EXPECT_NE(wrapped.find("\n  0.84 of"), std::string::npos) << wrapped;
    EXPECT_EQ(wrapped.back(), '\n');
    // No word is lost or split: joined again, it reads as before.
    std::string joined;
    std::istringstream in(wrapped);
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find_first_not_of(' ');
        joined += (joined.empty() ? "" : " ") + line.substr(joined.empty() ? 0 : first);
    }
    EXPECT_EQ(joined, message);
}

TEST(TextWrap, AnIndentedLineKeepsItsIndentAndAWordTooWideStaysWhole) {
    const std::string path(50, 'p');
    const auto wrapped = wrap_lines("    - run it again with " + path + " and --repeat 5 to see the spread", 30);
    EXPECT_EQ(wrapped.substr(0, 28), "    - run it again with\n    ");
    EXPECT_NE(wrapped.find("\n      " + path + "\n"), std::string::npos) << wrapped;  // whole, on its own
    EXPECT_NE(wrapped.find("\n      and --repeat 5 to see"), std::string::npos) << wrapped;
}

TEST(TextWrap, WidthCountsCharactersNotBytesAndKeepsDoubleSpaces) {
    // 10 words of "±√x" (3 characters, 5 bytes): 39 characters, 59 bytes.
    std::string line;
    for (int i = 0; i < 10; ++i) line += (i ? " " : "") + std::string("±√x");
    EXPECT_EQ(wrap_lines(line, 40), line);
    EXPECT_EQ(wrap_lines("a  b", 40), "a  b");
}

TEST(TextWrap, NoWrappedLineEndsInSpaces) {
    auto ends_in_space = [](const std::string& text) {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line.back() == ' ') return true;
        return false;
    };
    // A one-character first word before a run of spaces: "a", not "a ".
    const auto wrapped = wrap_lines("a" + std::string(50, ' ') + "b", 40);
    EXPECT_EQ(wrapped, "a\n  b");
    // The same after an indent, and on a continuation line.
    EXPECT_EQ(wrap_lines("  a" + std::string(50, ' ') + "b", 40), "  a\n    b");
    const std::string words = "roofline: warning: the figures may be low because other processes ran";
    const auto cont = wrap_lines(words + std::string(45, ' ') + "x", 40);
    EXPECT_FALSE(ends_in_space(cont)) << cont;
    EXPECT_LE(widest_line(cont), 40u) << cont;
    // A wrapped message's own trailing spaces are dropped: its last line stays within the width.
    const auto tail = wrap_lines(words + std::string(60, ' ') + "\nnext", 40);
    EXPECT_FALSE(ends_in_space(tail)) << tail;
    EXPECT_LE(widest_line(tail), 40u) << tail;
    EXPECT_TRUE(tail.ends_with("processes ran\nnext")) << tail;
    // A line that fits is left as it is, its spaces too.
    EXPECT_EQ(wrap_lines("short line  ", 40), "short line  ");
}

} // namespace
} // namespace roofline
