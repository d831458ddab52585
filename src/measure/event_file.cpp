#include "measure/event_file.hpp"

#include "io/text_file.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <sstream>

namespace roofline::measure {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

std::vector<int> parse_int_list(const std::string& text, const std::string& where) {
    std::vector<int> out;
    if (text == "*") return out;
    std::stringstream ss(text);
    std::string item;
    auto number = [&](const std::string& text) {
        char* end = nullptr;
        const long v = std::strtol(text.c_str(), &end, 0);
        if (text.empty() || *end != '\0') throw FormulaError(fmt::format("{}: '{}' is not a number", where, text));
        // CPU families and models are small; a value beyond 0..65535 is a typo, not one to truncate.
        if (v < 0 || v > 0xFFFF)
            throw FormulaError(fmt::format("{}: '{}' is not a CPU family or model (0 to 65535)", where, text));
        return static_cast<int>(v);
    };
    while (std::getline(ss, item, ',')) {
        item = trim(item);
        const auto dash = item.find('-');
        const int lo = number(trim(item.substr(0, dash)));
        const int hi = dash == std::string::npos ? lo : number(trim(item.substr(dash + 1)));  // "0x10-0x1f"
        if (hi < lo) throw FormulaError(fmt::format("{}: '{}' is an empty range", where, item));
        for (int v = lo; v <= hi; ++v) out.push_back(v);
    }
    return out;
}

// "families=25 models=0x00-0x0f; families=23" after an event's "when".
std::vector<EventCondition> parse_when(const std::string& text, const std::string& where) {
    std::vector<EventCondition> out;
    std::stringstream clauses(text);
    std::string clause;
    while (std::getline(clauses, clause, ';')) {
        EventCondition c;
        std::istringstream fields(clause);
        std::string field;
        bool any = false;
        while (fields >> field) {
            const auto eq = field.find('=');
            const auto k = field.substr(0, eq == std::string::npos ? field.size() : eq);
            if (eq == std::string::npos || (k != "families" && k != "models"))
                throw FormulaError(fmt::format("{}: expected families=LIST or models=LIST after 'when', got '{}'",
                                               where, field));
            (k == "families" ? c.families : c.models) = parse_int_list(field.substr(eq + 1), where);
            any = true;
        }
        if (!any) throw FormulaError(fmt::format("{}: an empty 'when' clause", where));
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

EventSet parse_event_file(const std::string& text, const std::string& source) {
    EventSet set;
    std::set<std::string> known;  // aliases and metrics so far
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const std::string where = fmt::format("{}:{}", source, number);
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        line = trim(line);
        if (line.empty()) continue;
        const auto space = line.find_first_of(" \t");
        const std::string key = line.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : trim(line.substr(space));
        if (key == "name") {
            set.name = rest;
        } else if (key == "description") {
            set.description = rest;
        } else if (key == "match") {
            std::istringstream fields(rest);
            std::string field;
            while (fields >> field) {
                const auto eq = field.find('=');
                if (eq == std::string::npos)
                    throw FormulaError(fmt::format("{}: expected key=value in match, got '{}'", where, field));
                const auto k = field.substr(0, eq), v = field.substr(eq + 1);
                if (k == "vendor") set.vendor = v;
                else if (k == "families") set.families = parse_int_list(v, where);
                else if (k == "models") set.models = parse_int_list(v, where);
                else throw FormulaError(fmt::format("{}: unknown match key '{}' (vendor, families, models)", where, k));
            }
        } else if (key == "event" || key == "metric") {
            const auto eq = rest.find('=');
            if (eq == std::string::npos)
                throw FormulaError(fmt::format("{}: expected '{} NAME = ...'", where, key));
            const std::string name = trim(rest.substr(0, eq));
            const std::string value = trim(rest.substr(eq + 1));
            if (name.empty() || value.empty())
                throw FormulaError(fmt::format("{}: expected '{} NAME = ...'", where, key));
            if (key == "event") {
                const bool dup = std::any_of(set.events.begin(), set.events.end(),
                                             [&](const EventDef& e) { return e.alias == name; });
                if (dup) throw FormulaError(fmt::format("{}: event '{}' defined twice", where, name));
                EventDef def{name, value, {}};
                if (const auto when = value.find(" when "); when != std::string::npos) {
                    def.pfm_name = trim(value.substr(0, when));
                    def.when = parse_when(value.substr(when + 6), where);
                }
                set.events.push_back(std::move(def));
                known.insert(name);
            } else {
                Formula formula;
                try {
                    formula = Formula::parse(value);
                } catch (const FormulaError& e) {
                    throw FormulaError(fmt::format("{}: {}", where, e.what()));
                }
                for (const auto& n : formula.names()) {
                    // A metric may read itself only as an already defined alternative's event.
                    if (!known.count(n) || n == name) {
                        const bool is_event = std::any_of(set.events.begin(), set.events.end(),
                                                          [&](const EventDef& e) { return e.alias == n; });
                        if (!is_event)
                            throw FormulaError(fmt::format(
                                "{}: metric '{}' reads '{}', which is neither an event nor an earlier metric",
                                where, name, n));
                    }
                }
                set.metrics.push_back({name, std::move(formula)});
                known.insert(name);
            }
        } else {
            throw FormulaError(
                fmt::format("{}: unknown key '{}' (name, match, description, event, metric)", where, key));
        }
    }
    if (set.name.empty()) throw FormulaError(fmt::format("{}: no 'name' line", source));
    return set;
}

bool matches(const EventSet& set, const CpuIdentity& cpu) {
    if (set.vendor != "*" && set.vendor != cpu.vendor) return false;
    if (!set.families.empty() && std::find(set.families.begin(), set.families.end(), cpu.family) == set.families.end())
        return false;
    if (!set.models.empty() && std::find(set.models.begin(), set.models.end(), cpu.model) == set.models.end())
        return false;
    return true;
}

bool applies(const EventDef& event, const CpuIdentity& cpu) {
    if (event.when.empty()) return true;
    auto in = [](const std::vector<int>& list, int v) {
        return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
    };
    return std::any_of(event.when.begin(), event.when.end(), [&](const EventCondition& c) {
        return in(c.families, cpu.family) && in(c.models, cpu.model);
    });
}

std::optional<EventSet> select_event_set(const std::vector<EventSet>& sets, const CpuIdentity& cpu) {
    const EventSet* best = nullptr;
    int best_score = -1;
    for (const auto& s : sets) {
        if (!matches(s, cpu)) continue;
        const int score = (s.vendor != "*" ? 4 : 0) + (!s.families.empty() ? 2 : 0) + (!s.models.empty() ? 1 : 0);
        if (score > best_score) {
            best = &s;
            best_score = score;
        }
    }
    if (!best) return std::nullopt;
    return *best;
}

std::map<std::string, double> evaluate_metrics(const EventSet& set, const std::map<std::string, double>& values,
                                               std::map<std::string, std::string>* used) {
    std::map<std::string, double> out;
    auto lookup = [&](const std::string& n) -> std::optional<double> {
        // Events first: a metric and an event may share a name ("cycles = cycles").
        if (auto it = values.find(n); it != values.end()) return it->second;
        if (auto it = out.find(n); it != out.end()) return it->second;
        return std::nullopt;
    };
    for (const auto& m : set.metrics) {
        if (out.count(m.name)) continue;  // an earlier alternative won
        const bool available = std::all_of(m.formula.names().begin(), m.formula.names().end(),
                                           [&](const std::string& n) { return lookup(n).has_value(); });
        if (!available) continue;
        out[m.name] = m.formula.evaluate(lookup);
        if (used) (*used)[m.name] = m.formula.text();
    }
    return out;
}

std::vector<EventSet> load_event_sets(const std::string& dir) {
    std::vector<EventSet> sets;
    for (const auto& f : files_in(dir, ".txt")) sets.push_back(parse_event_file(read_text_file(f), f));
    return sets;
}

} // namespace roofline::measure
