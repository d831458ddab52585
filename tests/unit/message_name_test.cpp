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

} // namespace roofline
