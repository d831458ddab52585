#include "core/precision.hpp"

#include <algorithm>
#include <cctype>

namespace roofline {

std::optional<Precision> parse_precision(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "dp" || lower == "double" || lower == "fp64") return Precision::dp;
    if (lower == "sp" || lower == "single" || lower == "fp32") return Precision::sp;
    return std::nullopt;
}

const char* precision_name(Precision p) { return p == Precision::sp ? "sp" : "dp"; }

int element_bits(Precision p) { return p == Precision::sp ? 32 : 64; }

int element_bits_of(std::string_view precision) {
    const auto p = parse_precision(precision);
    return element_bits(p.value_or(Precision::dp));
}

bool is_flop_precision(std::string_view precision) { return precision == "dp" || precision == "sp"; }

bool is_valid_precision_name(std::string_view precision) {
    if (precision.empty() || precision.size() > 32 || !std::isalpha(static_cast<unsigned char>(precision[0]))) return false;
    return std::all_of(precision.begin(), precision.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

bool is_valid_work_unit_name(std::string_view unit) {
    if (unit.empty() || unit.size() > 32 || !std::isalpha(static_cast<unsigned char>(unit[0])) || unit.back() == ' ' ||
        unit.find("  ") != std::string_view::npos)
        return false;
    return std::all_of(unit.begin(), unit.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ' ';
    });
}

std::string precision_label(std::string_view precision) {
    std::string out(precision);
    for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

} // namespace roofline
