// Arithmetic over counter values: `2*FP_ARITH.SCALAR_DOUBLE + 4*(A + B) / 2`.
// Numbers, names (letters, digits, '_', '.', ':'), + - * /, unary minus and
// parentheses. Parsed once, evaluated per region. Pure.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::measure {

struct FormulaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Formula {
public:
    // Throws FormulaError "formula 'TEXT': what was expected at column N".
    static Formula parse(const std::string& text);

    // Values of names; a name without a value throws FormulaError. x / 0 is NaN
    // (nothing counted), never an exception.
    double evaluate(const std::function<std::optional<double>(const std::string&)>& lookup) const;

    const std::string& text() const { return text_; }
    // Every name the formula reads, in order of first appearance.
    const std::vector<std::string>& names() const { return names_; }

    struct Node;

private:
    std::string text_;
    std::vector<std::string> names_;
    std::shared_ptr<const Node> root_;
};

} // namespace roofline::measure
