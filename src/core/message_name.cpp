#include "core/message_name.hpp"

namespace roofline {

std::string message_name(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (const char c : name) {
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else out += c;
    }
    return out;
}

std::string message_excerpt(std::string_view text, std::size_t max_chars) {
    std::string out = message_name(text);
    if (out.size() <= max_chars) return out;
    std::size_t cut = max_chars > 3 ? max_chars - 3 : 0;
    // Not inside a UTF-8 sequence: back off over its continuation bytes (10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
    return out + "...";
}

} // namespace roofline
