#include "cli/command_docs.hpp"
#include "cli/command_summary.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace roofline::cli {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// IsMember's description is its set, "{dp,sp}" (a Transformer's "{a->1,b->2}":
// the keys are what is typed).
bool choices_of(const std::string& description, std::vector<std::string>& choices) {
    if (description.size() < 2 || description.front() != '{' || description.back() != '}') return false;
    std::string item;
    const auto flush = [&] {
        if (const auto arrow = item.find("->"); arrow != std::string::npos) item.resize(arrow);
        if (!item.empty()) choices.push_back(item);
        item.clear();
    };
    for (std::size_t i = 1; i + 1 < description.size(); ++i) {
        if (description[i] == ',')
            flush();
        else
            item += description[i];
    }
    flush();
    return !choices.empty();
}

// Value names the commands give numbers (type_name), beside CLI11's own.
bool is_number_name(const std::string& name) {
    static constexpr std::array<std::string_view, 10> names = {"INT", "UINT", "FLOAT", "NUMBER", "N",
                                                               "[N]", "PERCENT", "SECONDS", "US", "MS"};
    return std::find(names.begin(), names.end(), name) != names.end();
}

OptionDoc describe_option(CLI::Option& option) {
    OptionDoc doc;
    doc.short_names = option.get_snames();
    doc.long_names = option.get_lnames();
    if (!option.nonpositional()) doc.positional_name = option.get_name(true, false);
    doc.description = option.get_description();
    doc.default_value = option.get_default_str();
    doc.required = option.get_required();
    doc.group = option.get_group();
    doc.repeatable = option.get_items_expected_max() > 1;
    if (option.get_type_size() == 0 || option.get_expected_max() == 0) return doc;  // a switch (a flag: no value)

    // get_type_name() is the value name followed by ":" and each check's description.
    std::string value_name = option.get_type_name();
    std::vector<std::string> checks;
    for (int i = 0;; ++i) {
        const CLI::Validator* check = nullptr;
        try {
            check = option.get_validator(i);  // CLI11 has no count of an option's checks: it throws past the last
        } catch (const CLI::OptionNotFound&) {
            break;
        }
        if (const auto description = check->get_description(); !description.empty()) checks.push_back(description);
    }
    for (auto it = checks.rbegin(); it != checks.rend(); ++it) {
        const std::string suffix = ":" + *it;
        if (value_name.size() >= suffix.size() && value_name.compare(value_name.size() - suffix.size(), suffix.size(), suffix) == 0)
            value_name.resize(value_name.size() - suffix.size());
    }
    doc.value_name = value_name;
    doc.optional_value = option.get_expected_min() == 0;
    doc.kind = is_number_name(value_name) ? ValueKind::number : ValueKind::text;
    if (value_name.find("FILE") != std::string::npos) doc.kind = ValueKind::file;
    if (value_name.find("DIR") != std::string::npos) doc.kind = ValueKind::directory;
    for (const auto& check : checks) {
        if (choices_of(check, doc.choices)) {
            doc.kind = ValueKind::choice;
            continue;
        }
        doc.constraints.push_back(check);
        if (starts_with(check, "FILE")) doc.kind = ValueKind::file;
        if (starts_with(check, "DIR")) doc.kind = ValueKind::directory;
        if (starts_with(check, "INT") || starts_with(check, "UINT") || starts_with(check, "FLOAT") ||
            starts_with(check, "NUMBER"))
            doc.kind = ValueKind::number;
    }
    return doc;
}

CommandDoc describe(CLI::App& app, std::vector<std::string> path) {
    CommandDoc doc;
    doc.path = std::move(path);
    doc.description = app.get_description();
    doc.summary = command_one_line(app);
    doc.footer = app.get_footer();
    // --help lists the named options first, then the positional arguments.
    for (CLI::Option* option : app.get_options([](CLI::Option* o) { return !o->get_group().empty(); }))
        if (option->nonpositional()) doc.options.push_back(describe_option(*option));
    for (CLI::Option* option : app.get_options([](CLI::Option* o) { return !o->get_group().empty(); }))
        if (!option->nonpositional()) doc.options.push_back(describe_option(*option));
    for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_group().empty() && !s->get_name().empty(); })) {
        auto sub_path = doc.path;
        sub_path.push_back(sub->get_name());
        doc.subcommands.push_back(describe(*sub, std::move(sub_path)));
    }
    return doc;
}

} // namespace

CommandDoc describe_command(CLI::App& app) { return describe(app, {app.get_name()}); }

} // namespace roofline::cli
