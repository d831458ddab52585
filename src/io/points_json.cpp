#include "io/points_json.hpp"

#include "core/cut_off_point.hpp"
#include "core/level.hpp"
#include "core/precision.hpp"

#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <fmt/format.h>

#include <string_view>

namespace roofline {
namespace {

using nlohmann::json;

constexpr std::string_view points_schema = "roofline.points/1";
constexpr std::string_view flop_unit = "FLOP";

json units_object() {
    return {{"flops", "floating-point operations (count)"},
            {"ops", "operations of op_unit (count), for work that is not FLOPs"},
            {"bytes", "bytes crossing each level's boundary; L1 is what the instructions load and store"},
            {"seconds", "wall-clock seconds"}};
}

json point_to_json(const Point& p) {
    json j;
    j["name"] = p.name;
    if (!p.series.empty()) j["series"] = p.series;
    if (!p.label.empty()) j["label"] = p.label;
    // null: not counted (Point::work_counted), which 0 would misstate.
    const json work = p.work_counted ? json(p.work) : json(nullptr);
    if (p.work_unit.empty() || p.work_unit == flop_unit) {
        j["flops"] = work;
    } else {
        j["ops"] = work;
        j["op_unit"] = p.work_unit;
    }
    j["bytes"] = json::object();
    for (const auto& [level, bytes] : p.bytes) j["bytes"][level] = bytes;
    j["seconds"] = p.seconds;
    j["threads"] = p.threads;
    j["source"] = p.source.name();
    j["details"] = json::object();
    for (const auto& [key, value] : p.details) j["details"][key] = value;
    if (!p.object.empty()) j["object"] = p.object;
    if (!p.main_function.empty()) j["main_function"] = p.main_function;
    return j;
}

// {"level": bytes, ...} (counts: non-negative) or {"key": number, ...} (details: any finite number).
std::map<std::string, double> number_map(const JsonNode& n, bool counts) {
    n.require_object();
    std::map<std::string, double> out;
    for (const auto& item : n.value().items()) {
        if (item.key().empty()) n.fail("expected non-empty keys, found \"\"");
        const auto member = n.child(item.key());
        out[item.key()] = counts ? member.as_figure(count_range) : member.as_finite();
    }
    return out;
}

// Work is either "flops", or "ops" with its "op_unit" (exchanges, bit ops ...).
void read_work(const JsonNode& n, Point& p) {
    const bool has_flops = n.has("flops");
    const bool has_ops = n.has("ops");
    if (has_flops && has_ops) n.fail("has both \"flops\" and \"ops\" (expected one of them)");
    if (has_flops) {
        if (n.has("op_unit")) n.child("op_unit").fail("only allowed with \"ops\", not with \"flops\"");
        p.work_counted = !n.child("flops").value().is_null();  // null: measured without counting
        p.work = p.work_counted ? n.child("flops").as_figure(count_range) : 0;
        p.work_unit = std::string(flop_unit);
        return;
    }
    // Neither: name the usual key in the error.
    if (!has_ops) n.required("flops", "a number, or null when not counted (or \"ops\" with \"op_unit\")");
    p.work_counted = !n.child("ops").value().is_null();
    p.work = p.work_counted ? n.child("ops").as_figure(count_range) : 0;
    const auto unit = n.required("op_unit", "a string naming the unit of \"ops\"");
    p.work_unit = unit.as_nonempty_string();
    if (!is_valid_work_unit_name(p.work_unit))
        unit.expected("a unit name such as IOP or exchange (a letter, then letters, digits, '_', '-', '.' or "
                      "spaces, at most 32)");
}

// Required: name, the work, bytes, seconds. Optional: series, label, threads
// (default 1), source, details, object. Unknown keys are ignored so that newer minor
// additions do not break older readers.
Point point_from(const JsonNode& n) {
    n.require_object();
    Point p;
    p.name = n.required("name", "a string").as_nonempty_string();
    if (n.has("series")) p.series = n.child("series").as_string();
    if (n.has("label")) p.label = n.child("label").as_string();
    read_work(n, p);
    // Known levels only (a typo would silently leave the point unjudged), in
    // their canonical spelling ("l2" -> "L2"), each once.
    const auto bytes_node = n.required("bytes", "an object of bytes per level, e.g. {\"DRAM\": 8e9}");
    for (const auto& [level, bytes] : number_map(bytes_node, true)) {
        if (!is_known_level(level))
            bytes_node.child(level).fail(fmt::format("unknown level '{}' (expected {})", level, known_levels_text()));
        if (!p.bytes.emplace(canonical_level(level), bytes).second)
            bytes_node.fail(fmt::format("names level {} twice (levels are not case-sensitive)", canonical_level(level)));
    }
    p.seconds = n.required("seconds", "a number").as_figure(seconds_range);
    if (n.has("threads")) p.threads = n.child("threads").as_int_in(1, max_threads);
    if (n.has("source")) p.source = PointSource::from_name(n.child("source").as_string());
    if (n.has("details")) {
        p.details = number_map(n.child("details"), false);
        // The signal a region was cut off by is named from its number: another is no signal at all.
        if (const auto it = p.details.find(kCutOffBySignal); it != p.details.end() && !is_signal_number(it->second))
            n.child("details").child(kCutOffBySignal)
                .fail(fmt::format("{:g} is not a signal number (a whole number from 1 to 64)", it->second));
    }
    if (n.has("object")) p.object = n.child("object").as_string();
    if (n.has("main_function")) p.main_function = n.child("main_function").as_string();
    return p;
}

} // namespace

nlohmann::json points_to_json(const std::vector<Point>& points, const Provenance* provenance) {
    json j;
    j["schema"] = std::string(points_schema);
    if (provenance) {
        j["provenance"] = {{"command", provenance->command},   {"cwd", provenance->cwd},
                           {"date", provenance->date},         {"host", provenance->host},
                           {"cpu", provenance->cpu},           {"runs", provenance->runs},
                           {"engine", provenance->engine},     {"options", provenance->options},
                           {"tool_version", provenance->tool_version}};
        if (const auto& m = provenance->mpi) {
            json mpi = {{"launcher", m->launcher}, {"job", m->job}, {"ranks", m->ranks}};
            if (m->rank >= 0) mpi["rank"] = m->rank;
            if (!m->hosts.empty()) mpi["hosts"] = m->hosts;
            j["provenance"]["mpi"] = std::move(mpi);
        }
    }
    j["units"] = units_object();
    j["points"] = json::array();
    for (const auto& p : points) j["points"].push_back(point_to_json(p));
    return j;
}

std::vector<Point> points_from_json(const nlohmann::json& j, const std::string& source) {
    const JsonNode root(j, "", source);
    root.require_schema(points_schema, "roofline points file");
    root.require_units(units_object());
    const auto list = root.required("points", "an array");
    list.require_array();
    std::vector<Point> points;
    points.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) points.push_back(point_from(list.element(i)));
    return points;
}

