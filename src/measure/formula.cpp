#include "measure/formula.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace roofline::measure {

struct Formula::Node {
    char op = 0;  // '+', '-', '*', '/', 'n' (negate), 'c' (constant), 'v' (name)
    double value = 0;
    std::string name;
    std::shared_ptr<const Node> left, right;
};

namespace {

using NodePtr = std::shared_ptr<const Formula::Node>;

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':';
}

class Parser {
public:
    Parser(const std::string& text, std::vector<std::string>& names) : s_(text), names_(names) {}

    NodePtr parse() {
        // The parser, the evaluation and the tree's destruction recurse: bound
        // the text (event formulas are one line) and the nesting.
        if (s_.size() > max_length)
            throw FormulaError(fmt::format("formula of {} characters: longer than {} ('{}...')", s_.size(), max_length,
                                           s_.substr(0, 40)));
        auto node = expression();
        skip_space();
        if (pos_ != s_.size()) fail("an operator or the end");
        return node;
    }

private:
    [[noreturn]] void fail(const char* expected) const {
        throw FormulaError(fmt::format("formula '{}': expected {} at column {}", s_, expected, pos_ + 1));
    }
    void skip_space() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    bool accept(char c) {
        skip_space();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    static NodePtr binary(char op, NodePtr l, NodePtr r) {
        auto n = std::make_shared<Formula::Node>();
        n->op = op;
        n->left = std::move(l);
        n->right = std::move(r);
        return n;
    }
    NodePtr expression() {
        auto node = term();
        for (;;) {
            if (accept('+')) node = binary('+', node, term());
            else if (accept('-')) node = binary('-', node, term());
            else return node;
        }
    }
    NodePtr term() {
        auto node = unary();
        for (;;) {
            if (accept('*')) node = binary('*', node, unary());
            else if (accept('/')) node = binary('/', node, unary());
            else return node;
        }
    }
    NodePtr unary() {
        const DepthGuard guard(*this);
        if (accept('-')) return binary('n', unary(), nullptr);
        if (accept('+')) return unary();
        return primary();
    }
    NodePtr primary() {
        skip_space();
        if (accept('(')) {  // nesting counted in unary(), which every '(' passes through
            auto node = expression();
            if (!accept(')')) fail("')'");
            return node;
        }
        if (pos_ >= s_.size()) fail("a number, a name or '('");
        const char c = s_[pos_];
        auto n = std::make_shared<Formula::Node>();
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = s_.c_str() + pos_;
            char* end = nullptr;
            n->op = 'c';
            n->value = std::strtod(begin, &end);
            if (end == begin) fail("a number");
            pos_ += static_cast<std::size_t>(end - begin);
            if (pos_ < s_.size() && is_name_char(s_[pos_])) fail("an operator after the number");
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = pos_;
            while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
            n->op = 'v';
            n->name = s_.substr(start, pos_ - start);
            if (std::find(names_.begin(), names_.end(), n->name) == names_.end()) names_.push_back(n->name);
            return n;
        }
        fail("a number, a name or '('");
    }

    static constexpr std::size_t max_length = 1000;
    static constexpr int max_depth = 100;

    struct DepthGuard {
        explicit DepthGuard(Parser& p) : parser(p) {
            if (++parser.depth_ > max_depth) parser.fail("at most 100 nested signs or parentheses");
        }
        ~DepthGuard() { --parser.depth_; }
        Parser& parser;
    };

    const std::string& s_;
    std::vector<std::string>& names_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

double eval(const Formula::Node& n, const std::function<std::optional<double>(const std::string&)>& lookup,
            const std::string& text) {
    switch (n.op) {
    case 'c': return n.value;
    case 'v': {
        const auto v = lookup(n.name);
        if (!v) throw FormulaError(fmt::format("formula '{}': no value for '{}'", text, n.name));
        return *v;
    }
    case 'n': return -eval(*n.left, lookup, text);
    default: break;
    }
    const double l = eval(*n.left, lookup, text);
    const double r = eval(*n.right, lookup, text);
    switch (n.op) {
    case '+': return l + r;
    case '-': return l - r;
    case '*': return l * r;
    default: return r == 0 ? std::numeric_limits<double>::quiet_NaN() : l / r;
    }
}

} // namespace

Formula Formula::parse(const std::string& text) {
    Formula f;
    f.text_ = text;
    Parser parser(f.text_, f.names_);
    f.root_ = parser.parse();
    return f;
}

double Formula::evaluate(const std::function<std::optional<double>(const std::string&)>& lookup) const {
    return eval(*root_, lookup, text_);
}

} // namespace roofline::measure
