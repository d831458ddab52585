#include "core/math_library_flops.hpp"

#include "core/roofline.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace roofline {

std::vector<std::string> math_libraries_in_ldd_output(std::string_view ldd_output) {
    const auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
        return s;
    };
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < ldd_output.size()) {
        const auto end = std::min(ldd_output.find('\n', pos), ldd_output.size());
        const std::string_view line = trim(ldd_output.substr(pos, end - pos));
        pos = end + 1;
        const auto arrow = line.find(" => ");
        if (arrow == std::string_view::npos || !is_math_library(std::string(trim(line.substr(0, arrow))))) continue;
        std::string_view path = trim(line.substr(arrow + 4));
        if (const auto paren = path.find(" ("); paren != std::string_view::npos) path = trim(path.substr(0, paren));
        if (!path.empty() && path.front() == '/') out.emplace_back(path);  // "not found" is no file
    }
    return out;
}

bool is_math_library(const std::string& object) {
    const auto slash = object.rfind('/');
    const std::string_view file = slash == std::string::npos ? std::string_view(object)
                                                             : std::string_view(object).substr(slash + 1);
    // libm.so.6, libm-2.31.so (older glibc), libmvec.so.1, libamdlibm.so, libalm.so, libimf.so,
    // libsvml.so, libsleef.so.3.
    static constexpr std::array<std::string_view, 8> prefixes = {"libm.so",    "libm-",  "libmvec.",  "libamdlibm.",
                                                                 "libalm.",    "libimf.", "libsvml.", "libsleef."};
    for (const auto prefix : prefixes)
        if (file.substr(0, prefix.size()) == prefix) return true;
    return false;
}

std::optional<MathLibraryFlops> math_library_flops(const Point& p) {
    const auto it = p.details.find(kMathLibraryFlops);
    if (it == p.details.end() || !std::isfinite(it->second) || !(it->second > 0)) return std::nullopt;
    if (!p.work_counted || !(p.work > 0)) return std::nullopt;
    const double share = std::min(1.0, it->second / p.work);
    if (share < kMathLibraryFlopShare) return std::nullopt;
    return MathLibraryFlops{it->second, share};
}

std::string math_library_flops_text(const MathLibraryFlops& m) {
    return fmt::format("{:.3g} of its FLOPs ({:.1f}%) ran inside the math library (libm's exp, sin, pow ...): they are the "
                       "floating-point instructions those functions executed (an exp is about 20), not one per call "
                       "as a FLOP count on paper has it; measure --functions lists them by function",
                       m.flops, 100 * m.share);
}

} // namespace roofline
