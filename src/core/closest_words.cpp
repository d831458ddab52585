#include "core/closest_words.hpp"

#include <algorithm>
#include <utility>

namespace roofline {

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> closest_words(const std::string& wanted, const std::vector<std::string>& candidates,
                                       std::size_t count) {
    const std::size_t limit = std::max<std::size_t>(2, wanted.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto& c : candidates)
        if (const std::size_t d = edit_distance(wanted, c); d <= limit) scored.emplace_back(d, c);
    std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> out;
    for (auto& [d, c] : scored) {
        if (out.size() == count) break;
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace roofline
