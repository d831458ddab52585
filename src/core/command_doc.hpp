// A command line described as data: what `--help` says about each command and
// option, read off the parser by cli/ (command_docs) and turned into man pages
// and shell completions by render/ (man_page, shell_completion). Kept free of
// CLI11 so the renderers need no parser and can be tested on hand-made trees.
#pragma once

#include <string>
#include <vector>

namespace roofline {

// What a completion offers for an option's value or a positional argument.
enum class ValueKind {
    none,       // a switch: no value
    text,       // free text: file names are offered (most text values here are files or 'stored')
    file,       // a file, by its checks or its value name
    directory,  // a directory
    number,     // nothing to offer
    choice,     // one of `choices`
};

struct OptionDoc {
    std::vector<std::string> short_names;  // "o" (without the dash)
    std::vector<std::string> long_names;   // "output" (without the dashes)
    std::string positional_name;           // set for a positional argument ("command", "keys")
    std::string value_name;                // "TEXT", "FILE", "N[:PRECISION]"; empty for a switch
    ValueKind kind = ValueKind::none;
    bool optional_value = false;  // --gpu [N]: the value may be left out
    bool repeatable = false;      // takes any number of values ("..." in --help)
    bool required = false;
    std::string default_value;             // as --help shows it after '='; empty when none is shown
    std::string description;
    std::vector<std::string> choices;      // the fixed set of values (IsMember), in their order
    std::vector<std::string> constraints;  // other checks as --help names them ("FLOAT in [1 - 86400]")
    std::string group;                     // the --help section ("Options", or a named group)
};

// A setting's environment variable, or any variable the tool reads.
struct EnvironmentDoc {
    std::string name;     // ROOFLINE_BENCH_THREADS
    std::string meaning;  // one line
};

struct CommandDoc {
    std::vector<std::string> path;  // {"roofline"}, {"roofline", "config", "show"}
    std::string description;        // as --help prints it (hard line breaks kept)
    std::string summary;            // the command's one line as `roofline --help` lists it; may be empty
    std::string footer;             // usually "Examples:\n  ..."
    std::vector<OptionDoc> options;      // --help's order: named options, then positionals
    std::vector<CommandDoc> subcommands; // the visible ones, in definition order
    std::vector<EnvironmentDoc> environment;  // variables that set this command's options
};

struct ExitStatusDoc {
    int code = 0;
    std::string meaning;
};

// What the pages say beyond the commands themselves.
struct ManualDoc {
    std::string version;  // "0.1.0"
    std::string date;     // "2024-05-01", or empty: the version alone dates the pages
    std::vector<ExitStatusDoc> exit_status;
    std::vector<EnvironmentDoc> environment;  // the top page's list
    std::vector<std::string> files;           // configuration files, lowest precedence first
};

// The first sentence of a description, its line breaks as spaces ("roofline: " and a
// final period dropped): a command's one line in a list of commands.
std::string command_summary(const std::string& description);
// A command's one line: its summary, else the first sentence of its description.
std::string command_summary(const CommandDoc& command);

} // namespace roofline
