// Reading hand-written YAML (kernel specs, spec-sheet machines) with errors
// that say where: "FILE:LINE:COL: kernels[2].arrays[0].reads: expected a number".
// Every schema problem is a SchemaError (io/machine_json.hpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

class YamlNode {
public:
    YamlNode(YAML::Node node, std::string file, std::string path);

    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void expected(const std::string& kind) const;

    bool is_map() const { return node_.IsMap(); }
    bool is_sequence() const { return node_.IsSequence(); }
    bool is_scalar() const { return node_.IsScalar(); }
    const YamlNode& require_map() const;
    const YamlNode& require_sequence() const;

    bool has(const std::string& key) const;
    YamlNode child(const std::string& key) const;  // must exist
    YamlNode required(const std::string& key, const std::string& kind) const;
    std::optional<YamlNode> optional(const std::string& key) const;
    // A typo in a key must not pass silently: any other key is an error at that key.
    void allow_only(std::initializer_list<const char*> keys) const;

    std::vector<YamlNode> elements() const;                          // a sequence's items
    std::vector<std::pair<std::string, YamlNode>> entries() const;   // a map's items, in file order

    std::string as_string() const;
    double as_number() const;  // "85.8", "1e8"
    int as_int() const;
    bool as_bool() const;
    std::uint64_t as_bytes() const;  // 32768, "32KiB", "8 MB"
    // A number, or arithmetic (+ - * / parentheses) of numbers and named sizes: "N*N", "1/Nnzr".
    // `known`: the names a message lists when one is not a size (default: the keys of `sizes`).
    double as_expression(const std::map<std::string, double>& sizes, const std::vector<std::string>& known = {}) const;
    // The names an expression uses, in order of appearance (none for a number or a non-scalar).
    std::vector<std::string> expression_names() const;

    const std::string& path() const { return path_; }
    std::string location() const;  // "FILE:LINE:COL" of this node (FILE alone when unknown)
    std::string key_location(const std::string& key) const;  // of a map's key (of the map when absent)
    const std::string& file() const { return file_; }

private:
    YAML::Node node_;
    std::string file_;
    std::string path_;
};

// Parses every document of `text`; a syntax error becomes a SchemaError "FILE:LINE:COL: ...".
std::vector<YamlNode> parse_yaml_documents(const std::string& text, const std::string& file);
// Reads and parses a file (std::runtime_error naming the path when unreadable).
std::vector<YamlNode> read_yaml_file(const std::string& path);

} // namespace roofline
