#include "io/yaml_node.hpp"

#include "core/message_name.hpp"

#include "core/byte_sizes.hpp"
#include "core/input_limits.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>


namespace roofline {
namespace {

std::string where_at(const std::string& file, const YAML::Mark& mark) {
    if (mark.is_null()) return file;
    return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

std::string describe(const YAML::Node& n) {
    switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return fmt::format("'{}'", message_excerpt(n.Scalar()));
    default: return "an undefined value";
    }
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::optional<double> parse_number(const std::string& text) {
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

bool starts_number(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }
bool in_name(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Arithmetic over numbers and named sizes: + - * / and parentheses, enough for
// counts such as N*N*K, 2*M*N or 2/b1 - 2/b.
class ExpressionParser {
public:
    ExpressionParser(const std::string& text, const std::map<std::string, double>& sizes,
                     const std::vector<std::string>& known, std::function<void(const std::string&)> fail)
        : text_(text), sizes_(sizes), known_(known), fail_(std::move(fail)) {}

    double parse() {
        const double v = sum();
        skip_spaces();
        if (at_ < text_.size()) error(fmt::format("unexpected '{}'", shortened(text_.substr(at_))));
        if (!std::isfinite(v)) error("its value overflows a double (|x| > 1.8e308) or is undefined");
        return v;
    }

private:
    double sum() {
        double v = product();
        for (;;) {
            skip_spaces();
            if (accept('+')) v += product();
            else if (accept('-')) v -= product();
            else return v;
        }
    }
    double product() {
        double v = factor();
        for (;;) {
            skip_spaces();
            if (accept('*')) {
                v *= factor();
            } else if (accept('/')) {
                const double divisor = factor();
                if (divisor == 0) error("division by zero");
                v /= divisor;
            } else {
                return v;
            }
        }
    }
    double factor() {
        skip_spaces();
        if (accept('-')) return -nested([&] { return factor(); });
        if (accept('(')) {
            const double v = nested([&] { return sum(); });
            skip_spaces();
            if (!accept(')')) error("missing ')'");
            return v;
        }
        if (at_ < text_.size() && starts_number(text_[at_])) {
            char* end = nullptr;
            const double v = std::strtod(text_.c_str() + at_, &end);
            at_ = static_cast<std::size_t>(end - text_.c_str());
            return v;
        }
        const std::size_t begin = at_;
        while (at_ < text_.size() && in_name(text_[at_])) ++at_;
        const std::string name = text_.substr(begin, at_ - begin);
        if (name.empty()) error(at_ < text_.size() ? fmt::format("unexpected '{}'", shortened(text_.substr(at_))) : "it ends too early");
        const auto it = sizes_.find(name);
        if (it == sizes_.end()) {
            std::string known;
            if (known_.empty())
                for (const auto& [size, _] : sizes_) known += (known.empty() ? "" : ", ") + size;
            for (const auto& size : known_) known += (known.empty() ? "" : ", ") + size;
            error(fmt::format("'{}' is not a size ({})", name,
                              known.empty() ? "no 'sizes:' map defines any" : "sizes: " + known));
        }
        return it->second;
    }
    // Parentheses and signs nest by recursion: bounded, so that no input can overflow the stack.
    static constexpr int kMaxDepth = 200;
    template <class Parse>
    double nested(const Parse& parse) {
        if (++depth_ > kMaxDepth) error(fmt::format("nested more than {} deep", kMaxDepth));
        const double v = parse();
        --depth_;
        return v;
    }
    static std::string shortened(const std::string& text) { return message_excerpt(text); }
    void skip_spaces() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    }
    bool accept(char c) {
        if (at_ < text_.size() && text_[at_] == c) return ++at_, true;
        return false;
    }
    [[noreturn]] void error(const std::string& what) {
        fail_(fmt::format("expected a number or arithmetic of sizes, found '{}': {}", shortened(text_), what));
        std::abort();  // fail_ throws
    }

    const std::string& text_;
    const std::map<std::string, double>& sizes_;
    const std::vector<std::string>& known_;
    std::function<void(const std::string&)> fail_;
    std::size_t at_ = 0;
    int depth_ = 0;
};

// Walks a document once: a key twice in one mapping is refused (yaml-cpp keeps
// both and lookups see the first, so an edit further down would silently not
// count), and so is a document that expands to more nodes than any spec needs
// (aliases can make a few lines stand for billions of nodes).
class DocumentCheck {
public:
    explicit DocumentCheck(const std::string& file) : file_(file) {}

    void visit(const YAML::Node& node, int depth) {
        if (++nodes_ > max_nodes)
            throw SchemaError(fmt::format("{}: more than {} YAML nodes (are aliases expanding it?)", file_, max_nodes));
        if (depth > max_depth)
            throw SchemaError(fmt::format("{}: nested more than {} levels deep", where_at(file_, node.Mark()), max_depth));
        if (node.IsSequence()) {
            for (const auto& item : node) visit(item, depth + 1);
        } else if (node.IsMap()) {
            std::set<std::string> keys;
            for (const auto& item : node) {
                const std::string key = item.first.IsScalar() ? item.first.Scalar() : std::string();
                if (item.first.IsScalar() && !keys.insert(key).second)
                    throw SchemaError(fmt::format("{}: key '{}' appears twice in one mapping",
                                                  where_at(file_, item.first.Mark()), key));
                visit(item.second, depth + 1);
            }
        }
    }

private:
    static constexpr long max_nodes = 1'000'000;
    static constexpr int max_depth = max_nesting_depth;
    const std::string& file_;
    long nodes_ = 0;
};

// yaml-cpp 0.7 (Debian 12's) loops forever in LoadAll, allocating a null
// document per turn, when a document starts with a token no node can begin with
// (",", or a ',' after a top-level flow collection: "{a: 1}\n, b"): the parser
// reports a new document without consuming anything (yaml-cpp issues #1040 and
// pull request #1319, fixed upstream in 0.8.1). This walk sees the same events
// without building nodes and refuses a document that starts where the one
// before it started, so LoadAll is only called on text it finishes.
// It also refuses nesting past max_nesting_depth where it starts, with its line:
// yaml-cpp's own guard (2000 levels) only says "bad file".
class DocumentProgress : public YAML::EventHandler {
public:
    DocumentProgress(const std::string& text, const std::string& file) : text_(text), file_(file) {}

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (documents_ > 0 && mark.pos == last_start_) {
            const char c = mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < text_.size() ? text_[mark.pos] : '?';
            const std::string what = std::isprint(static_cast<unsigned char>(c)) ? fmt::format("'{}'", c)
                                                                                  : fmt::format("byte 0x{:02x}", c);
            throw SchemaError(fmt::format("{}: invalid YAML: unexpected {} where a value should start", where_at(file_, mark), what));
        }
        if (++documents_ > max_documents)
            throw SchemaError(fmt::format("{}: more than {} YAML documents", file_, max_documents));
        last_start_ = mark.pos;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        deeper(mark);
    }
    void OnSequenceEnd() override { --depth_; }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        deeper(mark);
    }
    void OnMapEnd() override { --depth_; }

private:
    void deeper(const YAML::Mark& mark) {
        if (++depth_ > max_nesting_depth)
            throw SchemaError(fmt::format("{}: nested more than {} levels deep", where_at(file_, mark), max_nesting_depth));
    }

    static constexpr long max_documents = 10'000;
    const std::string& text_;
    const std::string& file_;
    long documents_ = 0;
    int last_start_ = -1;
    int depth_ = 0;
};

// yaml-cpp's scanner reads a flow collection's tokens ahead of its parser (a '[' may
// start a key whose ':' comes later), so the depth check of DocumentProgress came only
// after 20 MB of '[' had taken 11 s and 4.7 GB. Flow nesting is therefore counted on
// the text first: '[' and '{' where a node can start (first on a line, or after '[',
// '{', ',', or an indicator ':', '-', '?' and a blank), less ']' and '}'; comments,
// quoted scalars and block scalars (| and >) are skipped. This follows YAML's grammar
// only as far as counting needs: it can only be wrong about text that opens hundreds
// of brackets where a node starts.
void check_flow_depth(const std::string& text, const std::string& file) {
    const auto blank = [&](std::size_t at) {
        return at >= text.size() || text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n';
    };
    int depth = 0;
    bool node_start = true;       // a node may start at the next character that is not blank
    std::size_t line_start = 0;   // where the line of `i` starts
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            line_start = i + 1;
            node_start = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') continue;
        if (c == '#' && (i == line_start || blank(i - 1))) {  // a comment, to the end of the line
            i = std::min(text.find('\n', i), text.size()) - 1;
            continue;
        }
        if (node_start && (c == '"' || c == '\'')) {  // a quoted scalar: '' or \" inside
            std::size_t at = i + 1;
            while (at < text.size()) {
                if (c == '"' && text[at] == '\\') at += 2;
                else if (text[at] == c && c == '\'' && at + 1 < text.size() && text[at + 1] == '\'') at += 2;
                else if (text[at] == c) break;
                else ++at;
            }
            for (std::size_t k = i; k < std::min(at, text.size()); ++k)
                if (text[k] == '\n') line_start = k + 1;
            i = std::min(at, text.size());
            node_start = false;
            continue;
        }
        if (node_start && depth == 0 && (c == '|' || c == '>')) {  // a block scalar: its more indented lines
            std::size_t indent = i;
            for (std::size_t k = line_start; k < i; ++k)
                if (text[k] != ' ') {
                    indent = k;
                    break;
                }
            const std::size_t own = indent - line_start;
            std::size_t next = text.find('\n', i);
            while (next != std::string::npos) {
                std::size_t k = next + 1;
                while (k < text.size() && text[k] == ' ') ++k;
                if (k < text.size() && text[k] != '\n' && k - (next + 1) <= own) break;  // a line not inside it
                next = text.find('\n', next + 1);
            }
            i = (next == std::string::npos ? text.size() : next) - 1;
            continue;
        }
        if (node_start && (c == '[' || c == '{')) {
            if (++depth > max_nesting_depth) {
                const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n');
                throw SchemaError(fmt::format("{}:{}:{}: nested more than {} levels deep", file, line, i - line_start + 1,
                                              max_nesting_depth));
            }
            continue;
        }
        if ((c == ']' || c == '}') && depth > 0) {
            --depth;
            node_start = false;
            continue;
        }
        node_start = (c == ',' && depth > 0) || ((c == ':' || c == '-' || c == '?') && blank(i + 1)) ||
                     (c == ':' && depth > 0);
    }
}

void check_parser_finishes(const std::string& text, const std::string& file) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentProgress progress(text, file);
    try {
        while (parser.HandleNextDocument(progress)) {
        }
    } catch (const YAML::Exception&) {
        // LoadAll, called next, reports the same error with its message.
    }
}

} // namespace

