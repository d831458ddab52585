#include "io/machine_json.hpp"

#include "core/level.hpp"
#include "core/peak.hpp"
#include "core/precision.hpp"

#include "io/json_node.hpp"
#include "io/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string_view>

namespace roofline {
namespace {

using nlohmann::json;

constexpr std::string_view machine_schema = "roofline.machine/1";

// ---------------------------------------------------------------- writing

// JSON has no NaN/Inf; nlohmann would silently write them as null anyway,
// so make that explicit (and the reader accepts null as "not a number").
json number(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

json units_object() {
    return {
        {"gflops", "1e9 FLOP/s"},
        {"gbs", "1e9 bytes/s, nominal bytes (what the kernel's instructions load and store)"},
        {"gbs_write_allocate",
         "1e9 bytes/s, nominal bytes plus one read per stored byte (write-allocate), "
         "equal to gbs for non-temporal stores"},
        {"working_set_bytes", "bytes, total over all threads"},
        {"clock_ghz", "1e9 cycles/s"},
        {"intensity", "FLOP per nominal byte"},
        {"size_bytes", "bytes per cache instance"},
    };
}

json stats_to_json(const Stats& s) {
    json j = {{"median", number(s.median)}, {"min", number(s.min)}, {"max", number(s.max)},
              {"cv", number(s.cv)},         {"runs", s.runs},       {"stable", s.stable}};
    if (s.bursts > 0) {
        j["bursts"] = s.bursts;
        j["rejected_bursts"] = s.rejected_bursts;
        j["quantile"] = number(s.quantile);
    }
    if (s.cores_shared) j["cores_shared"] = true;
    return j;
}

json cpu_to_json(const CpuDescription& c) {
    return {{"model", c.model},
            {"vendor", c.vendor},
            {"isa", c.isa},
            {"sockets", c.sockets},
            {"cores", c.cores},
            {"threads", c.threads},
            {"numa_nodes", c.numa_nodes},
            {"clock_ghz", number(c.clock_ghz)},
            {"nominal_clock_ghz", number(c.nominal_clock_ghz)}};
}

json cache_to_json(const CacheLevel& c) {
    json j = {{"level", c.level},
              {"size_bytes", c.size_bytes},
              {"line_bytes", c.line_bytes},
              {"associativity", c.associativity},
              {"shared_by_cores", c.shared_by_cores},
              {"instances", c.instances}};
    // The check of the size (core/cache_check.hpp): size_bytes is what every consumer used.
    if (!c.size_source.empty()) {
        j["size_source"] = c.size_source;
        j["reported_size_bytes"] = c.reported_size_bytes;
        j["measured_size_bytes"] = c.measured_size_bytes;
        if (!c.finding.empty()) j["finding"] = c.finding;
        if (c.doubtful) j["doubtful"] = true;
    }
    return j;
}

json compute_to_json(const ComputeRoof& r) {
    json j = {{"name", r.name},
              {"precision", r.precision},
              {"isa", r.isa},
              {"vector_bits", r.vector_bits},
              {"mix", r.mix},
              {"mix_detail", r.mix_detail},
              {"threads", r.threads},
              {"gflops", number(r.gflops)},
              {"theoretical_gflops", number(r.theoretical_gflops)}};
    // Derived, for readers of the file; never read back.
    if (auto share = share_of_theoretical(r.gflops, r.theoretical_gflops)) j["efficiency"] = number(*share);
    if (r.theoretical_clock_ghz > 0) j["theoretical_clock_ghz"] = number(r.theoretical_clock_ghz);
    if (!r.theoretical_clock.empty()) j["theoretical_clock"] = r.theoretical_clock;
    if (r.mixes_tried > 0) j["mixes_tried"] = r.mixes_tried;
    j["stats"] = stats_to_json(r.stats);
    return j;
}

json memory_to_json(const MemoryRoof& r) {
    json j = {{"level", r.level},
              {"pattern", r.pattern},
              {"isa", r.isa},
              {"threads", r.threads},
              {"gbs", number(r.gbs)},
              {"gbs_write_allocate", number(r.gbs_write_allocate)},
              {"theoretical_gbs", number(r.theoretical_gbs)},
              {"working_set_bytes", r.working_set_bytes}};
    if (auto share = share_of_theoretical(r.gbs, r.theoretical_gbs)) j["efficiency"] = number(*share);
    if (r.theoretical_clock_ghz > 0) j["theoretical_clock_ghz"] = number(r.theoretical_clock_ghz);
    if (!r.theoretical_clock.empty()) j["theoretical_clock"] = r.theoretical_clock;
    if (!r.isa_trials.empty()) {
        json trials = json::array();
        for (const auto& [isa, gbs] : r.isa_trials) trials.push_back({{"isa", isa}, {"gbs", number(gbs)}});
        j["isa_trials"] = trials;
    }
    j["stats"] = stats_to_json(r.stats);
    return j;
}

json curve_to_json(const BandwidthCurve& c) {
    json points = json::array();
    for (const auto& [working_set, gbs] : c.points) points.push_back({working_set, number(gbs)});
    return {{"pattern", c.pattern}, {"isa", c.isa}, {"threads", c.threads}, {"points", points}};
}

json validation_to_json(const ValidationPoint& v) {
    return {{"level", v.level},
            {"intensity", number(v.intensity)},
            {"threads", v.threads},
            {"working_set_bytes", v.working_set_bytes},
            {"gflops", number(v.gflops)},
            {"predicted_gflops", number(v.predicted_gflops)},
            {"ratio", number(v.ratio)}};
}

json environment_to_json(const Environment& e) {
    return {{"hostname", e.hostname},
            {"hypervisor", e.hypervisor},
            {"governor", e.governor},
            {"turbo", e.turbo},
            {"load_average", number(e.load_average)},
            {"steal_share", e.steal_share >= 0 ? number(e.steal_share) : json(nullptr)},
            {"others_busy_cpus", e.others_busy_cpus >= 0 ? number(e.others_busy_cpus) : json(nullptr)},
            {"clock_before_ghz", number(e.clock_before_ghz)},
            {"clock_after_ghz", number(e.clock_after_ghz)},
            {"compiler", e.compiler},
            {"tool_version", e.tool_version},
            {"timestamp", e.timestamp},
            {"mode", e.mode ? json(bench_mode_name(*e.mode)) : json(nullptr)},
            {"duration_seconds", number(e.duration_seconds)},
            {"microarchitecture", e.microarchitecture},
            {"restricted_to", e.restricted_to},
            {"statistic", e.statistic},
            {"warnings", e.warnings},
            {"refused", e.refused}};
}

json gpu_compute_to_json(const GpuComputeRoof& r) {
    json j = {{"name", r.name},           {"precision", r.precision},
              {"work_unit", r.work_unit}, {"tensor", r.tensor},
              {"gflops", number(r.gflops)}, {"theoretical_gflops", number(r.theoretical_gflops)},
              {"clock_mhz", number(r.clock_mhz)}};
    if (auto share = share_of_theoretical(r.gflops, r.theoretical_gflops)) j["efficiency"] = number(*share);
    j["stats"] = stats_to_json(r.stats);
    return j;
}

json gpu_memory_to_json(const GpuMemoryRoof& r) {
    json j = {{"level", r.level},
              {"pattern", r.pattern},
              {"gbs", number(r.gbs)},
              {"theoretical_gbs", number(r.theoretical_gbs)},
              {"working_set_bytes", r.working_set_bytes},
              {"blocks_per_sm", r.blocks_per_sm}};
    if (auto share = share_of_theoretical(r.gbs, r.theoretical_gbs)) j["efficiency"] = number(*share);
    j["stats"] = stats_to_json(r.stats);
    return j;
}

json bus_to_json(const BusRoof& r) {
    return {{"direction", r.direction}, {"pinned", r.pinned},           {"gbs", number(r.gbs)},
            {"bytes", r.bytes},         {"stats", stats_to_json(r.stats)}};
}

template <typename T, typename Convert>
json array_of(const std::vector<T>& items, Convert convert);

json gpu_curve_to_json(const GpuBandwidthCurve& c) {
    json points = json::array();
    for (const auto& [bytes, gbs] : c.points) points.push_back({bytes, number(gbs)});
    return {{"level", c.level}, {"pattern", c.pattern}, {"blocks_per_sm", c.blocks_per_sm}, {"points", points}};
}

json gpu_to_json(const GpuModel& g) {
    json j = {{"index", g.index},
            {"vendor", gpu_vendor_name(g.vendor)},
            {"name", g.name},
            {"uuid", g.uuid},
            {"pci_bus_id", g.pci_bus_id},
            {"compute_capability", fmt::format("{}.{}", g.compute_capability_major, g.compute_capability_minor)},
            {"sm_count", g.sm_count},
            {"sm_clock_mhz", number(g.sm_clock_mhz)},
            {"max_sm_clock_mhz", number(g.max_sm_clock_mhz)},
            {"memory_clock_mhz", number(g.memory_clock_mhz)},
            {"memory_bus_bits", g.memory_bus_bits},
            {"memory_bytes", g.memory_bytes},
            {"l2_bytes", g.l2_bytes},
            {"driver_version", g.driver_version},
            {"runtime_version", g.runtime_version},
            {"compute", array_of(g.compute, gpu_compute_to_json)},
            {"memory", array_of(g.memory, gpu_memory_to_json)},
            {"bus", array_of(g.bus, bus_to_json)}};
    if (!g.architecture.empty()) j["architecture"] = g.architecture;
    if (!g.curves.empty()) j["curves"] = array_of(g.curves, gpu_curve_to_json);
    return j;
}

template <typename T, typename Convert>
json array_of(const std::vector<T>& items, Convert convert) {
    json out = json::array();
    for (const auto& item : items) out.push_back(convert(item));
    return out;
}

// ---------------------------------------------------------------- reading

// Optional members keep the default when absent; present members must have the right type.
void read_optional(const JsonNode& n, const std::string& key, std::string& out) {
    if (n.has(key)) out = n.child(key).as_string();
}
// Numbers are read in their ranges: read_optional_in, read_optional_figure.
void read_optional(const JsonNode& n, const std::string& key, std::uint64_t& out) {
    if (n.has(key)) out = n.child(key).as_uint64();
}
void read_optional(const JsonNode& n, const std::string& key, bool& out) {
    if (n.has(key)) out = n.child(key).as_bool();
}
void read_optional(const JsonNode& n, const std::string& key, std::vector<std::string>& out) {
    if (!n.has(key)) return;
    const auto list = n.child(key);
    list.require_array();
    out.clear();
    for (std::size_t i = 0; i < list.size(); ++i) out.push_back(list.element(i).as_string());
}

// Optional counts (threads, cores, ...) in a range; absent keeps the default.
void read_optional_in(const JsonNode& n, const std::string& key, int& out, int low, int high) {
    if (n.has(key)) out = n.child(key).as_int_in(low, high);
}
// Optional figures: absent keeps the default, null or 0 read as unknown.
void read_optional_figure(const JsonNode& n, const std::string& key, double& out, const FigureRange& range) {
    if (n.has(key)) out = n.child(key).as_figure_or_unknown(range);
}

// A level a roof or a point may name (core/level.hpp), in its canonical spelling.
std::string known_level(const JsonNode& n) {
    const auto name = n.as_nonempty_string();
    if (!is_known_level(name)) n.fail(fmt::format("unknown level '{}' (expected {})", name, known_levels_text()));
    return canonical_level(name);
}

// Reads an optional array of objects; each element through `parse`.
template <typename T, typename Parse>
void read_array(const JsonNode& n, const std::string& key, std::vector<T>& out, Parse parse) {
    out.clear();
    if (!n.has(key)) return;
    const auto list = n.child(key);
    list.require_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto item = list.element(i);
        item.require_object();
        out.push_back(parse(item));
    }
}

Stats stats_from(const JsonNode& n) {
    n.require_object();
    Stats s;
    read_optional_figure(n, "median", s.median, rate_range);
    read_optional_figure(n, "min", s.min, rate_range);
    read_optional_figure(n, "max", s.max, rate_range);
    read_optional_figure(n, "cv", s.cv, cv_range);
    read_optional_in(n, "runs", s.runs, 0, std::numeric_limits<int>::max());
    read_optional(n, "stable", s.stable);
    read_optional_in(n, "bursts", s.bursts, 0, std::numeric_limits<int>::max());
    read_optional_in(n, "rejected_bursts", s.rejected_bursts, 0, std::numeric_limits<int>::max());
    read_optional_figure(n, "quantile", s.quantile, {0, 1, "a quantile from 0 to 1"});
    read_optional(n, "cores_shared", s.cores_shared);
    // Summaries of one set of samples (0: not given): min <= median <= max.
    if (s.min > 0 && s.max > 0 && s.min > s.max)
        n.child("min").fail(fmt::format("expected at most max ({:g}), found {:g}", s.max, s.min));
    if (s.median > 0 && ((s.min > 0 && s.median < s.min) || (s.max > 0 && s.median > s.max)))
        n.child("median").fail(fmt::format("expected a median from min to max ({:g} to {:g}), found {:g}", s.min,
                                           s.max, s.median));
    return s;
}

CpuDescription cpu_from(const JsonNode& n) {
    n.require_object();
    CpuDescription c;
    c.model = n.required("model", "a string").as_string();
    read_optional(n, "vendor", c.vendor);
    read_optional(n, "isa", c.isa);
    read_optional_in(n, "sockets", c.sockets, 1, max_threads);
    read_optional_in(n, "cores", c.cores, 1, max_threads);
    read_optional_in(n, "threads", c.threads, 1, max_threads);
    read_optional_in(n, "numa_nodes", c.numa_nodes, 1, max_threads);
    read_optional_figure(n, "clock_ghz", c.clock_ghz, clock_range);
    read_optional_figure(n, "nominal_clock_ghz", c.nominal_clock_ghz, clock_range);
    return c;
}

CacheLevel cache_from(const JsonNode& n) {
    CacheLevel c;
    c.level = n.required("level", "an integer").as_int_in(1, 4);
    const auto size = n.required("size_bytes", "an integer");
    c.size_bytes = size.as_uint64();
    if (c.size_bytes < 1 || static_cast<double>(c.size_bytes) > max_cache_bytes)
        size.fail(fmt::format("expected a size from 1 byte to 1 TiB, found {}", c.size_bytes));
    read_optional_in(n, "line_bytes", c.line_bytes, 0, 1 << 16);
    read_optional_in(n, "associativity", c.associativity, -1, 1 << 16);
    read_optional_in(n, "shared_by_cores", c.shared_by_cores, 1, max_threads);
    read_optional_in(n, "instances", c.instances, 1, max_threads);
    read_optional(n, "size_source", c.size_source);
    if (!c.size_source.empty() && c.size_source != "reported" && c.size_source != "table" && c.size_source != "measured")
        n.child("size_source").fail(fmt::format("expected \"reported\", \"table\" or \"measured\", found \"{}\"",
                                                message_excerpt(c.size_source)));
    read_optional(n, "reported_size_bytes", c.reported_size_bytes);
    read_optional(n, "measured_size_bytes", c.measured_size_bytes);
    read_optional(n, "finding", c.finding);
    read_optional(n, "doubtful", c.doubtful);
    return c;
}

ComputeRoof compute_from(const JsonNode& n) {
    ComputeRoof r;
    read_optional(n, "name", r.name);
    const auto precision = n.required("precision", "a string");
    r.precision = precision.as_string();
    if (!is_valid_precision_name(r.precision))
        precision.fail(fmt::format("expected \"dp\", \"sp\" or a work unit's short name, found \"{}\"",
                                   message_excerpt(r.precision)));
    read_optional(n, "isa", r.isa);
    read_optional_in(n, "vector_bits", r.vector_bits, 0, 1 << 16);
    read_optional(n, "mix", r.mix);
    read_optional(n, "mix_detail", r.mix_detail);
    read_optional_in(n, "threads", r.threads, 1, max_threads);
    r.gflops = n.required("gflops", "a number").as_figure(rate_range);
    read_optional_figure(n, "theoretical_gflops", r.theoretical_gflops, rate_range);
    read_optional_figure(n, "theoretical_clock_ghz", r.theoretical_clock_ghz, clock_range);
    read_optional(n, "theoretical_clock", r.theoretical_clock);
    read_optional_in(n, "mixes_tried", r.mixes_tried, 0, std::numeric_limits<int>::max());
    if (n.has("stats")) r.stats = stats_from(n.child("stats"));
    return r;
}

MemoryRoof memory_from(const JsonNode& n) {
    MemoryRoof r;
    // Earlier versions wrote --working-set roofs as level "custom": still read (kept, never a level's roof).
    const auto level = n.required("level", "a string");
    r.level = level.value().is_string() && is_custom_working_set(level.as_string()) ? level.as_string()
                                                                                     : known_level(level);
    r.pattern = n.required("pattern", "a string").as_string();
    read_optional(n, "isa", r.isa);
    read_optional_in(n, "threads", r.threads, 1, max_threads);
    r.gbs = n.required("gbs", "a number").as_figure(rate_range);
    read_optional_figure(n, "gbs_write_allocate", r.gbs_write_allocate, rate_range);
    read_optional_figure(n, "theoretical_gbs", r.theoretical_gbs, rate_range);
    read_optional_figure(n, "theoretical_clock_ghz", r.theoretical_clock_ghz, clock_range);
    read_optional(n, "theoretical_clock", r.theoretical_clock);
    read_optional(n, "working_set_bytes", r.working_set_bytes);
    if (n.has("isa_trials")) {
        const auto trials = n.child("isa_trials");
        trials.require_array();
        for (std::size_t i = 0; i < trials.size(); ++i) {
            const auto trial = trials.element(i);
            trial.require_object();
            r.isa_trials.emplace_back(trial.required("isa", "a string").as_string(),
                                      trial.required("gbs", "a number").as_figure_or_unknown(rate_range));
        }
    }
    if (n.has("stats")) r.stats = stats_from(n.child("stats"));
    return r;
}

// A curve's "points": [[working_set_bytes, gbs], ...] (CPU and GPU curves alike).
void read_curve_points(const JsonNode& n, std::vector<std::pair<std::uint64_t, double>>& out) {
    const auto points = n.required("points", "an array");
    points.require_array();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto pair = points.element(i);
        if (!pair.value().is_array() || pair.size() != 2) pair.expected("an array [working_set_bytes, gbs]");
        out.emplace_back(pair.element(0).as_uint64(), pair.element(1).as_figure_or_unknown(rate_range));
    }
}

BandwidthCurve curve_from(const JsonNode& n) {
    BandwidthCurve c;
    c.pattern = n.required("pattern", "a string").as_string();
    read_optional(n, "isa", c.isa);
    read_optional_in(n, "threads", c.threads, 1, max_threads);
    read_curve_points(n, c.points);
    return c;
}

ValidationPoint validation_from(const JsonNode& n) {
    ValidationPoint v;
    v.level = known_level(n.required("level", "a string"));
    v.intensity = n.required("intensity", "a number").as_figure(intensity_range);
    read_optional_in(n, "threads", v.threads, 1, max_threads);
    read_optional(n, "working_set_bytes", v.working_set_bytes);
    v.gflops = n.required("gflops", "a number").as_figure_or_unknown(rate_range);
    read_optional_figure(n, "predicted_gflops", v.predicted_gflops, rate_range);
    read_optional_figure(n, "ratio", v.ratio, intensity_range);
    return v;
}

// Clocks in MHz: 1 MHz to 100 GHz.
constexpr FigureRange mhz_range{1, 1e5, "a clock from 1 to 100000 MHz"};

GpuComputeRoof gpu_compute_from(const JsonNode& n) {
    GpuComputeRoof r;
    read_optional(n, "name", r.name);
    const auto precision = n.required("precision", "a string");
    // Any spelling core/precision reads ("fp64", "dp", ...), kept as GPU roofs are written ("fp64").
    const std::string text = precision.as_string();
    const auto known = gpu_precision(text);
    if (!known)
        precision.fail(fmt::format("unknown GPU precision \"{}\" (expected {})", text, known_gpu_precisions_text()));
    r.precision = *known;
    read_optional(n, "work_unit", r.work_unit);
    if (r.work_unit != "FLOP" && r.work_unit != "OP") n.child("work_unit").expected("\"FLOP\" or \"OP\"");
    read_optional(n, "tensor", r.tensor);
    r.gflops = n.required("gflops", "a number").as_figure(rate_range);
    read_optional_figure(n, "theoretical_gflops", r.theoretical_gflops, rate_range);
    read_optional_figure(n, "clock_mhz", r.clock_mhz, mhz_range);
    if (n.has("stats")) r.stats = stats_from(n.child("stats"));
    return r;
}

GpuMemoryRoof gpu_memory_from(const JsonNode& n) {
    GpuMemoryRoof r;
    r.level = known_level(n.required("level", "a string"));
    r.pattern = n.required("pattern", "a string").as_nonempty_string();
    r.gbs = n.required("gbs", "a number").as_figure(rate_range);
    read_optional_figure(n, "theoretical_gbs", r.theoretical_gbs, rate_range);
    read_optional(n, "working_set_bytes", r.working_set_bytes);
    read_optional_in(n, "blocks_per_sm", r.blocks_per_sm, 0, 1 << 16);
    if (n.has("stats")) r.stats = stats_from(n.child("stats"));
    return r;
}

BusRoof bus_from(const JsonNode& n) {
    BusRoof r;
    const auto direction = n.required("direction", "a string");
    r.direction = direction.as_string();
    if (r.direction != "h2d" && r.direction != "d2h" && r.direction != "bidirectional")
        direction.expected("\"h2d\", \"d2h\" or \"bidirectional\"");
    read_optional(n, "pinned", r.pinned);
    r.gbs = n.required("gbs", "a number").as_figure(rate_range);
    read_optional(n, "bytes", r.bytes);
    if (n.has("stats")) r.stats = stats_from(n.child("stats"));
    return r;
}

GpuBandwidthCurve gpu_curve_from(const JsonNode& n) {
    GpuBandwidthCurve c;
    c.level = known_level(n.required("level", "a string"));
    c.pattern = n.required("pattern", "a string").as_string();
    read_optional_in(n, "blocks_per_sm", c.blocks_per_sm, 0, 1 << 16);
    read_curve_points(n, c.points);
    return c;
}

GpuModel gpu_from(const JsonNode& n) {
    GpuModel g;
    read_optional_in(n, "index", g.index, 0, 1 << 16);
    // Absent in models written before GPUs had a vendor: those were all NVIDIA's.
    if (n.has("vendor")) {
        const auto vendor = n.child("vendor");
        const auto parsed = parse_gpu_vendor(vendor.as_string());
        if (!parsed) vendor.expected(fmt::format("a GPU vendor ({})", known_gpu_vendors_text()));
        g.vendor = *parsed;
    }
    g.name = n.required("name", "a string").as_nonempty_string();
    read_optional(n, "uuid", g.uuid);
    read_optional(n, "pci_bus_id", g.pci_bus_id);
    if (n.has("architecture")) {
        const auto arch = n.child("architecture");
        g.architecture = arch.as_string();
        const bool plain = !g.architecture.empty() && g.architecture.size() <= 32 &&
                           std::all_of(g.architecture.begin(), g.architecture.end(), [](unsigned char c) {
                               return std::isalnum(c) || c == '_' || c == '-' || c == '.';
                           });
        if (!plain) arch.expected("an architecture name (e.g. \"gfx942\")");
    }
    if (n.has("compute_capability")) {
        const auto cc = n.child("compute_capability");
        const std::string text = cc.as_string();
        int major = 0, minor = 0;
        char extra = 0;
        if (std::sscanf(text.c_str(), "%d.%d%c", &major, &minor, &extra) != 2 || major < 1 || major > 99 || minor < 0 ||
            minor > 99)
            cc.expected("a compute capability \"MAJOR.MINOR\" (e.g. \"9.0\")");
        g.compute_capability_major = major;
        g.compute_capability_minor = minor;
    }
    read_optional_in(n, "sm_count", g.sm_count, 0, 1 << 16);
    read_optional_figure(n, "sm_clock_mhz", g.sm_clock_mhz, mhz_range);
    read_optional_figure(n, "max_sm_clock_mhz", g.max_sm_clock_mhz, mhz_range);
    read_optional_figure(n, "memory_clock_mhz", g.memory_clock_mhz, mhz_range);
    read_optional_in(n, "memory_bus_bits", g.memory_bus_bits, 0, 1 << 16);
    read_optional(n, "memory_bytes", g.memory_bytes);
    read_optional(n, "l2_bytes", g.l2_bytes);
    read_optional(n, "driver_version", g.driver_version);
    read_optional(n, "runtime_version", g.runtime_version);
    read_array(n, "compute", g.compute, gpu_compute_from);
    read_array(n, "memory", g.memory, gpu_memory_from);
    read_array(n, "bus", g.bus, bus_from);
    read_array(n, "curves", g.curves, gpu_curve_from);
    return g;
}

Environment environment_from(const JsonNode& n) {
    n.require_object();
    Environment e;
    read_optional(n, "hostname", e.hostname);
    read_optional(n, "hypervisor", e.hypervisor);
    read_optional(n, "governor", e.governor);
    read_optional(n, "turbo", e.turbo);
    read_optional_figure(n, "load_average", e.load_average, {0, 1e7, "a load average from 0 to 1e7"});
    if (n.has("steal_share") && !n.child("steal_share").value().is_null())
        read_optional_figure(n, "steal_share", e.steal_share, {0, 1, "a share of the CPUs' time from 0 to 1"});
    if (n.has("others_busy_cpus") && !n.child("others_busy_cpus").value().is_null())
        read_optional_figure(n, "others_busy_cpus", e.others_busy_cpus, {0, 1e7, "a number of CPUs from 0 to 1e7"});
    read_optional_figure(n, "clock_before_ghz", e.clock_before_ghz, clock_range);
    read_optional_figure(n, "clock_after_ghz", e.clock_after_ghz, clock_range);
    read_optional(n, "compiler", e.compiler);
    read_optional(n, "tool_version", e.tool_version);
    read_optional(n, "timestamp", e.timestamp);
    if (n.has("mode") && !n.child("mode").value().is_null()) {
        const auto mode = n.child("mode");
        const std::string name = mode.as_string();
        e.mode = parse_bench_mode(name);
        if (!e.mode && !name.empty()) mode.expected("\"quick\", \"full\" or \"spec\"");
    }
    read_optional_figure(n, "duration_seconds", e.duration_seconds, seconds_range);
    read_optional(n, "microarchitecture", e.microarchitecture);
    read_optional(n, "restricted_to", e.restricted_to);
    read_optional(n, "statistic", e.statistic);
    read_optional(n, "warnings", e.warnings);
    read_optional(n, "refused", e.refused);
    return e;
}

} // namespace

