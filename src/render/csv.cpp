#include "render/csv.hpp"

#include "render/text_escape.hpp"

namespace roofline {

std::string csv_field(const std::string& text) {
    // Control characters escaped and formulas neutralized first (csv_text): a
    // name must neither reach a terminal raw nor run in a spreadsheet.
    const std::string safe = csv_text(text);
    if (safe.find_first_of(",\"\r\n") == std::string::npos) return safe;
    std::string out = "\"";
    for (char ch : safe) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) line += ',';
        line += csv_field(fields[i]);
    }
    return line + "\n";  // LF, not RFC 4180's CRLF: friendlier to Unix tools; every CSV reader takes both
}

} // namespace roofline