void write_points_file(const std::string& path, const std::vector<Point>& points, const Provenance* provenance) {
    const auto document = points_to_json(points, provenance);
    // Never write what we would refuse to read (NaN seconds, an empty name ...).
    points_from_json(document, fmt::format("{} (being written)", path));
    write_text_file_atomic(path, document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::vector<Point> read_points_file(const std::string& path) {
    return points_from_json(read_json_file(path), path);
}

namespace {

template <typename T>
T value_or(const json& object, const char* key, T fallback) {
    if (!object.is_object() || !object.contains(key)) return fallback;
    try {
        return object.at(key).get<T>();
    } catch (const json::exception&) {
        return fallback;
    }
}

Provenance provenance_from(const json& j) {
    Provenance p;
    p.command = value_or<std::vector<std::string>>(j, "command", {});
    p.cwd = value_or<std::string>(j, "cwd", "");
    p.date = value_or<std::string>(j, "date", "");
    p.host = value_or<std::string>(j, "host", "");
    p.cpu = value_or<std::string>(j, "cpu", "");
    p.runs = value_or<std::vector<std::string>>(j, "runs", {});
    p.engine = value_or<std::string>(j, "engine", "");
    p.options = value_or<std::map<std::string, std::string>>(j, "options", {});
    p.tool_version = value_or<std::string>(j, "tool_version", "");
    if (j.contains("mpi") && j.at("mpi").is_object()) {
        const auto& m = j.at("mpi");
        MpiProvenance mpi;
        mpi.launcher = value_or<std::string>(m, "launcher", "");
        mpi.job = value_or<std::string>(m, "job", "");
        mpi.rank = value_or<int>(m, "rank", -1);
        mpi.ranks = value_or<int>(m, "ranks", 0);
        mpi.hosts = value_or<std::vector<std::string>>(m, "hosts", {});
        p.mpi = std::move(mpi);
    }
    return p;
}

} // namespace

PointsDocument read_points_document(const std::string& path) { return points_document_from_json(read_json_file(path), path); }

PointsDocument points_document_from_json(const nlohmann::json& j, const std::string& source) {
    PointsDocument doc;
    doc.points = points_from_json(j, source);
    if (j.is_object() && j.contains("provenance") && j.at("provenance").is_object())
        doc.provenance = provenance_from(j.at("provenance"));
    return doc;
}

} // namespace roofline
