#include "render/number_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace roofline {

namespace {

// "-0", "-0.0", "-0.00e+00", "-0.0%": a negative zero, or a small negative number rounded to
// zero, reads as a negative quantity; it is zero.
std::string without_negative_zero(std::string text) {
    if (!text.empty() && text[0] == '-' && text.find_first_of("123456789") == std::string::npos) text.erase(0, 1);
    return text;
}

} // namespace

std::string format_number(double value) {
    if (!std::isfinite(value)) return "n/a";
    const double magnitude = std::fabs(value);
    if (magnitude == 0) return "0";
    if (magnitude >= 1e5 || magnitude < 1e-3) return fmt::format("{:.2e}", value);
    if (magnitude >= 100) return without_negative_zero(fmt::format("{:.0f}", value));
    const int decimals = 2 - static_cast<int>(std::floor(std::log10(magnitude)));
    return without_negative_zero(fmt::format("{:.{}f}", value, decimals));
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return "n/a";
    return without_negative_zero(fmt::format("{:.6g}", value));
}

std::string format_quantity(double value) {
    if (!std::isfinite(value)) return "n/a";
    const double magnitude = std::fabs(value);
    if (magnitude < 999.5) return format_number(value);  // 999.6 would read "1000"
    static constexpr const char* prefixes[] = {"k", "M", "G", "T", "P"};
    double scaled = value;
    for (const char* prefix : prefixes) {
        scaled /= 1000;
        // 999.96 k rounds to "1000 k": the next prefix reads better.
        // 999.96 k became 0.99996 M: it reads 1.00 M.
        if (std::fabs(scaled) < 1) scaled = std::copysign(1.0, scaled);
        if (std::fabs(scaled) < 999.5) return format_number(scaled) + prefix;
    }
    return fmt::format("{:.2e}", value);
}

std::string format_seconds(double s) {
    if (!std::isfinite(s)) return "n/a";
    if (s == 0 || std::fabs(s) >= 1) return format_number(s) + " s";
    if (std::fabs(s) >= 1e-3) return format_number(s * 1e3) + " ms";
    if (std::fabs(s) >= 1e-6) return format_number(s * 1e6) + " us";
    return format_number(s * 1e9) + " ns";
}

std::string format_percent(double fraction) {
    if (!std::isfinite(fraction)) return "n/a";
    // Beyond 99,999% fixed notation would print 20-digit numbers: use an exponent.
    if (std::fabs(fraction) >= 1000) return fmt::format("{:.2e}%", fraction * 100);
    return without_negative_zero(fmt::format("{:.1f}%", fraction * 100));
}

std::string rate_unit(const std::string& work_unit) { return "G" + work_unit + "/s"; }
std::string intensity_unit(const std::string& work_unit) { return work_unit + "/B"; }

std::string count_of(long long count, const std::string& noun) {
    return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

std::string exact_number(double value) {
    return std::isfinite(value) ? without_negative_zero(fmt::format("{}", value)) : "";
}

} // namespace roofline
