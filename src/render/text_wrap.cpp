#include "render/text_wrap.hpp"

namespace roofline {
namespace {

// Characters, not bytes: UTF-8 continuation bytes (10xxxxxx) do not start one.
std::size_t characters(std::string_view s) {
    std::size_t n = 0;
    for (const unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

void wrap_line(std::string_view line, std::size_t width, std::string& out) {
    if (characters(line) <= width) {
        out += line;
        return;
    }
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos) {  // spaces only
        out += line;
        return;
    }
    const std::string continuation(indent + 2 < width / 2 ? indent + 2 : 2, ' ');
    std::string current(line.substr(0, indent));
    std::size_t used = indent;
    std::size_t own_indent = indent;  // the current line's: trailing spaces are trimmed down to it, not past
    // No line ends in spaces (the spaces before a break, or a line's own trailing ones, which could
    // take its last line past the width).
    auto trim = [&] {
        while (current.size() > own_indent && current.back() == ' ') current.pop_back();
    };
    bool nothing_yet = true;  // no word on the line after its indentation
    // Words are what lies between single spaces: an empty one is a second space, kept.
    std::size_t at = indent;
    while (at <= line.size()) {
        const std::size_t end = std::min(line.find(' ', at), line.size());
        const std::string_view word = line.substr(at, end - at);
        const std::size_t w = characters(word);
        if (!nothing_yet && !word.empty() && used + 1 + w > width) {
            trim();
            out += current + "\n";
            current = continuation;
            own_indent = continuation.size();
            used = continuation.size();
            nothing_yet = true;
        }
        if (!nothing_yet) current += ' ', ++used;
        current += word;
        used += w;
        if (!word.empty()) nothing_yet = false;
        at = end + 1;
    }
    trim();
    out += current;
}

} // namespace

std::string wrap_lines(std::string_view text, std::size_t width) {
    if (width < 20) return std::string(text);
    std::string out;
    out.reserve(text.size() + text.size() / width * 4);
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        wrap_line(text.substr(at, end - at), width, out);
        if (end == text.size()) break;
        out += '\n';
        at = end + 1;
    }
    return out;
}

} // namespace roofline