nlohmann::json machine_to_json(const MachineModel& model) {
    json j;
    j["schema"] = model.schema.empty() ? std::string(machine_schema) : model.schema;
    j["units"] = units_object();
    j["partial"] = model.partial;
    j["cpu"] = cpu_to_json(model.cpu);
    j["caches"] = array_of(model.caches, cache_to_json);
    j["compute"] = array_of(model.compute, compute_to_json);
    j["memory"] = array_of(model.memory, memory_to_json);
    j["curves"] = array_of(model.curves, curve_to_json);
    if (!model.cache_probe.points.empty()) j["cache_probe"] = curve_to_json(model.cache_probe);
    j["validation"] = array_of(model.validation, validation_to_json);
    if (!model.gpus.empty()) j["gpus"] = array_of(model.gpus, gpu_to_json);  // bench --gpu only
    j["environment"] = environment_to_json(model.environment);
    return j;
}

// Required: schema, cpu.model, and the fields that carry a roof's meaning
// (precision + gflops, level + pattern + gbs, ...). Everything else is
// optional so hand-written spec-sheet files stay short; unknown keys are
// ignored so newer minor additions do not break older readers.
MachineModel machine_from_json(const nlohmann::json& j, const std::string& source) {
    const JsonNode root(j, "", source);
    const auto schema = root.require_schema(machine_schema, "roofline machine model");
    root.require_units(units_object());

    MachineModel model;
    model.schema = schema;
    read_optional(root, "partial", model.partial);
    model.cpu = cpu_from(root.required("cpu", "an object"));
    read_array(root, "caches", model.caches, cache_from);
    read_array(root, "compute", model.compute, compute_from);
    read_array(root, "memory", model.memory, memory_from);
    read_array(root, "curves", model.curves, curve_from);
    if (root.has("cache_probe")) model.cache_probe = curve_from(root.child("cache_probe"));
    read_array(root, "validation", model.validation, validation_from);
    read_array(root, "gpus", model.gpus, gpu_from);
    if (root.has("environment")) model.environment = environment_from(root.child("environment"));
    return model;
}

GpuModel gpu_from_gpubench_json(const nlohmann::json& j, const std::string& source) {
    const JsonNode root(j, "", source);
    root.require_schema("roofline.gpubench/1", "roofline GPU benchmark result");
    const auto gpu = root.required("gpu", "an object");
    gpu.require_object();
    return gpu_from(gpu);
}

void write_machine_file(const std::string& path, const MachineModel& model) {
    write_text_file_atomic(path, machine_to_json(model).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

MachineModel read_machine_file(const std::string& path) {
    return machine_from_json(read_json_file(path), path);
}

void check_writable(const std::string& path) { check_file_writable(path); }

} // namespace roofline
