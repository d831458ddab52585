#include "render/markup_escape.hpp"

namespace roofline {

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
                out += ' ';
            } else {
                out += ch;
            }
        }
    }
    return out;
}

std::string json_for_script(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    // Outside strings JSON has no < > &, so replacing them everywhere only
    // touches string contents, where \u escapes mean the same characters.
    for (char ch : json) {
        switch (ch) {
        case '<': out += "\\u003c"; break;
        case '>': out += "\\u003e"; break;
        case '&': out += "\\u0026"; break;
        default: out += ch;
        }
    }
    return out;
}

} // namespace roofline
