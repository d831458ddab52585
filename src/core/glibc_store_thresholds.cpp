#include "core/glibc_store_thresholds.hpp"

#include <algorithm>
#include <charconv>

namespace roofline {
namespace {

struct KnownThreshold {
    std::string_view diagnostic;  // after "x86.cpu_features."
    std::string_view tunable;
};

// The thresholds past which glibc's string functions store non-temporally: those decide which
// cache levels the stored bytes reach. (The rep movsb / rep stosb thresholds choose instructions
// that store the same bytes through the caches, so they are left as Valgrind's CPU makes them.)
constexpr KnownThreshold kKnown[] = {
    {"non_temporal_threshold", "glibc.cpu.x86_non_temporal_threshold"},
    {"memset_non_temporal_threshold", "glibc.cpu.x86_memset_non_temporal_threshold"},
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

bool parse_number(std::string_view text, std::uint64_t& out) {
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    if (text.empty()) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out, base);
    return error == std::errc() && end == text.data() + text.size();
}

} // namespace

std::vector<GlibcThreshold> glibc_store_thresholds(std::string_view diagnostics) {
    std::vector<GlibcThreshold> out;
    constexpr std::string_view prefix = "x86.cpu_features.";
    std::size_t pos = 0;
    while (pos < diagnostics.size()) {
        const auto end = std::min(diagnostics.find('\n', pos), diagnostics.size());
        std::string_view line = trim(diagnostics.substr(pos, end - pos));
        pos = end + 1;
        if (!line.starts_with(prefix)) continue;
        line.remove_prefix(prefix.size());
        const auto eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view name = line.substr(0, eq);
        for (const auto& known : kKnown) {
            std::uint64_t value = 0;
            if (name != known.diagnostic || !parse_number(trim(line.substr(eq + 1)), value)) continue;
            bool seen = false;
            for (const auto& t : out) seen = seen || t.tunable == known.tunable;
            if (!seen) out.push_back({std::string(known.tunable), value});
        }
    }
    return out;
}

std::string glibc_tunables_with(std::string_view existing, const std::vector<GlibcThreshold>& thresholds) {
    std::string out(existing);
    char hex[32];
    for (const auto& t : thresholds) {
        if (!out.empty()) out += ':';
        const auto [end, error] = std::to_chars(hex, hex + sizeof hex, t.bytes, 16);
        out += t.tunable + "=0x" + std::string(hex, error == std::errc() ? end : hex);
    }
    return out;
}

std::string loader_in_ldd_output(std::string_view ldd_output) {
    std::size_t pos = 0;
    while (pos < ldd_output.size()) {
        const auto end = std::min(ldd_output.find('\n', pos), ldd_output.size());
        std::string_view line = trim(ldd_output.substr(pos, end - pos));
        pos = end + 1;
        if (!line.starts_with('/') || line.find("=>") != std::string_view::npos) continue;
        if (const auto paren = line.find(" ("); paren != std::string_view::npos) line = line.substr(0, paren);
        return std::string(trim(line));
    }
    return {};
}

} // namespace roofline
