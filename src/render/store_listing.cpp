#include "render/store_listing.hpp"

#include "render/csv.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace roofline {
namespace {

// Stored names (hosts, CPUs, commands) escaped: the store may hold anything.
std::string or_dash(const std::string& text) { return text.empty() ? "-" : terminal_text(text); }

// What a model holds: "complete", "memory-only", "interrupted", ... ("unreadable" when it
// could not be read; "interrupted" from the row alone when it was not read).
std::string contents_of(const StoredMachine& m) {
    if (m.completeness) return completeness_label(*m.completeness);
    if (!m.unreadable.empty()) return "unreadable";
    return m.partial ? "interrupted" : "";
}

std::string complete_column(const StoredMachine& m) {
    const auto contents = contents_of(m);
    if (contents == "complete") return "yes";
    if (contents.empty()) return "yes";  // not read: only the row's interrupted flag is known
    return fmt::format("no ({})", contents);
}

std::string text_listing(const std::string& path, const std::vector<StoredMachine>& machines,
                         const std::vector<StoredPointSet>& sets) {
    std::string out = fmt::format("Results store {}\n\n", terminal_text(path));
    out += fmt::format("Machines ({}; use with --machine stored:ID)\n", machines.size());
    if (machines.empty()) out += "  none: run 'roofline bench'\n";
    else
        out += fmt::format("  {:>4}  {:<20}  {:<16}  {:<32}  {:<5}  {}\n", "id", "created (UTC)", "host", "CPU", "mode",
                           "complete");
    for (const auto& m : machines)
        out += fmt::format("  {:>4}  {:<20}  {:<16}  {:<32}  {:<5}  {}\n", m.id, or_dash(m.created),
                           or_dash(m.hostname), or_dash(m.cpu_model), or_dash(m.mode),
                           complete_column(m));
    out += fmt::format("\nPoint sets ({}; use with --points stored:ID)\n", sets.size());
    if (sets.empty()) out += "  none: run 'roofline measure -- ./your_app'\n";
    else
        out += fmt::format("  {:>4}  {:<20}  {:>6}  {:>7}  {:<16}  {}\n", "id", "created (UTC)", "points", "machine", "host",
                           "source");
    for (const auto& s : sets)
        out += fmt::format("  {:>4}  {:<20}  {:>6}  {:>7}  {:<16}  {}{}\n", s.id, or_dash(s.created),
                           s.damaged.empty() ? std::to_string(s.point_count) : "?",
                           s.machine_id ? fmt::format("#{}", *s.machine_id) : "-", or_dash(s.hostname), or_dash(s.name),
                           s.damaged.empty() ? "" : fmt::format("  ({})", s.damaged));
    return out;
}

std::string json_listing(const std::string& path, const std::vector<StoredMachine>& machines,
                         const std::vector<StoredPointSet>& sets) {
    using json = nlohmann::ordered_json;
    json m = json::array();
    for (const auto& row : machines)
        m.push_back({{"id", row.id},
                     {"created", row.created},
                     {"hostname", row.hostname},
                     {"cpu_model", row.cpu_model},
                     {"mode", row.mode},
                     {"partial", row.partial},
                     {"complete", row.completeness ? json(row.completeness->complete()) : json(nullptr)},
                     {"contents", contents_of(row)}});
    json p = json::array();
    for (const auto& row : sets)
        p.push_back({{"id", row.id},
                     {"created", row.created},
                     {"points", row.damaged.empty() ? json(row.point_count) : json(nullptr)},
                     {"machine_id", row.machine_id ? json(*row.machine_id) : json(nullptr)},
                     {"hostname", row.hostname},
                     {"source", row.name}});
    for (std::size_t i = 0; i < sets.size(); ++i)
        if (!sets[i].damaged.empty()) p[i]["damaged"] = sets[i].damaged;
    const json out = {{"schema", "roofline.list/1"}, {"store", path}, {"machines", m}, {"point_sets", p}};
    return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";  // invalid UTF-8 must not throw
}

// One table for both kinds: kind,id,created,host,cpu,mode,partial,points,machine_id,source,contents
// (contents, last so that older scripts' columns stay where they were: "complete", "memory-only", ...).
std::string csv_listing(const std::vector<StoredMachine>& machines, const std::vector<StoredPointSet>& sets) {
    std::string out = csv_row(
        {"kind", "id", "created", "host", "cpu", "mode", "partial", "points", "machine_id", "source", "contents"});
    for (const auto& m : machines)
        out += csv_row({"machine", std::to_string(m.id), m.created, m.hostname, m.cpu_model, m.mode,
                        m.partial ? "yes" : "no", "", "", "", contents_of(m)});
    for (const auto& s : sets)
        out += csv_row({"points", std::to_string(s.id), s.created, s.hostname, "", "", "",
                        s.damaged.empty() ? std::to_string(s.point_count) : "",
                        s.machine_id ? std::to_string(*s.machine_id) : "", s.name, s.damaged});
    return out;
}

} // namespace

std::string render_store_listing(const std::string& store_path, const std::vector<StoredMachine>& machines,
                                 const std::vector<StoredPointSet>& point_sets, ReportFormat format) {
    switch (format) {
    case ReportFormat::text: return text_listing(store_path, machines, point_sets);
    case ReportFormat::json: return json_listing(store_path, machines, point_sets);
    case ReportFormat::csv: return csv_listing(machines, point_sets);
    case ReportFormat::markdown: break;
    }
    throw std::invalid_argument("the store is listed as text, json or csv");
}

} // namespace roofline
