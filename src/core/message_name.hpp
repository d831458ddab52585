// A name from outside (a path, a file name, a command) quoted in a message that may
// span several lines: its own line breaks become the two characters \n (\r as \r),
// so the message keeps the lines it was written with and a file named "a\nb.json"
// cannot forge a line of output. The other control characters, bidi overrides and
// bytes that are not UTF-8 are terminal_block's job when the message is printed.
// Idempotent: a name already made so has no line breaks left.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

std::string message_name(std::string_view name);

} // namespace roofline
