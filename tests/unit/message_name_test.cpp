#include "core/message_name.hpp"

#include <gtest/gtest.h>

namespace roofline {

TEST(MessageName, LineBreaksBecomeVisibleEscapes) {
    EXPECT_EQ(message_name("a\nb.json"), "a\\nb.json");
    EXPECT_EQ(message_name("a\r\nb"), "a\\r\\nb");
}

TEST(MessageName, EverythingElseIsKeptForTheTerminalGuard) {
    EXPECT_EQ(message_name("plain/päth.json"), "plain/päth.json");
    EXPECT_EQ(message_name("tab\there \x1b[2J"), "tab\there \x1b[2J");  // terminal_block escapes these when printed
}

TEST(MessageName, IsIdempotent) {
    const std::string once = message_name("x\ny\r");
    EXPECT_EQ(message_name(once), once);
}

TEST(MessageExcerpt, ShortValuesAreQuotedWhole) {
    EXPECT_EQ(message_excerpt("quad"), "quad");
    EXPECT_EQ(message_excerpt("5\nx"), "5\\nx");
    EXPECT_EQ(message_excerpt(std::string(60, 'a')), std::string(60, 'a'));
}

// A CSV read as one YAML scalar was quoted whole in "expected a mapping, found '...'".
TEST(MessageExcerpt, LongValuesAreCutAtACharacterWithAnEllipsis) {
    EXPECT_EQ(message_excerpt(std::string(100000, 'a')), std::string(57, 'a') + "...");
    EXPECT_EQ(message_excerpt("abcdefghij", 8), "abcde...");
    // 'ä' is two bytes: a cut through it backs off to the character before.
    const std::string umlauts = std::string(56, 'a') + "\xc3\xa4" + std::string(10, 'b');
    EXPECT_EQ(message_excerpt(umlauts), std::string(56, 'a') + "...");
    // Line breaks are escaped before the cut, so an excerpt never holds one.
    EXPECT_EQ(message_excerpt(std::string(70, '\n')).find('\n'), std::string::npos);
}

} // namespace roofline
