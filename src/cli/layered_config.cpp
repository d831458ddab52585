#include "cli/layered_config.hpp"

#include "cli/usage_error.hpp"
#include "core/closest_words.hpp"
#include "core/message_name.hpp"
#include "io/config_file.hpp"
#include "io/machine_json.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

extern char** environ;

namespace roofline::cli {
namespace {

// Options that name this run's output or ask a one-off question: not preferences.
const std::set<std::string> kNotSettings = {"help", "output", "json", "list", "version"};

bool is_other_variable(const std::string& name) {
    const auto& others = other_variables();
    return std::any_of(others.begin(), others.end(), [&](const OtherVariable& v) { return v.name == name; });
}

bool is_shared(const std::string& option) {
    const auto& shared = shared_settings();
    return std::find(shared.begin(), shared.end(), option) != shared.end();
}

std::string suggestion(const std::string& wanted, const std::vector<std::string>& names) {
    const auto close = closest_words(wanted, names, 1);
    return close.empty() ? "" : fmt::format(" (did you mean '{}'?)", close.front());
}

// One option a setting can reach.
struct Target {
    LayeredConfig::Value value;
    CLI::Option* option = nullptr;
    std::string long_name;  // without dashes
    bool flag = false;
    bool many = false;
};

struct LayerSetting {
    std::vector<std::string> values;
    bool list = false;
    std::string where;
};
using Layer = std::map<std::string, LayerSetting>;  // key -> setting

std::string normalized_flag(const std::string& text, const std::string& where, const std::string& key) {
    std::string t;
    for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t == "true" || t == "yes" || t == "on" || t == "1") return "true";
    if (t == "false" || t == "no" || t == "off" || t == "0") return "false";
    throw UsageError(fmt::format("{}: {}: '{}' is not true or false (a switch)", where, key, text));
}

// "~/x" in a file means what it would on a command line (no shell expands it there).
std::string expanded_home(const std::string& value) {
    if (value.rfind("~/", 0) != 0) return value;
    const char* home = std::getenv("HOME");
    return home && *home ? std::string(home) + value.substr(1) : value;
}

// Every option of app's commands a setting can reach: each command's long options but the
// one-off ones (kNotSettings), with their built-in defaults; not hidden commands', nor config's.
std::vector<Target> settable_options(CLI::App& app) {
    std::vector<Target> targets;
    for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
        if (cmd->get_name() == "config" || cmd->get_group().empty()) continue;  // hidden commands: no preferences
        for (CLI::Option* opt : cmd->get_options([](CLI::Option*) { return true; })) {
            if (opt->get_lnames().empty() || opt == cmd->get_help_ptr()) continue;
            const std::string name = opt->get_lnames().front();
            if (kNotSettings.count(name)) continue;
            Target t;
            t.option = opt;
            t.long_name = name;
            t.flag = opt->get_expected_max() == 0;
            t.many = opt->get_items_expected_max() > 1;
            t.value.command = cmd->get_name();
            t.value.key = cmd->get_name() + "." + name;
            t.value.option = "--" + name;
            t.value.env = setting_variable(t.value.key);
            t.value.help = opt->get_description();
            // The built-in default as the option would print it, without changing its help.
            const std::string shown = opt->get_default_str();
            opt->capture_default_str();
            t.value.value = opt->get_default_str();
            opt->default_str(shown);
            if (t.value.value == "[]") t.value.value.clear();  // an empty list: unset
            if (t.value.value.empty() && t.flag) t.value.value = "false";
            t.value.from = "built-in";
            targets.push_back(std::move(t));
        }
    }
    return targets;
}

