#include "render/text_escape.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace roofline {
namespace {

// Length of the UTF-8 sequence at `i` and its code point; 0 when not valid UTF-8
// (overlong forms, surrogates and truncated sequences included).
std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t& code) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        code = lead;
        return 1;
    }
    if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1F, min = 0x80;
    else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0F, min = 0x800;
    else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07, min = 0x10000;
    else return 0;
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    return length;
}

bool is_hidden_control(char32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029;
}

std::string escape(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t code = 0;
        const std::size_t length = decode_utf8(text, i, code);
        if (length == 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        if (code == '\n' && keep_newlines) out += '\n';
        else if (code == '\n') out += "\\n";
        else if (code == '\t') out += "\\t";
        else if (code == '\r') out += "\\r";
        else if (code < 0x20 || code == 0x7F) out += fmt::format("\\x{:02x}", static_cast<unsigned>(code));
        else if ((code >= 0x80 && code < 0xA0) || is_hidden_control(code))
            out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(code));
        else out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

// -1.5, +3, 2e9, .5: a cell a spreadsheet reads as a number, not a formula.
bool is_plain_number(std::string_view text) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        return i - start;
    };
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    std::size_t mantissa = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == text.size();
}

} // namespace

std::string terminal_text(std::string_view text) { return escape(text, false); }

std::string terminal_block(std::string_view text) { return escape(text, true); }

std::string markdown_text(std::string_view text) {
    std::string out;
    for (char ch : terminal_text(text)) {
        if (std::string_view("\\`*_[]<>|").find(ch) != std::string_view::npos) out += '\\';
        out += ch;
    }
    return out;
}

std::string csv_text(std::string_view text) {
    // Checked before escaping: a leading tab or CR is a trigger too.
    const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos &&
                         !is_plain_number(text);
    return (formula ? "'" : "") + terminal_block(text);  // LF stays: csv_field quotes it
}

std::string ascii_printable(std::string_view text) {
    std::string out;
    for (char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte >= 0x20 && byte < 0x7f) out += ch;
        else if ((byte & 0xC0) != 0x80) out += '?';  // one '?' per character, not per byte
    }
    return out;
}

} // namespace roofline
