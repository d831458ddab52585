#include "render/short_names.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string_view>

namespace roofline {
namespace {

// A '<' or '>' that is part of an operator's name ("operator<<", "operator->"), not a bracket.
bool operator_character(const std::string& n, std::size_t at) {
    std::size_t start = at;
    while (start > 0 && (n[start - 1] == '<' || n[start - 1] == '>' || n[start - 1] == '-' || n[start - 1] == '='))
        --start;
    constexpr std::string_view word = "operator";
    return start >= word.size() && std::string_view(n).substr(start - word.size(), word.size()) == word;
}

// "f(std::vector<double> const&, int) const" -> "f(...) const": the last parenthesized group when
// nothing but qualifiers or a clone's suffix follows it. Unchanged when there is none.
std::string without_parameters(const std::string& n) {
    const auto close = n.rfind(')');
    if (close == std::string::npos) return n;
    if (n.find_first_of("(<:", close + 1) != std::string::npos) return n;
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
        if (n[i] == ')') ++depth;
        if (n[i] == '(' && --depth == 0) {
            if (i == 0 || close - i - 1 <= 3) return n;
            return n.substr(0, i + 1) + "..." + n.substr(close);
        }
    }
    return n;
}

// Template arguments inside template arguments become "<...>":
// "Kernel<std::vector<double, std::allocator<double> >, 3>" -> "Kernel<std::vector<...>, 3>".
std::string outer_template_arguments(const std::string& n) {
    std::string out;
    int depth = 0;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const char c = n[i];
        const bool bracket = (c == '<' || c == '>') && !operator_character(n, i);
        if (bracket && c == '<') {
            ++depth;
            if (depth == 2) out += "<...";
            if (depth >= 2) continue;
        } else if (bracket && c == '>' && depth > 0) {
            --depth;
            if (depth >= 1) {
                if (depth == 1) out += '>';
                continue;
            }
        } else if (depth >= 2) {
            continue;
        }
        out += c;
    }
    return depth == 0 ? out : n;  // brackets that do not pair: not a C++ name to rewrite
}

// The bytes [from, from + length) of `n`, narrowed to whole UTF-8 characters: a chart's SVG
// with half a character is not XML, and a browser shows an error instead of the chart.
std::string piece(const std::string& n, std::size_t from, std::size_t length) {
    const auto continuation = [&](std::size_t at) { return at < n.size() && (static_cast<unsigned char>(n[at]) & 0xC0) == 0x80; };
    std::size_t end = std::min(n.size(), from + length);
    while (from < end && continuation(from)) ++from;
    while (end > from && continuation(end)) --end;
    return n.substr(from, end - from);
}

// `n` cut to `width`, keeping `differ` (where it first differs from the name most like it) visible.
std::string cut(const std::string& n, std::size_t width, std::size_t differ) {
    if (n.size() <= width) return n;
    if (width < 16) return piece(n, 0, width > 3 ? width - 3 : 0) + "...";
    const std::size_t head = (width - 3) / 2, tail = width - 3 - head;
    if (differ < head || differ >= n.size() - tail) return piece(n, 0, head) + "..." + piece(n, n.size() - tail, tail);
    // Two cuts: a short start, a window from a little before `differ`, the end.
    const std::size_t start = width / 5, end = width / 4, window = width - start - end - 6;
    std::size_t from = differ > window / 3 ? differ - window / 3 : 0;
    from = std::clamp(from, start, n.size() - end - window);
    return piece(n, 0, start) + "..." + piece(n, from, window) + "..." + piece(n, n.size() - end, end);
}

// Where each name first differs from the names sorted next to it.
std::vector<std::size_t> first_differences(const std::vector<std::string>& names) {
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
    const auto common = [&](std::size_t a, std::size_t b) {
        const auto& x = names[a];
        const auto& y = names[b];
        return static_cast<std::size_t>(std::mismatch(x.begin(), x.begin() + std::min(x.size(), y.size()), y.begin()).first - x.begin());
    };
    std::vector<std::size_t> out(names.size(), 0);
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (k > 0) out[order[k]] = std::max(out[order[k]], common(order[k], order[k - 1]));
        if (k + 1 < order.size()) out[order[k]] = std::max(out[order[k]], common(order[k], order[k + 1]));
    }
    return out;
}

// Each of `candidates` where no two distinct names read the same, else `fallback`'s.
void keep_apart(std::vector<std::string>& candidates, const std::vector<std::string>& names,
                const std::vector<std::string>& fallback) {
    std::map<std::string, std::vector<std::size_t>> readers;
    for (std::size_t i = 0; i < candidates.size(); ++i) readers[candidates[i]].push_back(i);
    for (const auto& [text, who] : readers) {
        if (who.size() < 2) continue;
        const bool same = std::all_of(who.begin(), who.end(), [&](std::size_t i) { return names[i] == names[who[0]]; });
        if (!same)
            for (const std::size_t i : who) candidates[i] = fallback[i];
    }
}

} // namespace

std::vector<std::string> short_names(const std::vector<std::string>& names, std::size_t width) {
    std::vector<std::string> out = names;
    for (auto& n : out)
        if (n.size() > width) n = without_parameters(n);
    keep_apart(out, names, names);
    auto simpler = out;
    for (auto& n : simpler)
        if (n.size() > width) n = outer_template_arguments(n);
    keep_apart(simpler, names, out);
    const auto differ = first_differences(simpler);
    std::vector<std::string> cuts(simpler.size());
    for (std::size_t i = 0; i < simpler.size(); ++i) cuts[i] = cut(simpler[i], width, differ[i]);
    keep_apart(cuts, names, names);
    return cuts;
}

} // namespace roofline
