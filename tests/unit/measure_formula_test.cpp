#include "measure/formula.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>

using roofline::measure::Formula;
using roofline::measure::FormulaError;

namespace {

double eval(const std::string& text, const std::map<std::string, double>& values = {}) {
    return Formula::parse(text).evaluate([&](const std::string& n) -> std::optional<double> {
        const auto it = values.find(n);
        if (it == values.end()) return std::nullopt;
        return it->second;
    });
}

} // namespace

TEST(MeasureFormula, PrecedenceAndParentheses) {
    EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7);
    EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9);
    EXPECT_DOUBLE_EQ(eval("8 / 4 / 2"), 1);
    EXPECT_DOUBLE_EQ(eval("10 - 4 - 3"), 3);
    EXPECT_DOUBLE_EQ(eval("-2 * -3"), 6);
    EXPECT_DOUBLE_EQ(eval("1.5e3 + .5"), 1500.5);
}

TEST(MeasureFormula, EventNamesWithDotsAndColons) {
    const std::map<std::string, double> v = {{"FP_ARITH_INST_RETIRED.SCALAR_DOUBLE", 10},
                                             {"FP_ARITH:256B_PACKED_DOUBLE", 5}};
    EXPECT_DOUBLE_EQ(eval("2*FP_ARITH_INST_RETIRED.SCALAR_DOUBLE + 4*FP_ARITH:256B_PACKED_DOUBLE", v), 40);
    const auto f = Formula::parse("a + b * a");
    EXPECT_EQ(f.names(), (std::vector<std::string>{"a", "b"}));
}

TEST(MeasureFormula, DivisionByZeroIsNaN) { EXPECT_TRUE(std::isnan(eval("1 / (2 - 2)"))); }

TEST(MeasureFormula, Errors) {
    EXPECT_THROW(Formula::parse(""), FormulaError);
    EXPECT_THROW(Formula::parse("1 +"), FormulaError);
    EXPECT_THROW(Formula::parse("(1 + 2"), FormulaError);
    EXPECT_THROW(Formula::parse("1 2"), FormulaError);
    EXPECT_THROW(Formula::parse("2x"), FormulaError);
    EXPECT_THROW(Formula::parse("a $ b"), FormulaError);
    try {
        Formula::parse("1 + * 2");
        FAIL();
    } catch (const FormulaError& e) {
        EXPECT_NE(std::string(e.what()).find("column 5"), std::string::npos) << e.what();
    }
    EXPECT_THROW(eval("missing + 1"), FormulaError);
}

// Found by fuzzing: the recursive parser overflowed the stack on deep nesting.
TEST(MeasureFormula, DeepNestingAndLongFormulasAreRefused) {
    EXPECT_THROW(Formula::parse(std::string(10000, '(') + "1" + std::string(10000, ')')), FormulaError);
    EXPECT_THROW(Formula::parse(std::string(100000, '-') + "1"), FormulaError);
    std::string sum = "a";
    for (int i = 0; i < 100000; ++i) sum += "+a";
    EXPECT_THROW(Formula::parse(sum), FormulaError);
    // Ordinary depth still works.
    EXPECT_DOUBLE_EQ(Formula::parse(std::string(50, '(') + "2" + std::string(50, ')')).evaluate(
                         [](const std::string&) { return std::optional<double>(); }),
                     2);
}
