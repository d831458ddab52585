#include "io/ncu_csv.hpp"

#include <sstream>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace roofline {
namespace {

[[noreturn]] void fail(std::size_t line, const std::string& what) {
    throw std::runtime_error(fmt::format("line {}: {}", line, what));
}

// One CSV record (RFC 4180 quoting, "" for a quote inside a quoted field).
std::vector<std::string> split_csv(std::string_view line, std::size_t number) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') fields.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
            else quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) fail(number, "a quoted field is not closed");
    return fields;
}

std::optional<std::size_t> column(const std::vector<std::string>& header, const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - header.begin());
}

// The factor to base units, or nullopt for a unit not accepted.
std::optional<double> unit_factor(const std::string& unit) {
    static const std::map<std::string, double> factors = {
        {"", 1},          {"byte", 1},      {"nsecond", 1},  {"usecond", 1e3}, {"msecond", 1e6},
        {"second", 1e9},  {"inst", 1},      {"cycle", 1},    {"sector", 1},    {"request", 1},
        {"warp", 1},      {"thread", 1},    {"block", 1},    {"%", 1},         {"hz", 1},
        // Nsight Compute 2025 with --print-units base writes the short names (an H200's CSV: "ns").
        {"ns", 1},        {"us", 1e3},      {"ms", 1e6},     {"s", 1e9},       {"B", 1},
    };
    const auto it = factors.find(unit);
    if (it != factors.end()) return it->second;
    return std::nullopt;
}

struct Value {
    double value = 0;
    bool available = true;
};

Value parse_value(std::string text, const std::string& unit, const std::string& metric, std::size_t line) {
    if (text == "n/a" || text == "N/A" || text.empty()) return {0, false};
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
        fail(line, fmt::format("{}: '{}' is not a number", metric, text));
    if (v < 0) fail(line, fmt::format("{}: {} is negative: counts, bytes and times are not", metric, text));
    const auto factor = unit_factor(unit);
    if (!factor) {
        static const char* const prefixed[] = {"Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte"};
        if (std::find(std::begin(prefixed), std::end(prefixed), unit) != std::end(prefixed))
            fail(line, fmt::format("{} is in {}: run ncu with --print-units base (a prefixed byte unit may mean "
                                   "1000 or 1024)",
                                   metric, unit));
        // A metric the points are made of, in a unit not known here (a time in minutes?): read
        // as base units it would be wrong by the unit's factor.
        const auto used = ncu_all_roofline_metrics();
        if (std::find(used.begin(), used.end(), metric) != used.end() || metric.rfind("sm__ops_path_tensor", 0) == 0)
            fail(line, fmt::format("{} is in '{}', a unit not known here: run ncu with --print-units base", metric, unit));
        // Units the points do not use (rates, ratios): kept as printed.
        return {v, true};
    }
    return {v * *factor, true};
}

bool skipped(std::string_view line) {
    return line.empty() || line == "\r" || line.rfind("==", 0) == 0;
}

} // namespace

std::vector<GpuKernelMetric> parse_ncu_csv(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        const auto end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    // The header: the first line with the ID and Kernel Name columns.
    std::size_t at = 0;
    std::vector<std::string> header;
    for (; at < lines.size(); ++at) {
        if (lines[at].find("\"ID\"") == std::string_view::npos || lines[at].find("Kernel Name") == std::string_view::npos)
            continue;
        header = split_csv(lines[at], at + 1);
        if (column(header, "ID") && column(header, "Kernel Name")) break;
        header.clear();
    }
    if (header.empty())
        throw std::runtime_error("no Nsight Compute CSV header (\"ID\",...,\"Kernel Name\",...): not the output of "
                                 "'ncu --csv'");
    const std::size_t id = *column(header, "ID"), kernel = *column(header, "Kernel Name");
    const auto device = column(header, "Device");
    const auto metric_name = column(header, "Metric Name"), metric_unit = column(header, "Metric Unit"),
               metric_value = column(header, "Metric Value");
    const bool details_page = metric_name.has_value();
    if (details_page && (!metric_unit || !metric_value))
        fail(at + 1, "a \"Metric Name\" column without \"Metric Unit\" and \"Metric Value\"");

    std::vector<GpuKernelMetric> out;
    std::vector<std::string> units;  // raw page: the row under the header
    for (std::size_t n = at + 1; n < lines.size(); ++n) {
        if (skipped(lines[n])) continue;
        const auto fields = split_csv(lines[n], n + 1);
        if (fields.size() != header.size())
            fail(n + 1, fmt::format("{} fields where the header has {}", fields.size(), header.size()));
        if (!details_page && units.empty()) {
            units = fields;  // the raw page's units row
            if (!fields[id].empty()) fail(n + 1, "the raw page's second row should give the units (its ID empty)");
            continue;
        }
        GpuKernelMetric m;
        m.launch = fields[id];
        m.kernel = fields[kernel];
        m.device = device ? fields[*device] : "0";
        if (m.launch.empty()) fail(n + 1, "a row without a launch ID");
        if (details_page) {
            m.metric = fields[*metric_name];
            const auto v = parse_value(fields[*metric_value], fields[*metric_unit], m.metric, n + 1);
            m.value = v.value;
            m.available = v.available;
            out.push_back(std::move(m));
            continue;
        }
        for (std::size_t c = 0; c < header.size(); ++c) {
            // Metric columns have dotted names (dram__bytes.sum); the launch's own columns do not.
            if (header[c].find("__") == std::string::npos) continue;
            GpuKernelMetric one = m;
            one.metric = header[c];
            const auto v = parse_value(fields[c], units[c], one.metric, n + 1);
            one.value = v.value;
            one.available = v.available;
            out.push_back(std::move(one));
        }
    }
    return out;
}

std::vector<std::string> parse_ncu_metric_names(const std::string& text) {
    std::vector<std::string> names;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first;
        if (!(words >> first) || first.find("__") == std::string::npos) continue;
        // Hierarchical listings prefix a section ("TPC.TriageCompute.sm__..."): the metric is the last part.
        if (const auto dot = first.rfind('.'); dot != std::string::npos) first = first.substr(dot + 1);
        const bool metric_like = std::all_of(first.begin(), first.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (metric_like && std::find(names.begin(), names.end(), first) == names.end()) names.push_back(first);
    }
    return names;
}

} // namespace roofline