// The settings of one configuration file ("" or a missing file: none); an unknown name stops
// the program, naming the closest of `keys`.
Layer file_layer(const std::string& path, const std::vector<std::string>& keys, LayeredConfig::Source& source) {
    Layer layer;
    if (path.empty()) return layer;
    ConfigFile file;
    try {
        file = read_config_file(path);
    } catch (const SchemaError& e) {
        throw UsageError(e.what());
    }
    source.present = file.present;
    for (auto& s : file.settings) {
        for (auto& v : s.values) v = expanded_home(v);
        // A command's first option ('kernels' -> 'kernels.cache'), where s.key names a command.
        const auto option = std::find_if(keys.begin(), keys.end(), [&](const std::string& k) {
            return k.size() > s.key.size() && k.compare(0, s.key.size(), s.key) == 0 && k[s.key.size()] == '.';
        });
        if (s.no_value) {
            if (option != keys.end()) continue;  // 'kernels:' and its options commented out: none set
            throw UsageError(fmt::format("{}: {}: a setting needs a value (write 'key: value')", s.key_where,
                                         message_name(s.key)));
        }
        if (std::find(keys.begin(), keys.end(), s.key) == keys.end()) {
            // 'kernels: 5' names a command, not an unknown setting: its options go under it.
            if (option != keys.end())
                throw UsageError(fmt::format("{}: '{}' is a command, not a setting: write its settings under it, "
                                             "indented ('{}:' then '  {}: VALUE'), or as '{}: VALUE'; 'roofline "
                                             "config show {}' lists them",
                                             s.key_where, s.key, s.key, option->substr(s.key.size() + 1), *option,
                                             s.key));
            throw UsageError(fmt::format("{}: unknown setting '{}'{}; 'roofline config show' lists them all",
                                         s.key_where, message_name(s.key), suggestion(s.key, keys)));
        }
        layer[s.key] = LayerSetting{std::move(s.values), s.list, s.where};
    }
    return layer;
}

// The settings of the ROOFLINE_* variables in `env`, by the variable of each setting's key.
Layer environment_layer(const std::vector<std::pair<std::string, std::string>>& env,
                        const std::map<std::string, std::string>& key_of_env) {
    Layer layer;
    for (const auto& [name, text] : env) {
        if (is_other_variable(name) || text.empty()) continue;  // an empty variable is an unset one
        const auto it = key_of_env.find(name);
        if (it == key_of_env.end()) {
            // The environment is shared with other programs and scripts (a test harness's
            // ROOFLINE_SANITIZED): a variable that is no setting is theirs, unless it is a
            // setting's name but for a typo or two.
            std::string closest;
            std::size_t distance = 3;
            for (const auto& [n, k] : key_of_env)
                if (const auto d = edit_distance(name, n); d < distance) distance = d, closest = n;
            if (closest.empty()) continue;
            throw UsageError(fmt::format("environment variable {} is not a roofline setting (did you mean '{}'?); "
                                         "'roofline config show' lists them all",
                                         name, closest));
        }
        layer[it->second] = LayerSetting{{text}, false, name};
    }
    return layer;
}

// The setting an option takes and the name it was set by: the highest layer's; within one
// layer a command's own setting (kernels.db) beats a shared one (db). None when none is set.
std::pair<const LayerSetting*, std::string> chosen_setting(const Target& t, const std::vector<Layer>& layers) {
    const LayerSetting* chosen = nullptr;
    std::string chosen_key;
    const bool shared = is_shared(t.long_name);
    for (const auto& layer : layers)
        for (const std::string* key : {&t.long_name, &t.value.key}) {
            if (key == &t.long_name && !shared) continue;
            if (auto it = layer.find(*key); it != layer.end()) {
                chosen = &it->second;
                chosen_key = *key;
            }
        }
    return {chosen, chosen_key};
}

// Makes `chosen` the option's default, checked as the command line would check it. A bad value
// is kept in t.value with its problem (config show lists it); the option keeps its default.
void apply_setting(Target& t, const LayerSetting& chosen, const std::string& chosen_key) {
    // As typed: one value, or a list as [a,b].
    const auto joined = [&](const std::vector<std::string>& values) {
        if (!chosen.list) return values.size() == 1 ? values.front() : std::string();
        std::string text = "[";
        for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + values[i];
        return text + "]";
    };
    std::string text = joined(chosen.values);
    try {
        if (chosen.list && !t.many)
            throw UsageError(fmt::format("{}: {}: 'roofline {} {}' takes one value, not a list", chosen.where,
                                         chosen_key, t.value.command, t.value.option));
        if (t.flag) {
            std::vector<std::string> values = chosen.values;
            for (auto& v : values) v = normalized_flag(v, chosen.where, chosen_key);
            text = joined(values);
        }
        try {
            t.option->default_val(text);
        } catch (const CLI::Error& e) {
            throw UsageError(fmt::format("{}: {}: '{}' is not a valid value for 'roofline {} {}': {}", chosen.where,
                                         chosen_key, message_excerpt(text), t.value.command, t.value.option,
                                         e.what()));
        }
    } catch (const UsageError& e) {
        t.value.problem = e.what();
    }
    t.value.value = text;
    t.value.from = chosen.where + (chosen_key == t.value.key ? "" : " (" + chosen_key + ")");
}

} // namespace