YamlNode::YamlNode(YAML::Node node, std::string file, std::string path)
    : node_(std::move(node)), file_(message_name(file)), path_(std::move(path)) {}

std::string YamlNode::location() const { return where_at(file_, node_.Mark()); }

void YamlNode::fail(const std::string& what) const {
    const std::string where = path_.empty() ? "" : path_ + ": ";
    throw SchemaError(fmt::format("{}: {}{}", where_at(file_, node_.Mark()), where, what));
}

void YamlNode::expected(const std::string& kind) const { fail(fmt::format("expected {}, found {}", kind, describe(node_))); }

const YamlNode& YamlNode::require_map() const {
    if (!node_.IsMap()) expected("a mapping (key: value lines)");
    return *this;
}

const YamlNode& YamlNode::require_sequence() const {
    if (!node_.IsSequence()) expected("a list");
    return *this;
}

bool YamlNode::has(const std::string& key) const { return node_.IsMap() && node_[key].IsDefined(); }

YamlNode YamlNode::child(const std::string& key) const {
    return YamlNode(node_[key], file_, path_.empty() ? key : path_ + "." + key);
}

YamlNode YamlNode::required(const std::string& key, const std::string& kind) const {
    require_map();
    if (!has(key)) fail(fmt::format("missing '{}' (expected {})", key, kind));
    return child(key);
}

