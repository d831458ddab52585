#include "core/command_doc.hpp"

#include <cctype>

namespace roofline {

std::string command_summary(const std::string& description) {
    std::string text;
    for (char c : description) {
        const bool space = c == '\n' || c == '\t' || c == ' ';
        if (space && (text.empty() || text.back() == ' ')) continue;
        text += space ? ' ' : c;
    }
    if (text.rfind("roofline: ", 0) == 0) text.erase(0, 10);  // the top command's description names itself
    // A sentence ends at '.', '?' or '!' before a capital or the end: "e.g. 16kB" does not end one.
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '.' && text[i] != '?' && text[i] != '!') continue;
        const bool at_end = i + 1 >= text.size();
        const bool before_capital = !at_end && text[i + 1] == ' ' && i + 2 < text.size() &&
                                    std::isupper(static_cast<unsigned char>(text[i + 2]));
        if (at_end || before_capital) {
            text.resize(text[i] == '.' ? i : i + 1);
            break;
        }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

std::string command_summary(const CommandDoc& command) {
    return command.summary.empty() ? command_summary(command.description) : command_summary(command.summary);
}

} // namespace roofline
