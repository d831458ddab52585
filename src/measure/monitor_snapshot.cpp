#include "measure/monitor_snapshot.hpp"

#include "io/json_node.hpp"
#include "io/monitor_dir.hpp"
#include "io/text_file.hpp"
#include "measure/engine.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <sys/stat.h>

namespace roofline::measure {

namespace {

using json = nlohmann::json;

double number_at(const json& j, const char* key, const std::string& where) {
    if (!j.contains(key) || !j[key].is_number())
        throw MeasureError(fmt::format("{}: \"{}\" must be a number", where, key));
    const double v = j[key].get<double>();
    if (!std::isfinite(v) || v < 0) throw MeasureError(fmt::format("{}: \"{}\" must be a number >= 0", where, key));
    return v;
}

// Large monotonic times lose precision as doubles: read them as integers.
std::uint64_t u64_at(const json& j, const char* key, const std::string& where) {
    if (!j.contains(key) || !j[key].is_number_unsigned())
        throw MeasureError(fmt::format("{}: \"{}\" must be a whole number >= 0", where, key));
    return j[key].get<std::uint64_t>();
}

} // namespace

ProcessSnapshot parse_monitor_snapshot(const std::string& text, const std::string& source) {
    if (json_nested_too_deep(text)) throw MeasureError(fmt::format("{}: not JSON: {}", source, json_depth_problem()));
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        // Where, never what: the parser's message quotes the text, and a job controls it.
        throw MeasureError(fmt::format("{}: not JSON (at byte {})", source, e.byte));
    } catch (const json::exception&) {
        throw MeasureError(fmt::format("{}: not JSON", source));
    }
    // json::value() throws a type_error on a key of another type: check the type first.
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string() ||
        j["schema"].get<std::string>() != "roofline.monitor/1")
        throw MeasureError(fmt::format("{}: not a monitor snapshot (schema \"roofline.monitor/1\")", source));
    ProcessSnapshot s;
    const double pid = number_at(j, "pid", source);
    if (pid < 1 || pid > double(std::numeric_limits<int>::max()))
        throw MeasureError(fmt::format("{}: \"pid\" is out of range", source));
    s.pid = static_cast<long long>(pid);
    if (j.contains("job") && j["job"].is_string()) s.job = j["job"].get<std::string>();
    s.start_ns = u64_at(j, "start_ns", source);
    s.time_ns = u64_at(j, "time_ns", source);
    if (s.time_ns < s.start_ns) throw MeasureError(fmt::format("{}: \"time_ns\" is before \"start_ns\"", source));
    s.finished = j.contains("finished") && j["finished"].is_boolean() && j["finished"].get<bool>();
    if (!j.contains("regions") || !j["regions"].is_array())
        throw MeasureError(fmt::format("{}: \"regions\" must be an array", source));
    for (const auto& r : j["regions"]) {
        const std::string where = fmt::format("{}: region {}", source, s.regions.size() + 1);
        if (!r.is_object() || !r.contains("name") || !r["name"].is_string())
            throw MeasureError(fmt::format("{}: expected an object with a \"name\"", where));
        RegionTotals t;
        t.name = r["name"].get<std::string>();
        if (t.name.empty()) t.name = "(unnamed region)";  // as the marker file's reader names it
        const double calls = number_at(r, "calls", where);
        if (calls > 9e15) throw MeasureError(fmt::format("{}: \"calls\" is out of range", where));
        t.calls = static_cast<long long>(calls);
        t.seconds = number_at(r, "seconds", where);
        t.threads = static_cast<int>(std::min(number_at(r, "threads", where), 1e6));
        t.nested = r.contains("nested") && r["nested"].is_boolean() && r["nested"].get<bool>();
        s.regions.push_back(std::move(t));
    }
    return s;
}

SnapshotScan scan_monitor_dir(const std::string& dir, const std::string& job) {
    SnapshotScan scan;
    for (const auto& path : files_in(dir, ".json")) {
        const auto name = std::filesystem::path(path).filename().string();
        const auto stem = name.substr(0, name.size() - 5);
        if (stem.empty() || !std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;  // not a snapshot: the directory may be shared with other files
        // The directory is the jobs': no link followed, regular files with one name only, a
        // live process's snapshot owned by that process's user, and nothing of a refused
        // file's contents ever printed.
        const auto file = read_job_file(dir, name, 16u << 20);
        if (!file.refused.empty()) {
            scan.problems.push_back(fmt::format("{}: {}: skipped", path, file.refused));
            continue;
        }
        if (!file.text) continue;  // removed meanwhile
        struct stat proc {};
        if (::stat(("/proc/" + stem).c_str(), &proc) == 0 && proc.st_uid != file.owner_uid) {
            scan.problems.push_back(fmt::format("{}: owned by uid {}, not by the user of process {}: skipped", path,
                                                file.owner_uid, stem));
            continue;
        }
        const auto& text = file.text;
        try {
            auto s = parse_monitor_snapshot(*text, path);
            if (!job.empty() && s.job != job) {
                ++scan.other_jobs;
                continue;
            }
            scan.snapshots.push_back(std::move(s));
        } catch (const MeasureError& e) {
            scan.problems.push_back(e.what());
        }
    }
    std::sort(scan.snapshots.begin(), scan.snapshots.end(),
              [](const ProcessSnapshot& a, const ProcessSnapshot& b) { return a.pid < b.pid; });
    return scan;
}

} // namespace roofline::measure
