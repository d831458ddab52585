// "Did you mean ...?": the candidates a mistyped name is a few edits away from.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

// Levenshtein distance (insertions, deletions and substitutions of one character).
std::size_t edit_distance(const std::string& a, const std::string& b);

// Up to `count` of `candidates` within a third of `wanted`'s length in edits (at
// least 2), closest first; ties keep the candidates' order.
std::vector<std::string> closest_words(const std::string& wanted, const std::vector<std::string>& candidates,
                                       std::size_t count = 3);

} // namespace roofline
