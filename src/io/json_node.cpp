#include "io/json_node.hpp"

#include "io/text_file.hpp"

#include <algorithm>
#include <set>
#include <vector>

namespace roofline {
namespace {

// JSON allows a key twice in one object and nlohmann keeps the last: a
// hand-edited file would then silently lose the first value. The parser's
// SAX pass sees every key, so duplicates are refused with the object's path.
// A pass of its own, then the plain parse: nlohmann's parse with a callback
// scans the whole enclosing array after every object (quadratic in points).
class DuplicateKeyCheck final : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override {
        deeper();
        frames_.push_back({true, {}, {}, 0});
        return true;
    }
    bool start_array(std::size_t) override {
        deeper();
        frames_.push_back({false, {}, {}, 0});
        return true;
    }
    bool key(string_t& key) override {
        if (!frames_.empty()) {
            auto& top = frames_.back();
            top.key = key;
            if (!top.keys.insert(top.key).second)
                throw SchemaError(fmt::format("{}: {}: key \"{}\" appears twice in one object", source_,
                                              path_of_object(), top.key));
        }
        return true;
    }
    bool end_object() override { return end(); }
    bool end_array() override { return end(); }
    // Syntax errors are reported by the parse that follows, with its message.
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;      // the key being read (objects)
        std::size_t index;    // the element being read (arrays)
    };

    bool value() {
        next_element();
        return true;
    }
    bool end() {
        if (!frames_.empty()) frames_.pop_back();
        next_element();
        return true;
    }

    // Refused at the first level past the limit, so the parse that follows never
    // sees such a file (it keeps a frame per level: 20 MB of '[' took 23 s and 1.7 GB).
    void deeper() const {
        if (frames_.size() >= static_cast<std::size_t>(max_nesting_depth))
            throw SchemaError(fmt::format("{}: not valid JSON: {}", source_, json_depth_problem()));
    }

    void next_element() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    }

    // The JSON pointer of the innermost object (RFC 6901 escapes left out: for people).
    std::string path_of_object() const {
        std::string path;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
            path += frames_[i].object ? "/" + frames_[i].key : fmt::format("/{}", frames_[i].index);
        return path.empty() ? "/" : path;
    }

    const std::string& source_;
    std::vector<Frame> frames_;
};

// Counts levels only, and stops at the first past the limit or at a syntax error
// (which the parse that follows reports with its message).
class DepthCheck final : public nlohmann::json_sax<nlohmann::json> {
public:
    bool too_deep = false;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return deeper(); }
    bool start_array(std::size_t) override { return deeper(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return shallower(); }
    bool end_array() override { return shallower(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    bool deeper() {
        if (++depth_ > max_nesting_depth) too_deep = true;
        return !too_deep;
    }
    bool shallower() {
        --depth_;
        return true;
    }
    int depth_ = 0;
};

} // namespace

std::string json_depth_problem() {
    return fmt::format("nested more than {} levels deep (arrays and objects inside each other)", max_nesting_depth);
}

bool json_nested_too_deep(const std::string& text) {
    DepthCheck check;
    nlohmann::json::sax_parse(text, &check, nlohmann::json::input_format_t::json, false);
    return check.too_deep;
}

nlohmann::json parse_json_bounded(const std::string& text, const std::string& source) {
    if (json_nested_too_deep(text))
        throw SchemaError(fmt::format("{}: not valid JSON: {}", message_name(source), json_depth_problem()));
    return nlohmann::json::parse(text);
}

nlohmann::json read_json_file(const std::string& path) { return parse_json_text(read_text_file(path), path); }

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
    const std::string path = message_name(source);  // as quoted in messages
    // nlohmann stops at a NUL byte as at the end of input, so whatever follows
    // one would go unread; JSON never holds a raw NUL (in strings it is \u0000).
    if (const auto nul = text.find('\0'); nul != std::string::npos) {
        const auto line_start = text.rfind('\n', nul);
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
        const auto column = nul - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
        throw SchemaError(fmt::format("{}: not valid JSON: a NUL byte at line {}, column {} (byte offset {}); "
                                      "a JSON file holds text only",
                                      path, line, column, nul));
    }
    // An empty file (a run that died before writing, a '> file' that failed) read as nlohmann says
    // it: "parse error at line 1, column 1: syntax error while parsing value - unexpected end of
    // input; expected '[', '{', or a literal".
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw SchemaError(fmt::format("{}: not valid JSON: {}", path,
                                      text.empty() ? "the file is empty" : "the file holds only white space"));
    try {
        DuplicateKeyCheck check(path);
        nlohmann::json::sax_parse(text, &check);
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for numbers beyond a double
        // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 7: ...";
        // keep the part a user can act on.
        std::string_view detail = e.what();
        if (const auto bracket = detail.find("] "); bracket != std::string_view::npos) {
            detail.remove_prefix(bracket + 2);
        }
        throw SchemaError(fmt::format("{}: not valid JSON: {}", path, detail));
    }
}

} // namespace roofline
