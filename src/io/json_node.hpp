// A read-only view of one JSON node that knows its JSON-pointer path and the
// file it came from, so every schema error says exactly where it happened:
// "points.json: /points/3/bytes/L1: expected a number, found string".
// Shared by the readers of versioned JSON (machine models, points).
#pragma once

#include "core/message_name.hpp"

#include "core/input_limits.hpp"
#include "io/machine_json.hpp"  // SchemaError

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace roofline {

class JsonNode {
public:
    JsonNode(const nlohmann::json& value, std::string path, const std::string& source)
        : value_(value), path_(std::move(path)), source_(source) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw SchemaError(fmt::format("{}: {}: {}", message_name(source_), path_.empty() ? "/" : path_, what));
    }
    [[noreturn]] void expected(std::string_view kind) const {
        fail(fmt::format("expected {}, found {}", kind, describe(value_)));
    }

    const nlohmann::json& value() const { return value_; }
    const std::string& path() const { return path_; }

    JsonNode child(const std::string& key) const {
        return JsonNode(value_.at(key), path_ + "/" + escape_pointer(key), source_);
    }
    JsonNode element(std::size_t index) const {
        return JsonNode(value_.at(index), fmt::format("{}/{}", path_, index), source_);
    }

    const JsonNode& require_object() const {
        if (!value_.is_object()) expected("an object");
        return *this;
    }
    const JsonNode& require_array() const {
        if (!value_.is_array()) expected("an array");
        return *this;
    }
    std::size_t size() const { return value_.size(); }
    bool has(const std::string& key) const { return value_.is_object() && value_.contains(key); }

    JsonNode required(const std::string& key, std::string_view kind) const {
        if (!has(key)) {
            JsonNode(value_, path_ + "/" + escape_pointer(key), source_)
                .fail(fmt::format("missing (expected {})", kind));
        }
        return child(key);
    }

    // The document's "schema" must be exactly `schema`; `kind` names what such a file is
    // ("roofline machine model") so a wrong file says what was expected. Returns it.
    std::string require_schema(std::string_view schema, std::string_view kind) const {
        require_object();
        const auto node = required("schema", fmt::format("\"{}\"", schema));
        auto found = node.as_string();
        if (found != schema) {
            node.fail(fmt::format("expected \"{}\", found \"{}\" (not a {}, or written by an incompatible version)",
                                  schema, message_excerpt(found), kind));
        }
        return found;
    }

    // The document's "units" block, where it has one, must say of each figure `ours` names
    // what `ours` says: a file whose figures are in other units (GiB/s, ms: converted by hand
    // or by another tool) would be read wrong by that factor without a word. Keys `ours`
    // does not name are figures this reader does not read, and left alone.
    void require_units(const nlohmann::json& ours) const {
        if (!has("units")) return;
        const JsonNode units = child("units");
        units.require_object();
        for (const auto& [key, unit] : ours.items()) {
            if (!units.has(key)) continue;
            const JsonNode given = units.child(key);
            if (given.value() != unit)
                given.fail(fmt::format("the figures are said to be in {}, but this reader takes {} as {}: convert "
                                       "them and write the unit as roofline does, or leave the units block out",
                                       given.value().dump(), key, unit.dump()));
        }
    }

    std::string as_string() const {
        if (!value_.is_string()) expected("a string");
        return value_.get<std::string>();
    }
    std::string as_nonempty_string() const {
        auto text = as_string();
        if (text.empty()) fail("expected a non-empty string, found \"\"");
        return text;
    }
    // Strict: null is not a number here (measured work has no "unknown").
    double as_finite() const {
        if (!value_.is_number()) expected("a number");
        const double v = value_.get<double>();
        if (!std::isfinite(v)) fail("expected a finite number");
        return v;
    }
    // A figure the model believes only inside `range` (core/input_limits.hpp).
    double as_figure(const FigureRange& range) const {
        if (!value_.is_number()) expected("a number");
        const double v = value_.get<double>();
        if (!in_range(range, v))
            fail(fmt::format("expected {}, found {:g}", range.what, v));
        return v;
    }
    // The same, where null or 0 is the writer's "unknown" (read as NaN and 0).
    double as_figure_or_unknown(const FigureRange& range) const {
        if (value_.is_null()) return std::numeric_limits<double>::quiet_NaN();
        if (value_.is_number() && value_.get<double>() == 0) return 0;
        return as_figure(range);
    }
    // An integer from `low` to `high`.
    int as_int_in(int low, int high) const {
        const auto v = as_int64();
        if (v < low || v > high) fail(fmt::format("expected an integer from {} to {}, found {}", low, high, v));
        return static_cast<int>(v);
    }
    std::int64_t as_int64() const {
        if (value_.is_number_unsigned()) {
            const auto v = value_.get<std::uint64_t>();
            if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                expected("an integer in range");
            }
            return static_cast<std::int64_t>(v);
        }
        if (value_.is_number_integer()) return value_.get<std::int64_t>();
        // Hand-written files sometimes say 4.0 or 32768.0; accept whole numbers.
        if (value_.is_number_float()) {
            const double v = value_.get<double>();
            if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15) {
                return static_cast<std::int64_t>(v);
            }
        }
        expected("an integer");
    }
    int as_int() const {
        const auto v = as_int64();
        if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
            expected("an integer in range");
        }
        return static_cast<int>(v);
    }
    std::uint64_t as_uint64() const {
        if (value_.is_number_unsigned()) return value_.get<std::uint64_t>();
        const auto v = as_int64();
        if (v < 0) fail(fmt::format("expected a non-negative integer, found {}", v));
        return static_cast<std::uint64_t>(v);
    }
    bool as_bool() const {
        if (!value_.is_boolean()) expected("a boolean");
        return value_.get<bool>();
    }

private:
    static std::string describe(const nlohmann::json& j) {
        if (j.is_number_integer()) return "integer";
        if (j.is_number_float()) return "number";
        return j.type_name();  // "string", "object", "array", "boolean", "null"
    }

    // RFC 6901: "~" -> "~0", "/" -> "~1".
    static std::string escape_pointer(const std::string& key) {
        std::string out;
        for (char ch : key) {
            if (ch == '~') out += "~0";
            else if (ch == '/') out += "~1";
            else out += ch;
        }
        return out;
    }

    const nlohmann::json& value_;
    std::string path_;
    const std::string& source_;
};

// Reads and parses a whole JSON file. Throws std::runtime_error when the file
// cannot be read, SchemaError "PATH: not valid JSON: parse error at line L, column C: ..."
// when it is not JSON.
nlohmann::json read_json_file(const std::string& path);
// The same for text already read from `source`.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// JSON nested deeper than max_nesting_depth (core/input_limits.hpp) is refused
// before it is parsed: parse_json_text does it; every other parse of text we did
// not write in this process goes through one of these two.
// Whether `text` nests deeper than that: a SAX pass that stops at the first level past the
// limit (or at a syntax error, left to the parse that follows to report).
bool json_nested_too_deep(const std::string& text);
// "nested more than 200 levels deep (...)", for messages.
std::string json_depth_problem();
// nlohmann::json::parse(text) after that check: SchemaError "SOURCE: not valid
// JSON: nested more than ..." when too deep, nlohmann's exceptions otherwise.
nlohmann::json parse_json_bounded(const std::string& text, const std::string& source);

} // namespace roofline