std::optional<YamlNode> YamlNode::optional(const std::string& key) const {
    if (!has(key)) return std::nullopt;
    return child(key);
}

void YamlNode::allow_only(std::initializer_list<const char*> keys) const {
    require_map();
    for (const auto& item : node_) {
        const std::string key = item.first.Scalar();
        if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return key == k; }) != keys.end()) continue;
        std::string known;
        for (const char* k : keys) known += (known.empty() ? "" : ", ") + std::string(k);
        YamlNode(item.first, file_, path_).fail(fmt::format("unknown key '{}' (expected one of: {})", key, known));
    }
}

std::vector<YamlNode> YamlNode::elements() const {
    require_sequence();
    std::vector<YamlNode> out;
    std::size_t index = 0;
    for (const auto& item : node_) out.emplace_back(item, file_, fmt::format("{}[{}]", path_, index++));
    return out;
}

std::string YamlNode::key_location(const std::string& key) const {
    if (node_.IsMap())
        for (const auto& item : node_)
            if (item.first.IsScalar() && item.first.Scalar() == key) return where_at(file_, item.first.Mark());
    return location();
}

std::vector<std::pair<std::string, YamlNode>> YamlNode::entries() const {
    require_map();
    std::vector<std::pair<std::string, YamlNode>> out;
    for (const auto& item : node_) {
        const std::string key = item.first.Scalar();
        out.emplace_back(key, YamlNode(item.second, file_, path_.empty() ? key : path_ + "." + key));
    }
    return out;
}

