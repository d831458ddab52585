#include "measure/protocol_json.hpp"

#include "core/level.hpp"
#include "core/message_name.hpp"
#include "io/json_node.hpp"

#include <cmath>
#include <limits>
#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <set>

namespace roofline::measure {
namespace {

using nlohmann::json;

// Length of the valid UTF-8 sequence at s[i], 0 when the byte there does not start one
// (overlong forms, surrogates and code points past U+10FFFF are not valid either).
std::size_t utf8_sequence(const std::string& s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned c = byte(0);
    const auto cont = [&](std::size_t k) { return (byte(k) & 0xC0u) == 0x80u; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return byte(1) >= lo && byte(1) <= hi && cont(2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return byte(1) >= lo && byte(1) <= hi && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

// `backslash` is what stands before "xNN": "\\" for JSON text (an escaped backslash), "\" for plain text.
std::string repair(const std::string& text, const char* backslash, std::size_t* replaced) {
    std::string out;
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence(text, i);
        if (n > 0) {
            out.append(text, i, n);
            i += n;
        } else {
            out += fmt::format("{}x{:02X}", backslash, static_cast<unsigned char>(text[i]));
            ++count;
            ++i;
        }
    }
    if (replaced) *replaced = count;
    return out;
}

json parse(const std::string& raw, const std::string& source, const char* schema, std::vector<std::string>* problems) {
    // Names are whatever bytes the program passed: repaired here rather than refusing the whole run.
    // Outside strings the writers emit ASCII only, so a repaired byte is always inside a string.
    std::size_t replaced = 0;
    std::string text = repair(raw, "\\\\", &replaced);
    if (replaced && problems)
        problems->push_back(fmt::format("{}: {} byte(s) of region or function names are not UTF-8: shown as \\xNN",
                                        source, replaced));
    if (json_nested_too_deep(text))
        throw MeasureError(fmt::format("{}: not valid JSON ({})", source, json_depth_problem()));
    json j;
    try {
        j = json::parse(text);
        std::string().swap(text);  // its memory back before the counts are read from the document
    } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers beyond a double
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
    // Every figure of the protocol is a count, seconds or a thread number.
    const double value = v.get<double>();
    if (!std::isfinite(value) || value < 0)
        throw MeasureError(fmt::format("{}: \"{}\" must be a number >= 0, found {}", where, key, value));
    return value;
}

// A whole count that fits the integer it is stored in (a double beyond it is undefined behaviour to convert).
template <typename Int>
Int whole(const json& j, const char* key, const std::string& where, Int largest = std::numeric_limits<Int>::max()) {
    const double value = number(j, key, where);
    if (value > static_cast<double>(largest))
        throw MeasureError(fmt::format("{}: \"{}\" is {:g}, more than {}", where, key, value, largest));
    return static_cast<Int>(value);
}

std::string name_of(const json& r, const std::string& where) {
    if (!r.is_object() || !r.contains("name") || !r["name"].is_string())
        throw MeasureError(fmt::format("{}: expected an object with a \"name\"", where));
    const auto name = r["name"].get<std::string>();
    return name.empty() ? kUnnamedRegion : name;  // the program passed "": kept, under a name one can see
}

RegionCounts counts_from(const json& r, const std::string& where) {
    RegionCounts c;
    c.name = name_of(r, where);
    c.calls = whole<long long>(r, "calls", where);
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
    if (r.contains("cache")) {  // the tool's cache simulation: bytes across each boundary, by the level below it
        if (!r["cache"].is_object()) throw MeasureError(fmt::format("{}: \"cache\" must be an object", where));
        for (const auto& [level, traffic] : r["cache"].items()) {
            const std::string at = fmt::format("{}: \"cache\".\"{}\"", where, level);
            if (!is_known_level(level) || level == "L1")
                throw MeasureError(fmt::format("{}: not a level below L1 ({})", at, known_levels_text()));
            if (!traffic.is_object()) throw MeasureError(fmt::format("{} must be an object", at));
            const double read = number(traffic, "read", at), write = number(traffic, "write", at);
            const double nontemporal = traffic.contains("nontemporal") ? number(traffic, "nontemporal", at) : 0;
            c.bytes_by_level[level] = read + write + nontemporal;
            c.cache_traffic[level + "_read"] = read;
            c.cache_traffic[level + "_write"] = write;
            if (traffic.contains("nontemporal")) c.cache_traffic[level + "_nontemporal"] = nontemporal;
            // Of `read`: write-allocate fills no load read before they went back (what
            // non-temporal stores would save); a detail, not more bytes.
            // Clean lines moved into a victim (exclusive) level: they cross the boundary, but the
            // roofs count what loads and stores move, so a detail, not more bytes.
            if (traffic.contains("clean_victim"))
                c.cache_traffic[level + "_clean_victim"] = number(traffic, "clean_victim", at);
            if (traffic.contains("write_allocate_unread"))
                c.cache_traffic[level + "_write_allocate_unread"] = number(traffic, "write_allocate_unread", at);
            // Of `read`: fills made for REP STOS/MOVS stores, which fast-string stores may skip
            // (core/rep_string_stores); a detail. Absent from an older tool's output.
            // Part of `read`: more is a damaged file (the note would say "up to 5 MB of its 1 MB").
            if (traffic.contains("rep_string_fill")) {
                const double fill = number(traffic, "rep_string_fill", at);
                if (fill > read)
                    throw MeasureError(fmt::format("{}: \"rep_string_fill\" ({:g}) is more than \"read\" ({:g}), of "
                                                   "which it is a part",
                                                   at, fill, read));
                c.cache_traffic[level + "_rep_string_fill"] = fill;
            }
        }
        // the bytes those string instructions stored, kept with the figures that need them: part of bytes_stored
        if (r.contains("rep_string_stored")) {
            const double stored = number(r, "rep_string_stored", where);
            if (stored > c.bytes_stored)
                throw MeasureError(fmt::format("{}: \"rep_string_stored\" ({:g}) is more than \"bytes_stored\" ({:g}), "
                                               "of which it is a part",
                                               where, stored, c.bytes_stored));
            c.cache_traffic["rep_string_stored"] = stored;
        }
    }
    if (r.contains("dirty_at_end")) c.cache_traffic["dirty_at_end"] = number(r, "dirty_at_end", where);
    // absent from an older tool's output (core/dirty_at_end then bounds the region's with dirty_at_end)
    if (r.contains("dirty_at_exit")) c.cache_traffic["dirty_at_exit"] = number(r, "dirty_at_exit", where);
    // a region open in a set past the tool's writer contexts: dirty_at_exit may lack lines, this bounds it
    if (r.contains("dirty_at_exit_up_to"))
        c.cache_traffic["dirty_at_exit_up_to"] = number(r, "dirty_at_exit_up_to", where);
    if (r.contains("cache_touched")) c.cache_touched_bytes = number(r, "cache_touched", where);
    // absent from an older tool's output: the note judges the union, cache_touched
    if (r.contains("cache_working_set")) c.cache_working_set_bytes = number(r, "cache_working_set", where);
    c.threads = whole<int>(r, "threads", where, 1 << 20);
    // absent from an older tool's output (its "threads" counted these): none said
    if (r.contains("threads_working")) c.threads_working = whole<int>(r, "threads_working", where, 1 << 20);
    if (r.contains("busiest_thread_flops")) c.busiest_thread_flops = number(r, "busiest_thread_flops", where);
    if (r.contains("busiest_thread_bytes")) c.busiest_thread_bytes = number(r, "busiest_thread_bytes", where);
    // One thread's share of the work: more than all of it is a damaged file.
    if (c.busiest_thread_flops > c.total_flops() + 0.5)
        throw MeasureError(fmt::format("{}: \"busiest_thread_flops\" ({:g}) is more than its FLOPs ({:g})", where,
                                       c.busiest_thread_flops, c.total_flops()));
    if (c.busiest_thread_bytes > c.bytes_loaded + c.bytes_stored + 0.5)
        throw MeasureError(fmt::format("{}: \"busiest_thread_bytes\" ({:g}) is more than its bytes loaded and stored "
                                       "({:g})",
                                       where, c.busiest_thread_bytes, c.bytes_loaded + c.bytes_stored));
    c.instructions = number(r, "instructions", where);
    // absent from an older tool's output: none said
    if (r.contains("flops_x87")) c.flops_x87 = number(r, "flops_x87", where);
    if (r.contains("fp_flag_ops")) c.fp_flag_ops = number(r, "fp_flag_ops", where);
    if (r.contains("entries")) c.entries = number(r, "entries", where);  // absent from an older tool's output
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
    if (r.contains("flops_by_object")) {  // absent from an older tool's output: no file said
        if (!r["flops_by_object"].is_object())
            throw MeasureError(fmt::format("{}: \"flops_by_object\" must be an object", where));
        for (const auto& [file, value] : r["flops_by_object"].items()) {
            if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
                throw MeasureError(
                    fmt::format("{}: \"flops_by_object\".\"{}\" must be a number >= 0", where, file));
            c.flops_by_object[file] = value.get<double>();
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

std::string repair_utf8(const std::string& text, std::size_t* replaced) { return repair(text, "\\", replaced); }

double RegionCounts::total_flops() const {
    return std::accumulate(flops.begin(), flops.end(), 0.0, [](double s, const auto& kv) { return s + kv.second; });
}

namespace {

// Per batch, per pair: numbers >= 0, one per batch.
std::vector<double> batch_values(const json& c, const char* key, const std::string& where, std::size_t batches) {
    if (!c.contains(key) || !c[key].is_array())
        throw MeasureError(fmt::format("{}: \"{}\" must be an array", where, key));
    std::vector<double> out;
    for (const auto& v : c[key]) {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
            throw MeasureError(fmt::format("{}: \"{}\" must hold numbers >= 0", where, key));
        out.push_back(v.get<double>());
    }
    if (batches != 0 && out.size() != batches)
        throw MeasureError(fmt::format("{}: \"{}\" has {} batches, not {}", where, key, out.size(), batches));
    return out;
}

MarkerCalibration calibration_of(const json& c, const std::string& where) {
    if (!c.is_object()) throw MeasureError(where + " must be an object");
    MarkerCalibration cal;
    cal.pairs = whole<long long>(c, "pairs", where);
    cal.seconds = number(c, "seconds", where);
    cal.time_ns.region = batch_values(c, "region_ns", where, 0);
    cal.time_ns.pair = batch_values(c, "pair_ns", where, cal.time_ns.region.size());
    if (c.contains("begin_ns")) cal.begin_ns = batch_values(c, "begin_ns", where, cal.time_ns.region.size());
    if (c.contains("nested_ns")) cal.nested_ns = batch_values(c, "nested_ns", where, cal.time_ns.region.size());
    if (c.contains("counters")) {
        if (!c["counters"].is_object()) throw MeasureError(where + ": \"counters\" must be an object");
        for (const auto& [event, series] : c["counters"].items()) {
            const std::string at = fmt::format("{}: counters.{}", where, event);
            if (!series.is_object()) throw MeasureError(at + " must be an object");
            cal.counters[event] = {batch_values(series, "region", at, cal.time_ns.region.size()),
                                   batch_values(series, "pair", at, cal.time_ns.region.size()),
                                   number(series, "total", at)};
        }
    }
    return cal;
}

} // namespace

MarkerReport parse_marker_json(const std::string& text, const std::string& source) {
    MarkerReport report;
    const json j = parse(text, source, "roofline.marker/1", &report.problems);
    for (std::size_t i = 0; i < j["regions"].size(); ++i) {
        const auto& r = j["regions"][i];
        const std::string where = fmt::format("{}: regions[{}]", source, i);
        RegionTiming t;
        t.name = name_of(r, where);
        t.calls = whole<long long>(r, "calls", where);
        t.seconds = number(r, "seconds", where);
        t.threads = std::max(1, whole<int>(r, "threads", where, 1 << 20));
        t.team_threads = whole<int>(r, "team_threads", where, 1 << 20);
        t.spawned_threads = whole<int>(r, "spawned_threads", where, 1 << 20);
        t.threads = std::max({t.threads, t.team_threads, t.spawned_threads});
        if (r.is_object() && r.contains("outermost_calls")) {
            t.outermost_calls = whole<long long>(r, "outermost_calls", where);
            if (t.outermost_calls > t.calls)
                throw MeasureError(fmt::format("{}: \"outermost_calls\" ({}) is more than \"calls\" ({})", where,
                                               t.outermost_calls, t.calls));
        }
        t.inner_calls = whole<long long>(r, "inner_calls", where);
        if (r.is_object() && r.contains("thread_seconds")) {
            if (!r["thread_seconds"].is_array())
                throw MeasureError(fmt::format("{}: \"thread_seconds\" must be an array", where));
            for (const auto& s : r["thread_seconds"]) {
                if (!s.is_number() || !std::isfinite(s.get<double>()) || s.get<double>() < 0)
                    throw MeasureError(fmt::format("{}: \"thread_seconds\" must hold numbers >= 0", where));
                t.thread_seconds += s.get<double>();
            }
        }
        if (r.is_object() && r["name"].get<std::string>().empty())
            report.problems.push_back(fmt::format("a region has an empty name: shown as {}", kUnnamedRegion));
        t.unclosed = whole<long long>(r, "unclosed", where);
        if (const long long unclosed = t.unclosed; unclosed > 0)
            report.problems.push_back(fmt::format("region '{}' was still open when the program ended ({} of its {} "
                                                  "call(s)): closed then, so its time runs to the end",
                                                  t.name, unclosed, t.calls));
        report.timings.push_back(t);
        if (r.contains("counters")) {
            if (!r["counters"].is_object()) throw MeasureError(fmt::format("{}: \"counters\" must be an object", where));
            RegionCounts c;
            c.name = t.name;
            c.calls = t.calls;
            for (const auto& [event, value] : r["counters"].items()) {
                if (!value.is_number())
                    throw MeasureError(fmt::format("{}: \"counters\".\"{}\" must be a number", where, event));
                // A count: the library writes whole numbers >= 0; anything else is a damaged file.
                const double count = value.get<double>();
                if (!std::isfinite(count) || count < 0)
                    throw MeasureError(fmt::format("{}: \"counters\".\"{}\" must be a count >= 0, found {}", where,
                                                   event, count));
                c.events[event] = count == 0 ? 0.0 : count;
            }
            report.counters.push_back(std::move(c));
        }
    }
    if (j.contains("calibration")) report.calibration = calibration_of(j["calibration"], source + ": calibration");
    if (j.contains("openmp_teams_unseen"))
        report.problems.push_back(fmt::format(
            "OpenMP teams forked inside marker regions are not counted in this program: {}; a region around a "
            "parallel loop shows only the threads that opened it",
            j["openmp_teams_unseen"].is_string() ? j["openmp_teams_unseen"].get<std::string>()
                                                 : j["openmp_teams_unseen"].dump()));
    const bool unclosed_said = std::any_of(report.problems.begin(), report.problems.end(),
                                           [](const std::string& p) { return p.find("still open when") != std::string::npos; });
    if (j.contains("errors") && j["errors"].is_array()) {
        for (const auto& e : j["errors"]) {
            // Each open region per thread, said above once per region with its count.
            if (unclosed_said && e.is_string() && e.get<std::string>().find("still open at finalize") != std::string::npos)
                continue;
            report.problems.push_back("the marker library reported: " + (e.is_string() ? e.get<std::string>() : e.dump()));
        }
    }
    return report;
}

// "threads on simulated cores: 3 threads on cores 0-1 (2 pinned by their CPU affinity)"
static std::string thread_placement(const json& model, const std::string& source) {
    const std::string where = source + ": cache_model";
    if (!model.is_object()) throw MeasureError(where + " must be an object");
    if (!model.contains("threads")) return {};
    const auto& threads = model["threads"];
    if (!threads.is_array()) throw MeasureError(where + ": \"threads\" must be an array");
    std::set<long long> cores;
    long long pinned = 0;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        const std::string at = fmt::format("{}: threads[{}]", where, i);
        if (!threads[i].is_object()) throw MeasureError(at + " must be an object");
        cores.insert(whole<long long>(threads[i], "core", at, 1 << 20));
        if (threads[i].contains("pinned") && threads[i]["pinned"] == true) ++pinned;
    }
    const bool by_affinity = model.contains("placement") && model["placement"] == "affinity";
    std::vector<std::string> listed;
    for (const auto c : cores) listed.push_back(std::to_string(c));
    if (listed.size() > 16) listed.resize(16), listed.push_back("...");
    return fmt::format("cache simulation: {} thread{} on simulated core{} {}{}", threads.size(),
                       threads.size() == 1 ? "" : "s", cores.size() == 1 ? "" : "s", fmt::join(listed, ","),
                       by_affinity ? fmt::format(" ({} pinned to one core by their CPU affinity; the others spread "
                                                 "over the cores it allows, thread n on the (n-1) mod k-th)",
                                                 pinned)
                                   : " (thread n on core (n-1) mod cores; CPU affinity is not followed: which simulated core a "
                                     "CPU belongs to is not known)");
}

MarkerReport merge_marker_reports(std::vector<MarkerReport> reports) {
    MarkerReport out;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        MarkerReport& r = reports[i];
        for (auto& t : r.timings) {
            const auto it = std::find_if(out.timings.begin(), out.timings.end(),
                                         [&](const RegionTiming& o) { return o.name == t.name; });
            if (it == out.timings.end()) {
                out.timings.push_back(std::move(t));
                continue;
            }
            it->calls += t.calls;
            it->seconds += t.seconds;
            it->threads = std::max(it->threads, t.threads);
            it->team_threads = std::max(it->team_threads, t.team_threads);
            it->spawned_threads = std::max(it->spawned_threads, t.spawned_threads);
        }
        for (auto& c : r.counters) {
            const auto it = std::find_if(out.counters.begin(), out.counters.end(),
                                         [&](const RegionCounts& o) { return o.name == c.name; });
            if (it == out.counters.end()) {
                out.counters.push_back(std::move(c));
                continue;
            }
            it->calls += c.calls;
            for (const auto& [event, value] : c.events) it->events[event] += value;
        }
        for (auto& p : r.problems)
            out.problems.push_back(i == 0 ? std::move(p) : fmt::format("(in the program's exec'd image {}) {}", i, p));
    }
    return out;
}

namespace {

// "functions" of the output or of one of its regions (`where`: that part's place).
std::vector<RegionCounts> functions_from(const json& j, const std::string& where) {
    std::vector<RegionCounts> out;
    if (!j.contains("functions")) return out;
    if (!j["functions"].is_array()) throw MeasureError(fmt::format("{}: \"functions\" must be an array", where));
    for (std::size_t i = 0; i < j["functions"].size(); ++i)
        out.push_back(counts_from(j["functions"][i], fmt::format("{}: functions[{}]", where, i)));
    return out;
}

// "per_instruction" of the output or of one of its regions, taken out of `j`: read from the
// back, each entry erased once read, so the document's entries and their counts are not both
// whole at once (python3.11: 124,164 instructions, 50 MB of JSON; roofline's peak 1.04 GB before).
std::vector<InstructionCounts> instructions_from(json& j, const std::string& where) {
    std::vector<InstructionCounts> out;
    if (!j.contains("per_instruction")) return out;
    auto& all = j["per_instruction"];
    if (!all.is_array()) throw MeasureError(fmt::format("{}: \"per_instruction\" must be an array", where));
    out.resize(all.size());
    for (std::size_t i = all.size(); i-- > 0;) {
        const auto& e = all[i];
        const auto at = fmt::format("{}: per_instruction[{}]", where, i);
        auto& ic = out[i];
        ic.counts = counts_from(e, at);
        ic.address = whole<std::uint64_t>(e, "address", at);
        ic.jumps = e.contains("taken");
        ic.taken = number(e, "taken", at);
        if (e.contains("call_targets")) {
            if (!e["call_targets"].is_array())
                throw MeasureError(fmt::format("{}: \"call_targets\" must be an array", at));
            for (std::size_t k = 0; k < e["call_targets"].size(); ++k) {
                const auto& t = e["call_targets"][k];
                const auto where = fmt::format("{}: call_targets[{}]", at, k);
                if (!t.is_object()) throw MeasureError(fmt::format("{} must be an object", where));
                CallTarget target;
                target.address = whole<std::uint64_t>(t, "address", where);
                for (auto [key, into] : {std::pair{"object", &target.object}, std::pair{"function", &target.function}}) {
                    if (!t.contains(key)) continue;
                    if (!t[key].is_string()) throw MeasureError(fmt::format("{}: \"{}\" must be a string", where, key));
                    *into = t[key].get<std::string>();
                }
                target.calls = number(t, "calls", where);
                ic.call_targets.push_back(std::move(target));
            }
        }
        all.erase(i);
    }
    return out;
}

} // namespace

VgtoolReport parse_vgtool_json(const std::string& text, const std::string& source) {
    VgtoolReport report;
    json j = parse(text, source, "roofline.vgtool/1", &report.problems);
    if (j.contains("child_processes")) report.child_processes = whole<long long>(j, "child_processes", source);
    if (j.contains("cache_model")) {
        const auto& model = j["cache_model"];
        report.thread_placement = thread_placement(model, source);
        // The simulation's own limits, said where the counts are used (a level it could not hold
        // has no traffic below L1; write-backs of regions past the tool's limit land elsewhere).
        if (model.contains("out_of_memory") && model["out_of_memory"] == true)
            report.problems.push_back(
                "the cache simulation ran out of memory for a cache level's state: accesses it could not simulate "
                "are missing below L1, so the bytes at L2, L3 and DRAM are too low (the L1 bytes and the FLOPs are "
                "exact); give Valgrind more memory, simulate a smaller hierarchy (--cache-model), or count L1 only "
                "(--cache-sim off)");
        if (model.contains("writer_contexts_exhausted") && model["writer_contexts_exhausted"] == true)
            report.problems.push_back(
                "more than 16,382 distinct sets of open marker regions wrote lines: the write-backs of lines written "
                "under the later ones are charged to the regions open when the lines were evicted, not to the regions "
                "that wrote them, and those still dirty at the end to none (such a region's note on them gives a bound; "
                "the whole program's bytes are unaffected)");
    }
    for (std::size_t i = 0; i < j["regions"].size(); ++i) {
        const auto where = fmt::format("{}: regions[{}]", source, i);
        auto& r = j["regions"][i];
        report.regions.push_back(counts_from(r, where));
        if (r.contains("per_instruction"))
            report.region_breakdowns.push_back(
                {report.regions.back().name, functions_from(r, where), instructions_from(r, where)});
    }
    report.functions = functions_from(j, source);
    // Regions past the tool's limit of distinct names: their time is kept, their counts are none.
    if (j.contains("regions_over_limit")) {
        const auto& o = j["regions_over_limit"];
        const auto at = source + ": regions_over_limit";
        if (!o.is_object()) throw MeasureError(at + " must be an object");
        const auto limit = whole<long long>(o, "limit", at);
        const auto calls = whole<long long>(o, "calls", at);
        const std::string first = o.contains("first") && o["first"].is_string() ? o["first"].get<std::string>() : "";
        report.problems.push_back(fmt::format(
            "the Valgrind tool counts at most {} distinct region names (the marker library's calibration's two "
            "among them): {} call(s) of regions past them, the first '{}', were not counted, so those regions have "
            "their time but no FLOPs or bytes; open fewer distinct names (a region opened many times is one name)",
            limit, calls, message_excerpt(first)));
    }
    // The last level simulated, for each region's and function's note on a working set near its size.
    if (j.contains("cache_model") && j["cache_model"].contains("levels") && j["cache_model"]["levels"].is_array() &&
        !j["cache_model"]["levels"].empty()) {
        const auto& levels = j["cache_model"]["levels"];
        const double llc = number(levels.back(), "size", source + ": cache_model: levels");
        // Its instances: the simulated cores over the cores sharing one (an older tool: not said).
        int shared_by = 0, instances = 0;
        if (levels.back().contains("shared_by") && j["cache_model"].contains("cores")) {
            shared_by = whole<int>(levels.back(), "shared_by", source + ": cache_model: levels", 1 << 20);
            const int cores = whole<int>(j["cache_model"], "cores", source + ": cache_model", 1 << 20);
            if (shared_by > 0 && cores > 0) instances = (cores + shared_by - 1) / shared_by;
        }
        // What the whole program touched: a function's note may use it (it has no count of its own).
        double program_touched = 0;
        int program_threads = 0;
        for (const auto& c : report.regions)
            if (c.name == "(program)") {  // merge.hpp kProgramRegion
                program_touched = c.cache_touched_bytes;
                program_threads = c.threads;
            }
        for (auto* list : {&report.regions, &report.functions})
            for (auto& c : *list) {
                c.cache_llc_bytes = llc;
                c.cache_llc_level = static_cast<int>(levels.size());
                c.cache_llc_instances = instances;
                c.cache_llc_cores_per_instance = instances > 0 ? shared_by : 0;
            }
        for (auto& c : report.functions) {
            c.cache_enclosing_touched_bytes = program_touched;
            c.cache_enclosing_threads = program_threads;
        }
    }
    report.instructions = instructions_from(j, source);
    // "flops_x87" (a tool before it left it out: none said)
    if (!j["regions"].empty() && j["regions"][0].contains("flops_x87"))
        report.x87_flops = number(j["regions"][0], "flops_x87", source + ": regions[0]");
    if (j.contains("functions"))
        for (std::size_t i = 0; i < j["functions"].size(); ++i) {
            const auto& f = j["functions"][i];
            const double x87 = f.contains("flops_x87") ? number(f, "flops_x87", fmt::format("{}: functions[{}]", source, i)) : 0;
            if (x87 > 0) report.x87_functions.emplace_back(report.functions[i].name, x87);
        }
    std::stable_sort(report.x87_functions.begin(), report.x87_functions.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return report;
}

} // namespace roofline::measure
