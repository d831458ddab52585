#include "core/byte_sizes.hpp"

#include <fmt/core.h>

#include <cctype>
#include <cmath>
#include <stdexcept>

namespace roofline {

std::string format_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    if (u == 0) return fmt::format("{} B", bytes);
    if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f} {}", v, units[u]);
    // Three significant digits, never an exponent: 1023.98 KiB reads "1024 KiB", not "1.02e+03 KiB".
    return v >= 100 ? fmt::format("{:.0f} {}", v, units[u]) : fmt::format("{:.3g} {}", v, units[u]);
}

std::uint64_t parse_bytes(const std::string& text) {
    // Plain decimal only ("32", "1.5"): std::stod would also take "0x20", "1e3", "inf" and leading spaces.
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits < text.size() && text[digits] == '.') {
        std::size_t frac = digits + 1;
        while (frac < text.size() && std::isdigit(static_cast<unsigned char>(text[frac]))) ++frac;
        if (frac > digits + 1) digits = frac;
    }
    if (digits == 0 || (digits < text.size() && !std::isalpha(static_cast<unsigned char>(text[digits]))))
        throw std::invalid_argument("not a size: '" + text + "' (a decimal number and a unit, e.g. 16kB, 8MB, 1GB)");
    std::size_t pos = 0;
    double value = 0;
    try {
        value = std::stod(text, &pos);
    } catch (const std::exception&) {
        throw std::invalid_argument("not a size: '" + text + "' (examples: 16kB, 8MB, 1GB)");
    }
    if (pos != digits)  // stod read more than the decimal digits: a hex or exponent form
        throw std::invalid_argument("not a size: '" + text + "' (a decimal number and a unit, e.g. 16kB, 8MB, 1GB)");
    std::string unit = text.substr(pos);
    for (auto& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    double mult = 1;
    if (unit.empty() || unit == "b") mult = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib") mult = 1024.0;
    else if (unit == "m" || unit == "mb" || unit == "mib") mult = 1024.0 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib") mult = 1024.0 * 1024 * 1024;
    else throw std::invalid_argument("unknown size unit in '" + text + "' (use B, kB, MB or GB)");
    if (!(value > 0)) throw std::invalid_argument("size must be positive: '" + text + "'");
    // Converting a double beyond 2^64 (or inf) to an integer is undefined; 2^60 bytes is an exbibyte.
    const double bytes = value * mult;
    if (!(bytes <= 1152921504606846976.0)) throw std::invalid_argument("size too large: '" + text + "' (at most 1 EiB)");
    if (bytes < 1) throw std::invalid_argument("size below one byte: '" + text + "'");
    return static_cast<std::uint64_t>(bytes);
}

} // namespace roofline
