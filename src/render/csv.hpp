// CSV as every table command writes it (RFC 4180 quoting, LF line ends).
#pragma once

#include <string>
#include <vector>

namespace roofline {

// A field with a comma, quote, CR or LF is quoted, quotes doubled.
std::string csv_field(const std::string& text);

// Fields joined by commas, ending in LF.
std::string csv_row(const std::vector<std::string>& fields);

} // namespace roofline
