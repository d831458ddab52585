// Byte counts as people write and read them.
#pragma once

#include <cstdint>
#include <string>

namespace roofline {

// "32 KiB", "1.5 MiB", "1 GiB".
std::string format_bytes(std::uint64_t bytes);
// Parses "16kB", "256KiB", "8MB", "1GiB", "4096" (k = 1024). Throws std::invalid_argument.
std::uint64_t parse_bytes(const std::string& text);

} // namespace roofline
