#include "core/command_series.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <filesystem>
#include <map>

namespace roofline {
namespace {

// Plain words only (letters, digits and a few marks no shell treats specially) go unquoted: a
// ';', '*', '|' or '~' in a command line shown for copying must not act when pasted.
bool needs_quotes(const std::string& word) {
    if (word.empty()) return true;
    return !std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./-+:@%=,").find(c) != std::string_view::npos;
    });
}

std::string quoted(const std::string& word) {
    if (!needs_quotes(word)) return word;
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Points named by what they measure, not by the program that ran them.
bool named_by_what_ran(PointOrigin origin) {
    switch (origin) {
    case PointOrigin::kernel:
    case PointOrigin::analytic:
    case PointOrigin::model:
    case PointOrigin::monitor: return true;
    default: return false;
    }
}

} // namespace

std::string command_line_text(const std::vector<std::string>& command) {
    std::string out;
    for (const auto& word : command) out += (out.empty() ? "" : " ") + quoted(word);
    return out;
}

std::string command_series_key(const std::vector<std::string>& command, PointOrigin origin) {
    if (command.empty() || named_by_what_ran(origin)) return {};
    std::vector<std::string> normalised = command;
    // "dir/" and "" have no file name: the path itself stands.
    if (const auto name = std::filesystem::path(command.front()).filename().string(); !name.empty())
        normalised.front() = name;
    return command_line_text(normalised);
}

std::vector<CommandSeries> group_by_command(const std::vector<std::string>& keys) {
    std::vector<CommandSeries> series;
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto [it, added] = at.emplace(keys[i], series.size());
        if (added) series.push_back({keys[i], {}});
        series[it->second].runs.push_back(i);
    }
    std::sort(series.begin(), series.end(),
              [](const CommandSeries& a, const CommandSeries& b) { return a.runs.back() > b.runs.back(); });
    return series;
}

} // namespace roofline
