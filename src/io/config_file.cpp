#include "io/config_file.hpp"

#include "core/message_name.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"
#include "io/yaml_node.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <sstream>
#include <system_error>

namespace roofline {
namespace {

// A value a command-line option can take: a scalar, or a list of scalars.
ConfigSetting setting_from(const std::string& key, const YamlNode& value, const std::string& key_where,
                           bool top_level) {
    ConfigSetting s;
    s.key = key;
    s.where = value.location();
    s.key_where = key_where;
    if (value.is_scalar()) {
        s.values.push_back(value.as_string());
    } else if (value.is_sequence()) {
        s.list = true;
        for (const auto& item : value.elements()) {
            if (!item.is_scalar()) item.fail("a setting's list holds plain values (numbers, words, paths)");
            s.values.push_back(item.as_string());
        }
    } else if (value.is_map()) {
        throw SchemaError(fmt::format("{}: {}: settings nest one level only (a command's name, then its options)",
                                      key_where, key));
    } else if (top_level) {
        s.no_value = true;  // 'kernels:' with its options commented out, or 'db:' (cli/layered_config says)
    } else {
        throw SchemaError(fmt::format("{}: {}: a setting needs a value (write 'key: value')", key_where, key));
    }
    return s;
}

} // namespace

std::vector<ConfigSetting> parse_config_text(const std::string& text, const std::string& file) {
    // Comments only (a fresh file, a template): no settings, not an empty-YAML error.
    std::istringstream lines(text);
    bool content = false;
    for (std::string line; !content && std::getline(lines, line);) {
        const auto first = line.find_first_not_of(" \t\r");
        content = first != std::string::npos && line[first] != '#';
    }
    if (!content) return {};
    const auto documents = parse_yaml_documents(text, file);
    if (documents.empty()) return {};
    if (documents.size() > 1) documents[1].fail("a configuration file holds one YAML document");
    const YamlNode& root = documents.front();
    if (!root.is_map()) {
        if (root.is_scalar() && root.as_string().empty()) return {};  // a file of comments only
        root.fail("a configuration file is a mapping of settings ('key: value' lines)");
    }
    std::vector<ConfigSetting> out;
    std::map<std::string, std::string> seen;  // key -> where it was first set
    const auto add = [&](const std::string& key, const YamlNode& value, const std::string& key_where,
                         bool top_level) {
        ConfigSetting s = setting_from(key, value, key_where, top_level);
        if (auto [it, fresh] = seen.emplace(s.key, s.key_where); !fresh)
            throw SchemaError(fmt::format("{}: '{}' is set twice (first at {})", key_where, s.key, it->second));
        out.push_back(std::move(s));
    };
    for (const auto& [key, value] : root.entries()) {
        if (value.is_map()) {
            for (const auto& [option, option_value] : value.entries())
                add(key + "." + option, option_value, value.key_location(option), false);
        } else {
            add(key, value, root.key_location(key), true);
        }
    }
    return out;
}

ConfigFile read_config_file(const std::string& path) {
    ConfigFile f;
    f.path = path;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    // Absent is only what is not there: a name that is there but leads nowhere (a symbolic link
    // loop, a link to a missing file, a directory on the way that cannot be searched) is the
    // user's file, and silently running without its settings would be wrong. Refused as one
    // that cannot be read is (a directory, a FIFO), naming it.
    const auto unreadable = [&](const std::string& why) {
        return std::runtime_error(fmt::format("configuration file: cannot read {}: {}; fix it or remove it",
                                              message_name(path), why));
    };
    if (status.type() == std::filesystem::file_type::not_found) {
        std::error_code link_ec;
        if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, link_ec))) {
            const auto target = std::filesystem::read_symlink(path, link_ec);
            throw unreadable(fmt::format("a symbolic link to {}, which does not exist", message_name(target.string())));
        }
        return f;
    }
    if (ec)
        throw unreadable(ec == std::errc::too_many_symbolic_link_levels
                             ? fmt::format("a loop of symbolic links ({})", ec.message())
                             : ec.message());
    f.present = true;
    std::string text;
    try {
        // Regular files only: a FIFO (ROOFLINE_SYSTEM_CONFIG=/some/fifo) would
        // hang every command in open(), before anything is said.
        text = read_regular_text_file(path);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(fmt::format("configuration file: {}", e.what()));
    }
    f.settings = parse_config_text(text, path);
    return f;
}

} // namespace roofline
