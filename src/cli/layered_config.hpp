// Layered configuration: every command-line option that makes sense as a
// standing preference can also be set, lowest precedence first, in
//   built-in defaults < /etc/roofline/config.yaml < ~/.config/roofline/config.yaml
//   < ./roofline.yaml < ROOFLINE_* environment < the command line.
// A setting is named `COMMAND.OPTION` (kernels.cache, bench.time-budget) or, for
// the options every command shares with one meaning, by the option alone (db,
// quiet); in the environment, ROOFLINE_ + the name in capitals with '.' and '-'
// as '_' (ROOFLINE_KERNELS_CACHE, ROOFLINE_DB). Values are checked exactly as the
// command line checks them. An unknown name or a bad value stops the program
// (exit 2) naming the file, line and column, or the variable, and the closest
// valid name; in the environment, which other programs share, only a variable
// within two typos of a setting's counts as a mistake (others are not ours).
// A bad value is found where its option's own check runs: when it is loaded
// (CLI11's validators and conversions: every range or form an option has), or,
// for a check only a running command can make (kernels --threads against this
// machine's cores), in that command's error, which then says where the value
// came from ("roofline.yaml:1:18: kernels.threads: '100000': ...") instead of
// reading as a command-line mistake. `config show` lists every setting and
// marks the bad ones (exit 2); every other command stops on the first.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::cli {

// Where the files are looked for, lowest precedence first ("" for none).
struct ConfigPaths {
    std::string system;   // $ROOFLINE_SYSTEM_CONFIG, else /etc/roofline/config.yaml
    std::string user;     // $XDG_CONFIG_HOME/roofline/config.yaml, else ~/.config/roofline/config.yaml
    std::string project;  // roofline.yaml in the working directory
};
ConfigPaths default_config_paths(const std::function<const char*(const char*)>& getenv);

// The ROOFLINE_* variables of this process's environment, as (name, value).
std::vector<std::pair<std::string, std::string>> roofline_environment();

// A setting's environment variable: ROOFLINE_ + the name in capitals, '.' and
// '-' as '_' (kernels.cache -> ROOFLINE_KERNELS_CACHE).
std::string setting_variable(const std::string& key);

// The options every command that has them means the same by ("db", "quiet"):
// the option's name alone sets them all.
const std::vector<std::string>& shared_settings();

// ROOFLINE_* variables that are not settings, and what each does (for the
// manual; `load` leaves them alone).
struct OtherVariable {
    std::string name;
    std::string meaning;
};
const std::vector<OtherVariable>& other_variables();

class LayeredConfig {
public:
    // Indexes the options of app's commands (every long option but --help,
    // -o/--output, --json and --list; not the config command's), reads the files
    // and the environment, checks every setting, and makes the value of highest
    // precedence each option's default, so the command line still overrides it
    // and --help shows it. Throws UsageError for an unknown name or a bad value.
    void load(CLI::App& app, const ConfigPaths& paths, const std::vector<std::pair<std::string, std::string>>& env);

    struct Source {
        std::string label;  // "system file", "user file", "project file", "environment"
        std::string path;   // the file ("" for the environment)
        bool present = false;
        std::size_t settings = 0;
    };
    struct Value {
        std::string key;      // kernels.cache
        std::string command;  // kernels
        std::string option;   // --cache
        std::string value;    // the effective default ("" when unset)
        std::string from;     // "built-in", "FILE:LINE:COL", "FILE:LINE:COL (db)", "ROOFLINE_KERNELS_CACHE"
        std::string env;      // the variable that would set it
        std::string help;     // the option's description
        // Why the configured value is refused: "FILE:LINE:COL: kernels.cache: 'hot' is not a
        // valid value for 'roofline kernels --cache': ..." ("" when it is fine). `value` and
        // `from` then still show what was configured; the option keeps its built-in default.
        std::string problem;
    };
    const std::vector<Source>& sources() const { return sources_; }
    const std::vector<Value>& values() const { return values_; }
    // The problems of `values()`, in their order: load makes every command but
    // `config show` stop on them (exit 2) when it starts.
    std::vector<std::string> problems() const;
    // The first problem, and how many more there are ("" when none).
    std::string problems_text() const;

    // A command's usage error (exit 2) found when it ran: when it names an option
    // (--samples) whose value came from a file or the environment, not the command
    // line, it is said where: "roofline.yaml:1:18: kernels.samples: '0': --samples
    // must be 1 to 1000". Other messages come back as they are. `app` is the parsed
    // application (its subcommands say which command ran).
    std::string attributed(const std::string& message, const CLI::App& app) const;
    // Whether the command line gave values()[i]'s option (known once it is parsed): the
    // configured value was then overridden, not in force.
    bool given_on_command_line(std::size_t i) const;

private:
    struct Applied {
        CLI::Option* option = nullptr;
        std::string where;  // FILE:LINE:COL or the variable ("" for built-in)
        std::string key;    // the name it was set by (db for kernels.db)
    };
    std::vector<Source> sources_;
    std::vector<Value> values_;
    std::vector<Applied> applied_;  // values_[i] came from applied_[i]
};

} // namespace roofline::cli
