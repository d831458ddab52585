// Escaping of text that comes from input files (names, labels) before it goes
// into markup: such text is data and must never become markup or script.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

// For XML/HTML text and attribute values: & < > " ' become entities; control
// characters (not allowed in XML 1.0) become spaces.
std::string xml_escape(std::string_view text);

// Serialized JSON made safe inside an HTML <script> element: every < > & is
// written as a \u escape (valid JSON, same value), so no "</script>" or
// "<!--" can appear in the page from data.
std::string json_for_script(std::string_view json);

} // namespace roofline
