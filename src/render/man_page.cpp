#include "render/man_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace roofline {

namespace {

// The code point of the UTF-8 sequence at text[i] (advancing i past it); U+FFFD
// for a malformed one, so a stray byte never reaches groff as Latin-1.
std::uint32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (length == 1 || i + length > text.size()) {
        ++i;
        return 0xFFFD;
    }
    std::uint32_t code = lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            ++i;
            return 0xFFFD;
        }
        code = (code << 6) | (byte(i + k) & 0x3F);
    }
    i += length;
    return code;
}

std::string bold(std::string_view text) { return fmt::format("\\fB{}\\fR", roff_escape(text)); }
std::string italic(std::string_view text) { return fmt::format("\\fI{}\\fR", roff_escape(text)); }

std::string page_name(const CommandDoc& command) { return fmt::format("{}", fmt::join(command.path, "-")); }
std::string command_line(const CommandDoc& command) { return fmt::format("{}", fmt::join(command.path, " ")); }

std::string trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return {};
    const auto end = text.find_last_not_of(" \t");
    return std::string(text.substr(begin, end - begin + 1));
}

// A prose line for filling: also lets groff break after a comma inside a long
// word (a list of metric names), where it would otherwise warn that it cannot.
std::string prose_line(std::string_view line) {
    const std::string escaped = roff_escape(trimmed(line));
    std::string out;
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        out += escaped[i];
        if (escaped[i] == ',' && i + 1 < escaped.size() && escaped[i + 1] != ' ') out += "\\:";
    }
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    while (!lines.empty() && trimmed(lines.back()).empty()) lines.pop_back();
    return lines;
}

// Help text as its author laid it out for a terminal: unindented lines are prose
// (filled by groff), indented lines a block kept as it is (examples, aligned
// columns, a file's lines), an empty line a new paragraph.
void append_text(std::string& out, const std::string& text) {
    const auto lines = lines_of(text);
    std::size_t i = 0;
    bool paragraph_open = false;
    while (i < lines.size()) {
        const std::string& line = lines[i];
        if (trimmed(line).empty()) {
            if (paragraph_open) out += ".PP\n";
            paragraph_open = false;
            ++i;
            continue;
        }
        paragraph_open = true;
        if (line[0] != ' ' && line[0] != '\t') {
            out += prose_line(line) + "\n";
            ++i;
            continue;
        }
        std::size_t end = i;
        std::size_t indent = std::string::npos;
        while (end < lines.size() && !trimmed(lines[end]).empty() && (lines[end][0] == ' ' || lines[end][0] == '\t')) {
            indent = std::min(indent, lines[end].find_first_not_of(" \t"));
            ++end;
        }
        out += ".RS 2\n.nf\n";
        for (; i < end; ++i) out += roff_escape(lines[i].substr(indent)) + "\n";
        out += ".fi\n.RE\n";
    }
}

// One line of help text joined into one paragraph (options' descriptions are
// single sentences, but a few are wrapped by hand).
std::string joined(const std::string& text) {
    std::string out;
    for (const auto& line : lines_of(text)) {
        const auto t = trimmed(line);
        if (t.empty()) continue;
        if (!out.empty()) out += ' ';
        out += t;
    }
    return out;
}

std::string option_tag(const OptionDoc& option) {
    std::vector<std::string> names;
    if (!option.positional_name.empty()) names.push_back(italic(option.positional_name));
    for (const auto& name : option.short_names) names.push_back(bold("-" + name));
    for (const auto& name : option.long_names) names.push_back(bold("--" + name));
    std::string tag = fmt::format("{}", fmt::join(names, ", "));
    if (option.positional_name.empty() && !option.value_name.empty()) {
        const bool bracketed = option.value_name.front() == '[';
        tag += ' ';
        tag += option.optional_value && !bracketed ? "[" + italic(option.value_name) + "]" : italic(option.value_name);
    }
    if (option.repeatable) tag += " ...";
    return tag;
}

