// An enum's names written once: a constexpr array of {value, name} rows that both
// directions read (name_of, value_of) and option checks list (names_of). Pure.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

template <class E>
struct EnumName {
    E value;
    const char* name;
};

template <class E, std::size_t N>
using NameTable = std::array<EnumName<E>, N>;

// The row's name; `fallback` for a value without a row.
template <class E, std::size_t N>
constexpr const char* name_of(const NameTable<E, N>& table, E value, const char* fallback = "?") {
    for (const auto& row : table)
        if (row.value == value) return row.name;
    return fallback;
}

// The value named exactly `name`; nullopt for a name without a row.
template <class E, std::size_t N>
constexpr std::optional<E> value_of(const NameTable<E, N>& table, std::string_view name) {
    for (const auto& row : table)
        if (name == row.name) return row.value;
    return std::nullopt;
}

// Every name in table order (an option's allowed values).
template <class E, std::size_t N>
std::vector<std::string> names_of(const NameTable<E, N>& table) {
    std::vector<std::string> out;
    for (const auto& row : table) out.emplace_back(row.name);
    return out;
}

// "a, b or c", for messages.
template <class E, std::size_t N>
std::string names_text(const NameTable<E, N>& table) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0) out += i + 1 == N ? " or " : ", ";
        out += table[i].name;
    }
    return out;
}

} // namespace roofline
