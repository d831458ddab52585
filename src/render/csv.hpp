// CSV as every table command writes it (RFC 4180 quoting, LF line ends).
#pragma once

#include <string>
#include <vector>

namespace roofline {

// A field made safe by csv_text (control characters escaped, a text cell
// starting with = + - @ prefixed with '), then quoted, quotes doubled, when it
// has a comma or a quote.
std::string csv_field(const std::string& text);

// Fields joined by commas, ending in LF.
std::string csv_row(const std::vector<std::string>& fields);

} // namespace roofline
