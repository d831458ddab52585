// Reading a roofline configuration file (/etc/roofline/config.yaml,
// ~/.config/roofline/config.yaml, ./roofline.yaml): a YAML mapping of settings,
// either shared by every command or under a command's name,
//
//   db: ~/results/roofline.db        # every command with --db
//   kernels:
//     cache: cold                    # roofline kernels --cache cold
//     sizes: 1K..1G:x4
//   bench.time-budget: 60            # the same as bench: {time-budget: 60}
//
// This layer only reads and flattens; which keys exist and what values they take
// is the command line's business (cli/layered_config.hpp).
#pragma once

#include <string>
#include <vector>

namespace roofline {

struct ConfigSetting {
    std::string key;                  // "db", "kernels.cache"
    std::vector<std::string> values;  // one for a scalar, each item of a YAML list
    bool list = false;                // written as a YAML list
    std::string where;                // "FILE:LINE:COL" of the value
    std::string key_where;            // "FILE:LINE:COL" of the key
    bool no_value = false;            // 'key:' with nothing after it: a command's section of comments
                                      // only, or a setting missing its value (the caller knows which)
};

// The settings of `text`, in file order. An empty file has none. Anything but a
// mapping of scalars, lists of scalars, or one level of command sections is a
// SchemaError naming FILE:LINE:COL; so is a key given twice. A top-level key with
// no value is kept with `no_value` (an empty section, or a mistake: the caller says).
std::vector<ConfigSetting> parse_config_text(const std::string& text, const std::string& file);

// The same for a file. A file that does not exist has no settings (`present`
// says so); an unreadable one (permissions, a directory, a symbolic link loop or
// one to a missing file) is an error naming it, and so is anything but a regular
// file: a FIFO is refused, never waited on.
struct ConfigFile {
    std::string path;
    bool present = false;
    std::vector<ConfigSetting> settings;
};
ConfigFile read_config_file(const std::string& path);

} // namespace roofline
