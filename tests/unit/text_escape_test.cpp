// The escaping functions every renderer uses for names from outside (issue 10).
#include "render/csv.hpp"
#include "render/text_escape.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {
const std::string rlo = "\xE2\x80\xAE";  // U+202E RIGHT-TO-LEFT OVERRIDE
bool has_raw_control(const std::string& s) {
    for (unsigned char ch : s)
        if (ch < 0x20 || ch == 0x7f) return true;
    return false;
}
} // namespace

TEST(TerminalText, ControlCharactersBecomeVisibleEscapes) {
    EXPECT_EQ(terminal_text("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
    EXPECT_EQ(terminal_text("clear\x1b[2J\x1b[H"), "clear\\x1b[2J\\x1b[H");
    EXPECT_EQ(terminal_text("cr\rlf\ntab\tdel\x7f"), "cr\\rlf\\ntab\\tdel\\x7f");
    EXPECT_EQ(terminal_text(std::string("nul\0x", 5)), "nul\\x00x");
}

TEST(TerminalText, BidiOverridesAndC1ControlsAreEscaped) {
    EXPECT_EQ(terminal_text("evil" + rlo + "txt.exe"), "evil\\u202etxt.exe");
    EXPECT_EQ(terminal_text("\xE2\x81\xA6isolate\xE2\x81\xA9"), "\\u2066isolate\\u2069");
    EXPECT_EQ(terminal_text("\xC2\x9B" "31m"), "\\u009b31m");  // C1 CSI
    EXPECT_EQ(terminal_text("line\xE2\x80\xA8sep"), "line\\u2028sep");
}

TEST(TerminalText, KeepsOrdinaryTextAndUnicodeLetters) {
    EXPECT_EQ(terminal_text("dgemm 256x256, blocked"), "dgemm 256x256, blocked");
    EXPECT_EQ(terminal_text("µs Ünïcödé 日本"), "µs Ünïcödé 日本");
}

TEST(TerminalText, InvalidUtf8BytesBecomeHex) {
    EXPECT_EQ(terminal_text("a\xff\xfe" "b"), "a\\xff\\xfeb");
    EXPECT_EQ(terminal_text("\xC0\xAF"), "\\xc0\\xaf");      // overlong '/'
    EXPECT_EQ(terminal_text("\xED\xA0\x80"), "\\xed\\xa0\\x80");  // a surrogate
    EXPECT_EQ(terminal_text("cut\xE2\x80"), "cut\\xe2\\x80");  // truncated sequence
}

TEST(TerminalBlock, KeepsNewlinesOnly) {
    EXPECT_EQ(terminal_block("one\ntwo\x1b[2J\r\n"), "one\ntwo\\x1b[2J\\r\n");
}

TEST(MarkdownText, OneRowStaysOneRow) {
    const auto cell = markdown_text("a|b\nc`d`\x1b[31m*e*" + rlo);
    EXPECT_EQ(cell, "a\\|b\\\\nc\\`d\\`\\\\x1b\\[31m\\*e\\*\\\\u202e");
    EXPECT_EQ(cell.find('\n'), std::string::npos);
    EXPECT_FALSE(has_raw_control(cell));
}

TEST(CsvText, FormulasAreNeutralizedNumbersAreNot) {
    EXPECT_EQ(csv_text("=1+2"), "'=1+2");
    EXPECT_EQ(csv_text("+cmd"), "'+cmd");
    EXPECT_EQ(csv_text("-2+3"), "'-2+3");
    EXPECT_EQ(csv_text("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csv_text("\tcalc"), "'\\tcalc");
    EXPECT_EQ(csv_text("\r=cmd"), "'\\r=cmd");
    EXPECT_EQ(csv_text("-1.5"), "-1.5");
    EXPECT_EQ(csv_text("+3e-2"), "+3e-2");
    EXPECT_EQ(csv_text("-.5"), "-.5");
    EXPECT_EQ(csv_text("-"), "'-");
    EXPECT_EQ(csv_text("-e5"), "'-e5");
    EXPECT_EQ(csv_text("safe = text"), "safe = text");
}

TEST(CsvField, QuotesAfterNeutralizing) {
    EXPECT_EQ(csv_field("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    EXPECT_EQ(csv_field("a\x1b[2Jb"), "a\\x1b[2Jb");
    EXPECT_EQ(csv_field("line\nbreak"), "\"line\nbreak\"");  // LF kept, quoted
    EXPECT_EQ(csv_field("-0.25"), "-0.25");
}

TEST(AsciiPrintable, OneColumnPerCharacter) {
    EXPECT_EQ(ascii_printable("a\x1b[2Jb"), "a?[2Jb");
    EXPECT_EQ(ascii_printable("µs" + rlo), "?s?");
}