std::string setting_variable(const std::string& key) {
    std::string name = "ROOFLINE_";
    for (char c : key) name += (c == '.' || c == '-') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
}

const std::vector<std::string>& shared_settings() {
    static const std::vector<std::string> shared = {"db", "quiet"};
    return shared;
}

// Paths of an installation, the marker library's protocol with `measure`, ISA
// capping for experiments, a node's name in a simulated cluster (bench --mpi tests).
const std::vector<OtherVariable>& other_variables() {
    static const std::vector<OtherVariable> others = {
        {"ROOFLINE_SYSTEM_CONFIG", "The system configuration file, instead of /etc/roofline/config.yaml."},
        {"ROOFLINE_EVENTS_DIR", "The directory of the perf engine's event files, instead of the installed one."},
        {"ROOFLINE_VGTOOL_DIR", "The directory holding the Valgrind tool of the instrument engine, instead of the "
                                "installed one."},
        {"ROOFLINE_GPUBENCH", "The GPU benchmark program (roofline-gpubench) that bench --gpu runs."},
        {"ROOFLINE_GPUBENCH_TIME_LIMIT", "Seconds each run of the GPU benchmark may take before bench --gpu kills it "
                                         "(default: 60 for its probe, 300 with --quick, 1200 for a full run)."},
        {"ROOFLINE_NETBENCH", "The network benchmark program (roofline-netbench) that bench --mpi runs."},
        {"ROOFLINE_MAX_ISA", "sse2, avx2 or avx512: the newest instruction set bench's kernels may use, to see what code "
                             "built for an older one can reach."},
        {"ROOFLINE_MARKER_OUT", "Set by measure for the program it runs: where the marker library writes its "
                                "regions."},
        {"ROOFLINE_PERF_EVENTS", "Set by measure for the program it runs: the hardware events the marker library "
                                 "counts per region."},
        {"ROOFLINE_MARKER_OWNER", "Set by the marker library in the process that writes ROOFLINE_MARKER_OUT "
                                  "(PID:FILE), for the programs it starts: they name their regions instead of "
                                  "writing that file."},
        {"ROOFLINE_NODE_NAME", "The node's name in bench --mpi instead of the host name (tests simulate a cluster "
                               "on one machine)."},
    };
    return others;
}

ConfigPaths default_config_paths(const std::function<const char*(const char*)>& getenv) {
    const auto env = [&](const char* name) -> std::string {
        const char* v = getenv(name);
        return v ? std::string(v) : std::string();
    };
    ConfigPaths p;
    p.system = env("ROOFLINE_SYSTEM_CONFIG");
    if (p.system.empty()) p.system = "/etc/roofline/config.yaml";
    if (const auto xdg = env("XDG_CONFIG_HOME"); !xdg.empty() && xdg.front() == '/')  // relative: ignored (XDG spec)
        p.user = xdg + "/roofline/config.yaml";
    else if (const auto home = env("HOME"); !home.empty())
        p.user = home + "/.config/roofline/config.yaml";
    p.project = "roofline.yaml";
    return p;
}

std::vector<std::pair<std::string, std::string>> roofline_environment() {
    std::vector<std::pair<std::string, std::string>> out;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        if (entry.rfind("ROOFLINE_", 0) != 0) continue;
        const auto eq = entry.find('=');
        if (eq == std::string::npos) continue;
        out.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return out;
}

