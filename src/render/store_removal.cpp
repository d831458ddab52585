#include "render/store_removal.hpp"

#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <vector>

namespace roofline {
namespace {

std::string id_list(const std::vector<std::int64_t>& ids) {
    std::vector<std::string> words;
    for (const auto id : ids) words.push_back(fmt::format("#{}", id));
    return fmt::format("{}", fmt::join(words, ", "));
}

// "machine #4 (host vm, AMD EPYC, quick, 2026-11-29T12:00:41Z)": what `roofline list` shows of it.
std::string describe(const StoredMachine& m) {
    std::vector<std::string> parts;
    for (const auto* field : {&m.hostname, &m.cpu_model, &m.mode})
        if (!field->empty()) parts.push_back(field == &m.hostname ? "host " + *field : *field);
    if (m.partial) parts.push_back("interrupted");
    parts.push_back(m.created);
    return terminal_text(fmt::format("machine #{} ({})", m.id, fmt::join(parts, ", ")));
}

// "point set #7 (roofline measure -- ./app, 12 points, machine #4, 2026-11-29T12:03:00Z)".
std::string describe(const StoredPointSet& s) {
    std::vector<std::string> parts{s.name};
    parts.push_back(!s.damaged.empty() ? s.damaged : fmt::format("{} point{}", s.point_count, s.point_count == 1 ? "" : "s"));
    if (s.machine_id) parts.push_back(fmt::format("machine #{}", *s.machine_id));
    parts.push_back(s.created);
    return terminal_text(fmt::format("point set #{} ({})", s.id, fmt::join(parts, ", ")));
}

// Each row, then what else goes or changes; "removed" or "would remove".
std::string removal_text(const RemovedRows& rows, bool dry_run) {
    const char* verb = dry_run ? "would remove" : "removed";
    std::string out;
    for (const auto& m : rows.machines) out += fmt::format("{} {}\n", verb, describe(m));
    for (const auto& s : rows.point_sets) out += fmt::format("{} {}\n", verb, describe(s));
    if (rows.cache_entries > 0)
        out += fmt::format("{} {} measurement-cache entr{} of the point set{} (measured again when next asked for)\n",
                           verb, rows.cache_entries, rows.cache_entries == 1 ? "y" : "ies",
                           rows.point_sets.size() == 1 ? "" : "s");
    if (!rows.unlinked_sets.empty())
        out += fmt::format("{} point set{} {}: {}, no longer naming a stored machine\n",
                           dry_run ? "would keep" : "kept", rows.unlinked_sets.size() == 1 ? "" : "s",
                           id_list(rows.unlinked_sets),
                           rows.unlinked_sets.size() == 1 ? "it keeps its points" : "they keep their points");
    return out;
}

// The rows with the fields `roofline list --format json` gives them, so that a script
// reads both alike; "removed" false in a dry run, where nothing was.
std::string removal_json(const std::string& path, const RemovedRows& rows, bool dry_run) {
    using json = nlohmann::ordered_json;
    json machines = json::array();
    for (const auto& m : rows.machines)
        machines.push_back({{"id", m.id},
                            {"created", m.created},
                            {"hostname", m.hostname},
                            {"cpu_model", m.cpu_model},
                            {"mode", m.mode},
                            {"partial", m.partial}});
    json sets = json::array();
    for (const auto& s : rows.point_sets) {
        json row = {{"id", s.id},
                    {"created", s.created},
                    {"points", s.damaged.empty() ? json(s.point_count) : json(nullptr)},
                    {"machine_id", s.machine_id ? json(*s.machine_id) : json(nullptr)},
                    {"hostname", s.hostname},
                    {"source", s.name}};
        if (!s.damaged.empty()) row["damaged"] = s.damaged;
        sets.push_back(std::move(row));
    }
    const json out = {{"schema", "roofline.remove/1"},
                      {"store", path},
                      {"dry_run", dry_run},
                      {"removed", !dry_run},
                      {"machines", machines},
                      {"point_sets", sets},
                      {"cache_entries", rows.cache_entries},
                      {"unlinked_point_sets", rows.unlinked_sets}};
    return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";  // invalid UTF-8 must not throw
}

} // namespace

std::string render_store_removal(const std::string& store_path, const RemovedRows& rows, bool dry_run,
                                 ReportFormat format) {
    switch (format) {
    case ReportFormat::text: return removal_text(rows, dry_run);
    case ReportFormat::json: return removal_json(store_path, rows, dry_run);
    case ReportFormat::csv:
    case ReportFormat::markdown: break;
    }
    throw std::invalid_argument("a removal is printed as text or json");
}

} // namespace roofline
