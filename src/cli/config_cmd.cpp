// `roofline config show`: the effective value of every setting and where it came
// from (built-in, a file's line, an environment variable), so a surprising
// default can be traced to its file.
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/layered_config.hpp"
#include "cli/messages.hpp"
#include "cli/usage_error.hpp"
#include "core/message_name.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>

namespace roofline::cli {
namespace {

struct ConfigArgs {
    std::vector<std::string> keys;
    bool changed = false;
    std::string format = "text";
    std::string output;
    bool quiet = false;  // taken as every command takes it: config show prints its result and errors only
};

// A key as 'config show' takes it: the setting's full name, its command, or its option's name.
bool names(const std::string& k, const LayeredConfig::Value& v) {
    return v.key == k || v.command == k ||
           (v.key.size() > k.size() && v.key.compare(v.key.size() - k.size(), k.size(), k) == 0 &&
            v.key[v.key.size() - k.size() - 1] == '.');
}

bool selected(const LayeredConfig::Value& v, const ConfigArgs& args) {
    if (args.changed && v.from == "built-in") return false;
    if (args.keys.empty()) return true;
    return std::any_of(args.keys.begin(), args.keys.end(), [&](const std::string& k) { return names(k, v); });
}

std::string render_text(const LayeredConfig& config, const std::vector<LayeredConfig::Value>& values) {
    std::string out = "Configuration, lowest precedence first (the command line overrides all):\n";
    const auto shown_path = [](const LayeredConfig::Source& s) {
        return s.path.empty() ? std::string("ROOFLINE_* variables") : terminal_text(s.path);
    };
    std::size_t path_width = 0;
    for (const auto& s : config.sources()) path_width = std::max(path_width, shown_path(s).size());
    for (const auto& s : config.sources()) {
        const std::string state = !s.present ? "not present"
                                             : fmt::format("{} setting{}", s.settings, s.settings == 1 ? "" : "s");
        out += fmt::format("  {:<13} {:<{}}  {}\n", s.label, shown_path(s), path_width, state);
    }
    std::size_t key_width = 3, value_width = 5;
    for (const auto& v : values) {
        key_width = std::max(key_width, v.key.size());
        value_width = std::max(value_width, std::min<std::size_t>(terminal_text(v.value).size(), 40));
    }
    out += fmt::format("\n{:<{}}  {:<{}}  {}\n", "KEY", key_width, "VALUE", value_width, "FROM");
    if (values.empty()) out += "(none: every setting asked for is at its built-in default)\n";  // only --changed
    std::vector<std::string> problems;
    for (const auto& v : values) {
        out += fmt::format("{:<{}}  {:<{}}  {}{}\n", v.key, key_width, v.value.empty() ? "-" : terminal_text(v.value),
                           value_width, terminal_text(v.from), v.problem.empty() ? "" : "  INVALID");
        if (!v.problem.empty() && std::find(problems.begin(), problems.end(), v.problem) == problems.end())
            problems.push_back(v.problem);
    }
    if (!problems.empty()) {
        out += "\nINVALID: every other command stops on these (exit 2) until they are fixed:\n";
        for (const auto& p : problems) out += "  " + terminal_text(p) + "\n";
    }
    out += "\nIn a file: 'COMMAND:' then '  OPTION: VALUE' (or 'COMMAND.OPTION: VALUE'; 'db' and 'quiet' alone\n"
           "apply to every command). In the environment: the VARIABLE of 'roofline config show --format json'\n"
           "(ROOFLINE_KERNELS_CACHE=cold). '-' is unset: the command decides (see its --help).\n";
    return out;
}

std::string render_json(const LayeredConfig& config, const std::vector<LayeredConfig::Value>& values) {
    nlohmann::json j;
    j["schema"] = "roofline.config/1";  // as every JSON document roofline prints names its layout
    j["sources"] = nlohmann::json::array();
    for (const auto& s : config.sources())
        j["sources"].push_back({{"label", s.label}, {"path", s.path}, {"present", s.present}, {"settings", s.settings}});
    j["settings"] = nlohmann::json::array();
    for (const auto& v : values)
        j["settings"].push_back({{"key", v.key},
                                 {"command", v.command},
                                 {"option", v.option},
                                 {"value", v.value},
                                 {"from", v.from},
                                 {"variable", v.env},
                                 {"help", v.help},
                                 {"valid", v.problem.empty()}});
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!values[i].problem.empty()) j["settings"][i]["problem"] = values[i].problem;
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int run_config_show(const ConfigArgs& args, const LayeredConfig& config) {
    // Every key must name a setting, whatever --changed leaves: 'config show bench --changed' with
    // none changed said "no setting is named bench", and 'config show kernels nosuch' showed kernels'
    // settings without a word about nosuch.
    std::vector<std::string> unknown;
    for (const auto& k : args.keys)
        if (std::none_of(config.values().begin(), config.values().end(),
                         [&](const LayeredConfig::Value& v) { return names(k, v); }))
            unknown.push_back(fmt::format("'{}'", message_name(k)));
    if (!unknown.empty())
        throw UsageError(fmt::format("no setting is named {} (try 'roofline config show' for all of them)",
                                     fmt::join(unknown, ", ")));
    std::vector<LayeredConfig::Value> values;
    for (const auto& v : config.values())
        if (selected(v, args)) values.push_back(v);
    write_result(args.output, args.format == "json" ? render_json(config, values) : render_text(config, values));
    // Listed, marked INVALID; then the error every other command stops with, and its exit status.
    if (const auto problems = config.problems_text(); !problems.empty()) {
        print_stderr("roofline: error: {}\n", problems);
        return kExitUsage;
    }
    return kExitOk;
}

} // namespace

void add_config_command(CLI::App& app, int& exit_code, const LayeredConfig& config) {
    auto* cmd = add_command(app, "config", "Show the settings from configuration files and the environment");
    cmd->description(
        "Options that are standing preferences (the results store, a command's threads, cache mode, time\n"
        "budget, chart size...) can be set once instead of on every command line, lowest precedence first:\n"
        "  built-in defaults < /etc/roofline/config.yaml ($ROOFLINE_SYSTEM_CONFIG)\n"
        "  < ~/.config/roofline/config.yaml ($XDG_CONFIG_HOME) < ./roofline.yaml\n"
        "  < ROOFLINE_* environment variables < the command line.\n"
        "A file is YAML: a command's name, then its options without dashes, e.g.\n"
        "  db: ~/results/roofline.db\n"
        "  kernels:\n"
        "    cache: cold\n"
        "    stat: median\n"
        "An unknown name or a bad value (each option's own range or form, e.g. kernels --samples 1 to\n"
        "1000) stops every command (exit 2) with the file, line and closest name; a value only a running\n"
        "command can check (kernels --threads against this machine's cores) stops that command with its\n"
        "file and line. 'config show' still lists every setting, marks bad values INVALID with the\n"
        "reason, and then exits 2.");
    // Its own: a command without a footer shows the top-level examples (CLI11 copies the parent's).
    cmd->footer("Examples:\n"
                "  roofline config show                      every setting, its value and where it came from\n"
                "  roofline config show bench --changed      bench's settings not at their built-in defaults\n"
                "  ROOFLINE_BENCH_TIME_BUDGET=60 roofline config show bench.time-budget\n"
                "  printf 'kernels:\\n  cache: cold\\n' > roofline.yaml   kernels --cache cold in this directory");
    // At most one; none is said below, so a mistyped one ('config shwo') is named as that (with
    // "did you mean 'show'?"), where CLI11's "A subcommand is required" did not name it.
    cmd->require_subcommand(0, 1);
    cmd->callback([cmd] {
        if (cmd->get_subcommands().empty())
            throw UsageError("config needs a command: 'roofline config show' prints every setting, its value and "
                             "where it came from");
    });
    auto args = std::make_shared<ConfigArgs>();
    auto* show = add_command(*cmd, "show",
                             "Print each setting's effective value and where it came from; exit 2 when one is invalid");
    show->add_option("keys", args->keys, "Only these settings: a full name (kernels.cache), a command (kernels) or an "
                                          "option name (cache)");
    show->add_flag("--changed", args->changed, "Only the settings not at their built-in default");
    add_format_option(show, args->format, {"text", "json"}, true);
    add_output_option(show, args->output, "Write the settings to FILE instead of standard output");
    add_quiet_flag(show, args->quiet);
    show->footer("Examples:\n"
                 "  roofline config show\n"
                 "  roofline config show kernels\n"
                 "  roofline config show --changed\n"
                 "  ROOFLINE_KERNELS_CACHE=cold roofline config show kernels.cache");
    show->callback([args, &exit_code, &config] { exit_code = run_config_show(*args, config); });
}

} // namespace roofline::cli