void LayeredConfig::load(CLI::App& app, const ConfigPaths& paths,
                         const std::vector<std::pair<std::string, std::string>>& env) {
    // What can be set.
    std::vector<Target> targets = settable_options(app);
    std::vector<std::string> keys(shared_settings());
    for (const auto& t : targets) keys.push_back(t.value.key);
    std::map<std::string, std::string> key_of_env;
    for (const auto& k : keys) key_of_env.emplace(setting_variable(k), k);

    // What is set, layer by layer, lowest precedence first.
    std::vector<Layer> layers;
    sources_.clear();
    const std::pair<const char*, const std::string*> files[] = {
        {"system file", &paths.system}, {"user file", &paths.user}, {"project file", &paths.project}};
    for (const auto& [label, path] : files) {
        Source source{label, *path, false, 0};
        layers.push_back(file_layer(*path, keys, source));
        source.settings = layers.back().size();
        sources_.push_back(source);
    }
    layers.push_back(environment_layer(env, key_of_env));
    sources_.push_back(Source{"environment", "", true, layers.back().size()});

    values_.clear();
    applied_.clear();
    for (auto& t : targets) {
        const auto [chosen, chosen_key] = chosen_setting(t, layers);
        if (chosen) apply_setting(t, *chosen, chosen_key);
        values_.push_back(t.value);
        applied_.push_back(Applied{t.option, chosen ? chosen->where : "", chosen ? chosen_key : ""});
    }

    // Every command but `config` (whose `show` lists the problems) stops on them as it starts.
    for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
        if (cmd->get_name() == "config") continue;
        cmd->preparse_callback([this](std::size_t) {
            if (const auto text = problems_text(); !text.empty()) throw UsageError(text);
        });
    }
}

std::vector<std::string> LayeredConfig::problems() const {
    std::vector<std::string> out;
    for (const auto& v : values_)  // a shared setting (db) reaches several options with one problem: said once
        if (!v.problem.empty() && std::find(out.begin(), out.end(), v.problem) == out.end()) out.push_back(v.problem);
    return out;
}

std::string LayeredConfig::problems_text() const {
    const auto all = problems();
    if (all.empty()) return "";
    if (all.size() == 1) return all.front();
    return fmt::format("{} (and {} more bad setting{}: 'roofline config show' lists them)", all.front(),
                       all.size() - 1, all.size() == 2 ? "" : "s");
}

namespace {

// Whether `message` names `option` ("--samples") as a word: not "--samples-x", not "---samples".
bool names_option(const std::string& message, const std::string& option) {
    const auto in_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
    for (auto at = message.find(option); at != std::string::npos; at = message.find(option, at + 1)) {
        const bool starts = at == 0 || !in_name(message[at - 1]);
        const auto end = at + option.size();
        const bool ends = end == message.size() || !in_name(message[end]);
        if (starts && ends) return true;
    }
    return false;
}

} // namespace

bool LayeredConfig::given_on_command_line(std::size_t i) const {
    return i < applied_.size() && applied_[i].option && applied_[i].option->count() > 0;
}

std::string LayeredConfig::attributed(const std::string& message, const CLI::App& app) const {
    const CLI::App* ran = &app;
    while (!ran->get_subcommands().empty()) ran = ran->get_subcommands().front();
    std::vector<std::size_t> named;
    for (std::size_t i = 0; i < values_.size() && i < applied_.size(); ++i) {
        const auto& v = values_[i];
        const auto& a = applied_[i];
        if (v.command != ran->get_name() || a.where.empty() || !v.problem.empty()) continue;
        if (a.option->count() > 0) continue;  // given on the command line: the message is about that
        if (names_option(message, v.option)) named.push_back(i);
    }
    if (named.empty()) return message;
    if (named.size() == 1) {
        const auto& v = values_[named.front()];
        const auto& a = applied_[named.front()];
        return fmt::format("{}: {}: '{}': {}", a.where, a.key, v.value, message);
    }
    std::string from;
    for (const auto i : named)
        from += fmt::format("{}{} '{}' from {}", from.empty() ? "" : ", ", values_[i].option, values_[i].value,
                            applied_[i].where);
    return fmt::format("{} ({}: configured, not on the command line)", message, from);
}

} // namespace roofline::cli