void append_option(std::string& out, const OptionDoc& option) {
    out += ".TP\n" + option_tag(option) + "\n";
    const std::string description = joined(option.description);
    if (!description.empty()) out += prose_line(description) + "\n";
    std::vector<std::string> notes;
    if (!option.choices.empty()) {
        std::vector<std::string> choices;
        for (const auto& choice : option.choices) choices.push_back(bold(choice));
        notes.push_back(fmt::format("One of: {}.", fmt::join(choices, ", ")));
    }
    for (const auto& constraint : option.constraints) notes.push_back("Value: " + roff_escape(constraint) + ".");
    if (!option.default_value.empty()) notes.push_back("Default: " + bold(option.default_value) + ".");
    if (option.required) notes.push_back("Required.");
    for (const auto& note : notes) out += ".br\n" + note + "\n";
}

void append_section(std::string& out, std::string_view title) { out += fmt::format(".SH {}\n", title); }

std::string synopsis(const CommandDoc& command) {
    std::string line = bold(command_line(command));
    bool any_option = false;
    for (const auto& option : command.options) any_option = any_option || option.positional_name.empty();
    if (any_option) line += " [" + italic("OPTIONS") + "]";
    if (!command.subcommands.empty()) line += " " + italic("COMMAND") + " [" + italic("ARGS") + "]";
    for (const auto& option : command.options) {
        if (option.positional_name.empty()) continue;
        std::string argument = italic(option.positional_name) + (option.repeatable ? " ..." : "");
        line += " " + (option.required ? argument : "[" + argument + "]");
    }
    return line;
}

void append_options(std::string& out, const CommandDoc& command) {
    std::vector<std::string> groups;
    for (const auto& option : command.options)
        if (option.positional_name.empty() && std::find(groups.begin(), groups.end(), option.group) == groups.end())
            groups.push_back(option.group);
    if (groups.empty()) return;
    append_section(out, "OPTIONS");
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (g > 0 || (groups[g] != "Options" && groups[g] != "OPTIONS"))
            out += ".SS " + roff_escape(groups[g]) + "\n";  // --help's own sections, when a command names some
        for (const auto& option : command.options)
            if (option.positional_name.empty() && option.group == groups[g]) append_option(out, option);
    }
}

void append_see_also(std::string& out, const CommandDoc& command, const CommandDoc* parent) {
    std::vector<std::string> refs;
    if (command.path.size() > 1) refs.push_back(bold(command.path.front()) + "(1)");
    if (parent && parent->path.size() > 1) refs.push_back(bold(page_name(*parent)) + "(1)");
    for (const auto& sub : command.subcommands) refs.push_back(bold(page_name(sub)) + "(1)");
    if (refs.empty()) return;
    append_section(out, "SEE ALSO");
    out += fmt::format("{}\n", fmt::join(refs, ",\n"));
}

