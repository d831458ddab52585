#include "measure/protocol_json.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <numeric>

namespace roofline::measure {
namespace {

using nlohmann::json;

json parse(const std::string& text, const std::string& source, const char* schema) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw MeasureError(fmt::format("{}: not valid JSON ({})", source, e.what()));
    }
    if (!j.is_object() || !j.contains("schema") || j["schema"] != schema)
        throw MeasureError(fmt::format("{}: expected \"schema\": \"{}\"", source, schema));
    if (!j.contains("regions") || !j["regions"].is_array())
        throw MeasureError(fmt::format("{}: expected \"regions\" to be an array", source));
    return j;
}

double number(const json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) return 0;
    const auto& v = j[key];
    if (!v.is_number()) throw MeasureError(fmt::format("{}: \"{}\" must be a number", where, key));
    return v.get<double>();
}

std::string name_of(const json& r, const std::string& where) {
    if (!r.is_object() || !r.contains("name") || !r["name"].is_string() || r["name"].get<std::string>().empty())
        throw MeasureError(fmt::format("{}: expected an object with a non-empty \"name\"", where));
    return r["name"].get<std::string>();
}

RegionCounts counts_from(const json& r, const std::string& where) {
    RegionCounts c;
    c.name = name_of(r, where);
    c.calls = static_cast<long long>(number(r, "calls", where));
    if (r.contains("flops")) {
        if (!r["flops"].is_object()) throw MeasureError(fmt::format("{}: \"flops\" must be an object", where));
        for (const auto& [precision, kinds] : r["flops"].items()) {
            if (!kinds.is_object())
                throw MeasureError(fmt::format("{}: \"flops\".\"{}\" must be an object", where, precision));
            for (const auto& [kind, value] : kinds.items()) {
                if (!value.is_number())
                    throw MeasureError(fmt::format("{}: \"flops\".\"{}\".\"{}\" must be a number", where, precision, kind));
                c.flops[precision + "_" + kind] = value.get<double>();
            }
        }
    }
    if (r.contains("flops_by_width")) {
        if (!r["flops_by_width"].is_object())
            throw MeasureError(fmt::format("{}: \"flops_by_width\" must be an object", where));
        for (const auto& [width, value] : r["flops_by_width"].items()) {
            if (!value.is_number())
                throw MeasureError(fmt::format("{}: \"flops_by_width\".\"{}\" must be a number", where, width));
            c.flops_by_width[width] = value.get<double>();
        }
    }
    c.bytes_loaded = number(r, "bytes_loaded", where);
    c.bytes_stored = number(r, "bytes_stored", where);
    c.threads = static_cast<int>(number(r, "threads", where));
    c.instructions = number(r, "instructions", where);
    if (r.contains("inner_instructions")) {
        if (!r["inner_instructions"].is_object())
            throw MeasureError(fmt::format("{}: \"inner_instructions\" must be an object", where));
        for (const auto& [function, value] : r["inner_instructions"].items()) {
            if (!value.is_number())
                throw MeasureError(
                    fmt::format("{}: \"inner_instructions\".\"{}\" must be a number", where, function));
            c.inner_instructions[function] = value.get<double>();
        }
    }
    if (r.contains("object")) {
        if (!r["object"].is_string()) throw MeasureError(fmt::format("{}: \"object\" must be a string", where));
        c.object = r["object"].get<std::string>();
    }
    if (r.contains("matched")) {
        if (!r["matched"].is_array()) throw MeasureError(fmt::format("{}: \"matched\" must be an array", where));
        for (const auto& m : r["matched"]) {
            if (!m.is_string()) throw MeasureError(fmt::format("{}: \"matched\" must hold strings", where));
            c.matched.push_back(m.get<std::string>());
        }
    }
    return c;
}

} // namespace

double RegionCounts::total_flops() const {
    return std::accumulate(flops.begin(), flops.end(), 0.0, [](double s, const auto& kv) { return s + kv.second; });
}

MarkerReport parse_marker_json(const std::string& text, const std::string& source) {
    const json j = parse(text, source, "roofline.marker/1");
    MarkerReport report;
    for (std::size_t i = 0; i < j["regions"].size(); ++i) {
        const auto& r = j["regions"][i];
        const std::string where = fmt::format("{}: regions[{}]", source, i);
        RegionTiming t;
        t.name = name_of(r, where);
        t.calls = static_cast<long long>(number(r, "calls", where));
        t.seconds = number(r, "seconds", where);
        t.threads = std::max(1, static_cast<int>(number(r, "threads", where)));
        report.timings.push_back(t);
        if (r.contains("counters")) {
            if (!r["counters"].is_object()) throw MeasureError(fmt::format("{}: \"counters\" must be an object", where));
            RegionCounts c;
            c.name = t.name;
            c.calls = t.calls;
            for (const auto& [event, value] : r["counters"].items()) {
                if (!value.is_number())
                    throw MeasureError(fmt::format("{}: \"counters\".\"{}\" must be a number", where, event));
                c.events[event] = value.get<double>();
            }
            report.counters.push_back(std::move(c));
        }
    }
    return report;
}

VgtoolReport parse_vgtool_json(const std::string& text, const std::string& source) {
    const json j = parse(text, source, "roofline.vgtool/1");
    VgtoolReport report;
    for (std::size_t i = 0; i < j["regions"].size(); ++i)
        report.regions.push_back(counts_from(j["regions"][i], fmt::format("{}: regions[{}]", source, i)));
    if (j.contains("functions")) {
        if (!j["functions"].is_array()) throw MeasureError(fmt::format("{}: \"functions\" must be an array", source));
        for (std::size_t i = 0; i < j["functions"].size(); ++i)
            report.functions.push_back(counts_from(j["functions"][i], fmt::format("{}: functions[{}]", source, i)));
    }
    return report;
}

} // namespace roofline::measure
