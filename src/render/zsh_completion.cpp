#include "render/shell_completion.hpp"

#include <fmt/format.h>

namespace roofline {

namespace {

std::string function_name(const CommandDoc& command) {
    std::string name = "_" + command.path.front();
    for (std::size_t i = 1; i < command.path.size(); ++i) name += "__" + command.path[i];
    for (char& c : name)
        if (c == '-') c = '_';
    return name;
}

// Text inside _arguments' [description]: one line, a ']' escaped.
std::string bracketed(const std::string& text) {
    std::string out;
    for (char c : command_summary(text)) {
        if (c == ']' || c == '[' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// A message or a name in _arguments and _describe: ':' separates fields.
std::string field(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == ':' || c == '\\') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string action(const OptionDoc& option) {
    switch (option.kind) {
    case ValueKind::choice: {
        std::string words;
        for (const auto& choice : option.choices) {
            if (!words.empty()) words += ' ';
            for (char c : choice) {
                if (c == ' ' || c == '(' || c == ')' || c == '\\' || c == '\'' || c == '"') words += '\\';
                words += c;
            }
        }
        return "(" + words + ")";
    }
    case ValueKind::file:
    case ValueKind::text: return "_files";
    case ValueKind::directory: return "_files -/";
    case ValueKind::number:
    case ValueKind::none: return " ";  // nothing to offer: the message alone
    }
    return " ";
}

// The _arguments specs of one option (one per name: a short name takes its value
// in the next word or glued, a long one after '=' or in the next word).
std::vector<std::string> option_specs(const OptionDoc& option) {
    std::vector<std::string> names;
    for (const auto& name : option.short_names) names.push_back("-" + name);
    for (const auto& name : option.long_names) names.push_back("--" + name);
    std::string exclusion;
    if (option.repeatable)
        exclusion = "*";
    else if (names.size() > 1)
        exclusion = fmt::format("({})", fmt::join(names, " "));
    const std::string description = "[" + bracketed(option.description) + "]";
    std::string value;
    if (option.kind != ValueKind::none)
        value = (option.optional_value ? "::" : ":") + field(option.value_name.empty() ? "value" : option.value_name) +
                ":" + action(option);
    std::vector<std::string> specs;
    for (const auto& name : names) {
        const bool is_long = name.rfind("--", 0) == 0;
        std::string glue;
        if (option.kind != ValueKind::none)
            glue = option.optional_value ? (is_long ? "=-" : "-") : (is_long ? "=" : "+");
        specs.push_back(shell_quote(exclusion + name + glue + description + value));
    }
    return specs;
}

std::string positional_spec(const OptionDoc& option) {
    const std::string prefix = option.repeatable ? "*:" : option.required ? ":" : "::";
    return shell_quote(prefix + field(option.positional_name) + ":" + action(option));
}

void append_function(std::string& out, const CommandDoc& command) {
    for (const auto& sub : command.subcommands) append_function(out, sub);
    std::vector<std::string> specs;
    for (const auto& option : command.options) {
        if (!option.positional_name.empty()) continue;
        for (auto& spec : option_specs(option)) specs.push_back(std::move(spec));
    }
    if (command.subcommands.empty()) {
        for (const auto& option : command.options)
            if (!option.positional_name.empty()) specs.push_back(positional_spec(option));
        out += fmt::format("{}() {{\n    _arguments -s -S \\\n        {}\n}}\n\n", function_name(command),
                           fmt::join(specs, " \\\n        "));
        return;
    }
    specs.push_back("': :->command'");
    specs.push_back("'*:: :->argument'");
    std::vector<std::string> entries, cases;
    for (const auto& sub : command.subcommands) {
        entries.push_back(shell_quote(field(sub.path.back()) + ":" + command_summary(sub)));
        cases.push_back(fmt::format("                {}) {} ;;", sub.path.back(), function_name(sub)));
    }
    const std::string context = fmt::format("{}", fmt::join(command.path, "-"));
    out += fmt::format(
        "{0}() {{\n"
        "    local curcontext=$curcontext state state_descr line ret=1\n"
        "    typeset -A opt_args\n"
        "    _arguments -C -s -S \\\n        {1} && return 0\n"
        "    case $state in\n"
        "        command)\n"
        "            local -a commands\n"
        "            commands=(\n                {2}\n            )\n"
        "            _describe -t commands {3} commands && ret=0 ;;\n"
        "        argument)\n"
        "            curcontext=${{curcontext%:*:*}}:{4}-$words[1]:\n"
        "            case $words[1] in\n{5}\n            esac && ret=0 ;;\n"
        "    esac\n"
        "    return ret\n"
        "}}\n\n",
        function_name(command), fmt::join(specs, " \\\n        "), fmt::join(entries, "\n                "),
        shell_quote(context + " command"), context, fmt::join(cases, "\n"));
}

} // namespace

std::string zsh_completion(const CommandDoc& root) {
    std::string out = fmt::format(
        "#compdef {0}\n"
        "# zsh completion for {0}: install as _{0} in a directory of $fpath.\n"
        "# Generated by '{0} generate-docs' from the command-line definition: edit the commands, not this file.\n\n",
        root.path.front());
    append_function(out, root);
    out += function_name(root) + " \"$@\"\n";
    return out;
}

} // namespace roofline
