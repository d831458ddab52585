// A name from outside (a path, a file name, a command) quoted in a message that may
// span several lines: its own line breaks become the two characters \n (\r as \r),
// so the message keeps the lines it was written with and a file named "a\nb.json"
// cannot forge a line of output. The other control characters, bidi overrides and
// bytes that are not UTF-8 are terminal_block's job when the message is printed.
// Idempotent: a name already made so has no line breaks left.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace roofline {

std::string message_name(std::string_view name);

// A value from a file quoted in a message, as message_name makes it, cut to `max_chars`
// bytes with "..." (at a character boundary) when longer: a CSV or log file read as one
// YAML scalar is named by its start ("found 'name,flops,bytes k0,0,0 k1,2,8 ...'"), not
// echoed whole into a message of hundreds of kilobytes.
std::string message_excerpt(std::string_view text, std::size_t max_chars = 60);

} // namespace roofline
