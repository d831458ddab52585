// One option's own check of its value, run by CLI11 wherever the value comes from:
// the command line (when it is parsed), a configuration file or a ROOFLINE_* variable
// (when layered_config loads it: the error then names FILE:LINE:COL, and `config show`
// marks the value INVALID). A check a command makes only when it runs cannot be seen
// by either, so a value's own range belongs here (issue 33).
#pragma once

#include "core/message_name.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace roofline::cli {

// What a value check throws: its message whole. (A message a CLI11 check returns is
// prefixed with the option's name, "--samples: --samples must be ...".)
struct OptionValueError : CLI::ParseError {
    explicit OptionValueError(const std::string& message)
        : CLI::ParseError(message, static_cast<int>(CLI::ExitCodes::ValidationError)) {}
};

// `why(text)` is "" for a good value, else the whole message. No description: --help
// and the manual show the value's type as before.
inline CLI::Validator value_check(std::function<std::string(const std::string&)> why) {
    return CLI::Validator(
        [why = std::move(why)](std::string& text) -> std::string {
            if (auto problem = why(text); !problem.empty()) throw OptionValueError(problem);
            return {};
        },
        "");
}

// Text that `parse` refuses (std::invalid_argument) is refused with its message, which CLI11
// prefixes with the option's name ("--sizes: 'bogus' ... is not a size").
template <class Parse>
CLI::Validator parsed_check(Parse parse) {
    return CLI::Validator(
        [parse](std::string& text) -> std::string {
            try {
                (void)parse(text);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return {};
        },
        "");
}

// An integer option's range, checked as the option is parsed (so a configured value too):
// text that is no whole number, or a whole number outside low..high (one too large for any
// integer, 99999999999999999999, included: it is not "too small", nor left to CLI11's bare
// "Could not convert"), is refused with the range and the text given. CLI11 puts the option's
// name first:
//   --samples: must be 1 to 1000 (got 0)
//   --threads: expects a whole number from 1 to 1048576 (got 'two')
// `unit` is written right after the range, as given (" characters", " runs, 0 for all").
// --help shows the range after the value's type: "--samples INT:1..1000".
inline CLI::Validator whole_number_range(long long low, long long high, std::string unit = "") {
    return CLI::Validator(
        [low, high, unit = std::move(unit)](std::string& text) -> std::string {
            const std::size_t digits_from = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
            const bool whole = text.size() > digits_from &&
                               text.find_first_not_of("0123456789", digits_from) == std::string::npos;
            if (!whole)
                return "expects a whole number from " + std::to_string(low) + " to " + std::to_string(high) + unit +
                       " (got '" + message_name(text) + "')";
            long long n = 0;
            const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
            const auto [end, error] = std::from_chars(begin, text.data() + text.size(), n);
            if (error == std::errc() && end == text.data() + text.size() && n >= low && n <= high) return {};
            return "must be " + std::to_string(low) + " to " + std::to_string(high) + unit + " (got " + text + ")";
        },
        std::to_string(low) + ".." + std::to_string(high));
}

// A number not strictly between low and high is refused with `message`; text that is
// no number is left to the option's conversion.
inline CLI::Validator number_between_check(double low, double high, std::string message) {
    return value_check([low, high, message = std::move(message)](const std::string& text) -> std::string {
        double x = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (error != std::errc() || end != text.data() + text.size()) return {};
        return x > low && x < high ? std::string() : message;
    });
}

// A number's own range, checked wherever the value comes from: `why(x, text)` is "" for a
// good value, else what is wrong, which CLI11 puts after the option's name ("--time-budget:
// must not be negative (got -1)"). The whole text must be a number as strtod reads it
// ("inf", "nan" and 1e400 included, so a range check sees them); other text is left to the
// option's conversion, which says so.
inline CLI::Validator number_check(std::function<std::string(double, const std::string&)> why) {
    return CLI::Validator(
        [why = std::move(why)](std::string& text) -> std::string {
            const char* begin = text.c_str();
            char* end = nullptr;
            const double x = std::strtod(begin, &end);
            if (text.empty() || end != begin + text.size()) return {};
            return why(x, text);
        },
        "");
}

// Text that is no number, or NaN, refused where CLI::Range keeps a floating-point option's
// range: Range compares `x < min || x > max`, which no NaN fails, so "nan" was taken
// (--min-share nan showed no function), and it calls "abc" a value "not in range". Added
// before the Range, whose "in [a - b]" stays in --help.
inline CLI::Validator a_number_check() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const char* begin = text.c_str();
            char* end = nullptr;
            const double x = std::strtod(begin, &end);
            if (text.empty() || end != begin + text.size() || std::isnan(x))
                return "expected a number, got '" + text + "'";
            return {};
        },
        "");
}

} // namespace roofline::cli
