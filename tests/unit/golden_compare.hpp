// Comparing rendered output with a golden file by structure and numbers:
// colours are masked (a palette change is not a regression), numbers compare
// within one unit of their last printed digit (rounding may differ between
// compilers and CPUs), and everything else must match exactly.
#pragma once

#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace roofline::test {

// Hex colours, colour attributes and CSS colour properties become "COLOUR";
// terminal colour escapes are dropped.
inline std::string mask_colours(const std::string& text) {
    static const std::regex hex("#[0-9a-fA-F]{6}\\b|#[0-9a-fA-F]{3}\\b");
    static const std::regex attribute("\\b(fill|stroke|color|stop-color)=\"[^\"]*\"");
    static const std::regex css("\\b(fill|stroke|color|background|background-color)\\s*:\\s*[^;\"}]+");
    static const std::regex ansi("\x1b\\[[0-9;]*m");
    std::string out = std::regex_replace(text, ansi, "");
    out = std::regex_replace(out, hex, "#COLOUR");
    out = std::regex_replace(out, attribute, "$1=\"COLOUR\"");
    return std::regex_replace(out, css, "$1:COLOUR");
}

struct GoldenToken {
    std::string text;
    bool number = false;
};

// Text split into numbers ("-12.5", "3e+06") and the runs between them.
inline std::vector<GoldenToken> golden_tokens(const std::string& text) {
    static const std::regex number("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
    std::vector<GoldenToken> out;
    std::size_t last = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), number), end; it != end; ++it) {
        const auto at = static_cast<std::size_t>(it->position());
        if (at > last) out.push_back({text.substr(last, at - last), false});
        out.push_back({it->str(), true});
        last = at + it->length();
    }
    if (last < text.size()) out.push_back({text.substr(last), false});
    return out;
}

// One unit of the last digit printed: "12.50" -> 0.01, "400" -> 1, "1e-05" -> 1e-05.
inline double last_digit_unit(const std::string& number) {
    const auto e = number.find_first_of("eE");
    const std::string mantissa = number.substr(0, e);
    const auto dot = mantissa.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
    const int exponent = e == std::string::npos ? 0 : std::atoi(number.c_str() + e + 1);
    return std::pow(10.0, exponent - decimals);
}

// nullopt when `actual` matches `expected`; else where and how they differ.
inline std::optional<std::string> golden_difference(const std::string& expected, const std::string& actual) {
    const auto want = golden_tokens(mask_colours(expected));
    const auto got = golden_tokens(mask_colours(actual));
    std::string context;
    for (std::size_t i = 0; i < want.size() && i < got.size(); ++i) {
        const auto& w = want[i];
        const auto& g = got[i];
        const bool same = w.number && g.number
                              ? std::fabs(std::strtod(w.text.c_str(), nullptr) - std::strtod(g.text.c_str(), nullptr)) <=
                                    1.0001 * std::max(last_digit_unit(w.text), last_digit_unit(g.text))
                              : w.text == g.text && w.number == g.number;
        if (!same)
            return "after ..." + context + "\n  expected: " + w.text.substr(0, 160) + "\n  actual:   " + g.text.substr(0, 160);
        context = (context + w.text);
        if (context.size() > 120) context = context.substr(context.size() - 120);
    }
    if (want.size() != got.size())
        return "after ..." + context + "\n  one ends early (" + std::to_string(want.size()) + " vs " +
               std::to_string(got.size()) + " tokens)";
    return std::nullopt;
}

} // namespace roofline::test