std::string YamlNode::as_string() const {
    if (!node_.IsScalar()) expected("text");
    return node_.Scalar();
}

double YamlNode::as_number() const {
    if (node_.IsScalar())
        if (const auto v = parse_number(node_.Scalar())) return *v;
    expected("a number");
}

int YamlNode::as_int() const {
    const double v = as_number();
    if (v != std::floor(v) || std::fabs(v) > 2e9) expected("a whole number");
    return static_cast<int>(v);
}

bool YamlNode::as_bool() const {
    if (node_.IsScalar()) {
        const std::string s = node_.Scalar();
        if (s == "true" || s == "yes" || s == "on") return true;
        if (s == "false" || s == "no" || s == "off") return false;
    }
    expected("true or false");
}

std::uint64_t YamlNode::as_bytes() const {
    if (!node_.IsScalar()) expected("a size such as 32768 or 32KiB");
    try {
        return parse_bytes(trim(node_.Scalar()));
    } catch (const std::invalid_argument&) {
        expected("a size such as 32768 or 32KiB");
    }
}

double YamlNode::as_expression(const std::map<std::string, double>& sizes,
                               const std::vector<std::string>& known) const {
    if (!node_.IsScalar()) expected("a number or an expression of sizes such as N*N or 1/N");
    const std::string text = node_.Scalar();
    if (const auto v = parse_number(text)) return *v;
    ExpressionParser parser{text, sizes, known, [this](const std::string& what) { fail(what); }};
    return parser.parse();
}

std::vector<std::string> YamlNode::expression_names() const {
    std::vector<std::string> names;
    if (!node_.IsScalar() || parse_number(node_.Scalar())) return names;
    // Tokens as ExpressionParser::factor reads them: a number (1e5 included) is skipped whole.
    const std::string& text = node_.Scalar();
    for (std::size_t at = 0; at < text.size();) {
        if (starts_number(text[at])) {
            char* end = nullptr;
            std::strtod(text.c_str() + at, &end);
            at = std::max(at + 1, static_cast<std::size_t>(end - text.c_str()));
        } else if (in_name(text[at])) {
            const std::size_t begin = at;
            while (at < text.size() && in_name(text[at])) ++at;
            names.push_back(text.substr(begin, at - begin));
        } else {
            ++at;
        }
    }
    return names;
}

std::vector<YamlNode> parse_yaml_documents(const std::string& text, const std::string& source) {
    const std::string file = message_name(source);  // as quoted in messages
    // YAML text holds no NUL (it is outside YAML's character set), and yaml-cpp 0.7
    // reads one in a plain scalar as an escape (a plain scalar's "no escape" character
    // is '\0'): NUL then "arrays" became the escape \a (BEL) then "rrays", and NUL
    // then "x" a failed hex escape.
    if (const auto nul = text.find('\0'); nul != std::string::npos) {
        const auto line_start = text.rfind('\n', nul);
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
        const auto column = nul - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
        throw SchemaError(fmt::format("{}:{}:{}: invalid YAML: a NUL byte (byte offset {}); YAML text cannot hold one",
                                      file, line, column, nul));
    }
    check_flow_depth(text, file);
    check_parser_finishes(text, file);
    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(text);
    } catch (const YAML::DeepRecursion& e) {  // not reached past the check above; its message is "bad file"
        throw SchemaError(fmt::format("{}: nested more than {} levels deep", where_at(file, e.mark), max_nesting_depth));
    } catch (const YAML::Exception& e) {
        throw SchemaError(fmt::format("{}: invalid YAML: {}", where_at(file, e.mark), e.msg));
    }
    std::vector<YamlNode> out;
    DocumentCheck check(file);
    for (auto& d : documents) {
        if (d.IsNull()) continue;
        check.visit(d, 0);
        out.emplace_back(d, file, "");
    }
    if (out.empty()) throw SchemaError(fmt::format("{}: the file is empty (expected YAML)", file));
    return out;
}

std::vector<YamlNode> read_yaml_file(const std::string& path) { return parse_yaml_documents(read_text_file(path), path); }

} // namespace roofline
