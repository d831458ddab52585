#include "core/precision.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace roofline {

namespace {

// The one name table: each precision's canonical name, the GPU roofs' spelling, what else
// is read as it ('|' between), its element size and whether its work counts as FLOPs.
struct PrecisionName {
    Precision precision;
    const char* name;
    const char* gpu_name;
    const char* aliases;
    int bits;
    bool flops;
};

const PrecisionName kPrecisions[] = {
    {Precision::dp, "dp", "fp64", "double|f64|float64", 64, true},
    {Precision::sp, "sp", "fp32", "single|f32|float32|float", 32, true},
    {Precision::fp16, "fp16", "fp16", "half|f16|float16", 16, true},
    {Precision::bf16, "bf16", "bf16", "bfloat16", 16, true},
    {Precision::tf32, "tf32", "tf32", "", 32, true},
    {Precision::fp8, "fp8", "fp8", "", 8, true},
    {Precision::int8, "int8", "int8", "", 8, false},
    {Precision::int32, "int32", "int32", "", 32, false},
    {Precision::lop3, "lop3", "lop3", "", 32, false},
    {Precision::popc, "popc", "popc", "", 32, false},
};

const PrecisionName& row(Precision p) {
    for (const auto& r : kPrecisions)
        if (r.precision == p) return r;
    return kPrecisions[0];
}

bool among(std::string_view aliases, std::string_view word) {
    while (!aliases.empty()) {
        const auto bar = aliases.find('|');
        if (aliases.substr(0, bar) == word) return true;
        if (bar == std::string_view::npos) break;
        aliases.remove_prefix(bar + 1);
    }
    return false;
}

} // namespace

std::optional<Precision> parse_precision(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const auto& r : kPrecisions)
        if (lower == r.name || lower == r.gpu_name || among(r.aliases, lower)) return r.precision;
    return std::nullopt;
}

const char* precision_name(Precision p) { return row(p).name; }

const char* gpu_precision_name(Precision p) { return row(p).gpu_name; }

int element_bits(Precision p) { return row(p).bits; }

bool counts_flops(Precision p) { return row(p).flops; }

std::optional<std::string> canonical_precision(std::string_view text) {
    const auto p = parse_precision(text);
    if (!p) return std::nullopt;
    return std::string(precision_name(*p));
}

std::optional<std::string> gpu_precision(std::string_view text) {
    const auto p = parse_precision(text);
    if (!p) return std::nullopt;
    return std::string(gpu_precision_name(*p));
}

std::string known_gpu_precisions_text() {
    std::string out;
    const std::size_t n = std::size(kPrecisions);
    for (std::size_t i = 0; i < n; ++i)
        out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kPrecisions[i].gpu_name;
    return out;
}

int element_bits_of(std::string_view precision) {
    const auto p = parse_precision(precision);
    return p ? element_bits(*p) : 64;
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