ManPage page_for(const CommandDoc& command, const CommandDoc* parent, const ManualDoc& manual) {
    std::string out;
    const std::string name = page_name(command);
    std::string title;
    for (char c : name) title += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    const auto quoted = [](std::string_view text) {
        std::string escaped = roff_escape(text);
        std::string out;
        for (std::size_t i = 0; i < escaped.size(); ++i) {
            if (escaped.compare(i, 2, "\\-") == 0) continue;  // a plain hyphen in the header: 2024-01-02, not a minus
            out += escaped[i] == '"' ? std::string("\\(dq") : std::string(1, escaped[i]);
        }
        return "\"" + out + "\"";
    };
    out += ".\\\" Generated by 'roofline generate-docs' from the command-line definition: edit the commands, not this page.\n";
    out += fmt::format(".TH {} 1 {} {} {}\n", quoted(title), quoted(manual.date),
                       quoted(command.path.front() + " " + manual.version), quoted("User Commands"));
    out += ".ad l\n.nh\n";  // ragged right, no hyphens: option names and long metric lists stay whole
    append_section(out, "NAME");
    out += roff_escape(name) + " \\- " + roff_escape(command_summary(command)) + "\n";
    append_section(out, "SYNOPSIS");
    out += synopsis(command) + "\n";
    if (!trimmed(command.description).empty()) {
        append_section(out, "DESCRIPTION");
        append_text(out, command.description);
    }
    if (!command.subcommands.empty()) {
        append_section(out, "COMMANDS");
        for (const auto& sub : command.subcommands) {
            out += ".TP\n" + bold(sub.path.back()) + "\n";
            out += prose_line(command_summary(sub)) + "; see " + bold(page_name(sub)) + "(1).\n";
        }
    }
    bool any_positional = false;
    for (const auto& option : command.options) any_positional = any_positional || !option.positional_name.empty();
    if (any_positional) {
        append_section(out, "ARGUMENTS");
        for (const auto& option : command.options)
            if (!option.positional_name.empty()) append_option(out, option);
    }
    append_options(out, command);
    if (auto footer = lines_of(command.footer); !footer.empty()) {
        // The top page's "Exit status:" paragraph is its EXIT STATUS section, made from the same list.
        if (!parent && !manual.exit_status.empty())
            for (std::size_t i = 0; i < footer.size(); ++i)
                if (footer[i].rfind("Exit status", 0) == 0) {
                    footer.resize(i);
                    break;
                }
        const bool examples = !footer.empty() && trimmed(footer.front()) == "Examples:";
        // Examples are the indented lines under "Examples:"; prose after them is a note.
        std::size_t notes_from = examples ? footer.size() : 0;
        for (std::size_t i = 1; examples && i < footer.size(); ++i)
            if (!footer[i].empty() && footer[i][0] != ' ' && footer[i][0] != '\t') {
                notes_from = i;
                break;
            }
        const auto section = [&](const char* name, std::size_t from, std::size_t to) {
            std::string body;
            for (std::size_t i = from; i < to; ++i) body += footer[i] + "\n";
            if (trimmed(body).empty()) return;
            append_section(out, name);
            append_text(out, body);
        };
        if (examples) section("EXAMPLES", 1, notes_from);
        section("NOTES", notes_from, footer.size());
    }
    if (!parent) {
        if (!manual.exit_status.empty()) {
            append_section(out, "EXIT STATUS");
            for (const auto& status : manual.exit_status)
                out += fmt::format(".TP\n{}\n{}\n", bold(std::to_string(status.code)), prose_line(status.meaning));
        }
    }
    const auto& environment = parent ? command.environment : manual.environment;
    if (!environment.empty()) {
        append_section(out, "ENVIRONMENT");
        for (const auto& variable : environment)
            out += fmt::format(".TP\n{}\n{}\n", bold(variable.name), prose_line(variable.meaning));
    }
    if (!parent && !manual.files.empty()) {
        append_section(out, "FILES");
        out += "Configuration files, lowest precedence first:\n";
        for (const auto& file : manual.files) out += ".TP\n" + italic(file) + "\n";
    }
    append_see_also(out, command, parent);
    return {name + ".1", out};
}

void collect(std::vector<ManPage>& pages, const CommandDoc& command, const CommandDoc* parent,
             const ManualDoc& manual) {
    pages.push_back(page_for(command, parent, manual));
    for (const auto& sub : command.subcommands) collect(pages, sub, &command, manual);
}

} // namespace

std::string roff_escape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            out += fmt::format("\\[u{:04X}]", next_code_point(text, i));
            continue;
        }
        ++i;
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else if (c == '\t' || c == '\r' || c == '\n')
            out += ' ';
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            continue;  // a control character has no place on a page
        else
            out += c;
    }
    if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
    return out;
}

std::vector<ManPage> man_pages(const CommandDoc& root, const ManualDoc& manual) {
    std::vector<ManPage> pages;
    collect(pages, root, nullptr, manual);
    return pages;
}

} // namespace roofline
