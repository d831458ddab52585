#include "io/machine_spec_yaml.hpp"

#include "core/byte_sizes.hpp"
#include "core/hardware_limits.hpp"
#include "core/input_limits.hpp"
#include "core/level.hpp"
#include "core/message_name.hpp"
#include "core/precision.hpp"

#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"
#include "io/yaml_node.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

namespace roofline {
namespace {

constexpr const char* spec_schema = "roofline.machine-spec/1";
constexpr const char* roof_pattern = "bandwidth";  // gives roofs named "<level> bandwidth"
constexpr const char* ceiling_isa = "spec";


// A figure the model believes only inside `range` (core/input_limits.hpp).
double checked_figure(const YamlNode& n, const FigureRange& range) {
    const double v = n.as_number();
    if (!in_range(range, v))
        n.fail(fmt::format("expected {}, found {:g}", range.what, v));
    return v;
}

int count(const YamlNode& n, const std::string& what, int low, int high) {
    const int v = n.as_int();
    if (v < low || v > high) n.fail(fmt::format("expected {} from {} to {}, found {}", what, low, high, v));
    return v;
}

std::string known_level(const YamlNode& n, const std::string& name) {
    if (!is_known_level(name))
        n.fail(fmt::format("unknown level '{}' (expected {})", message_excerpt(name), known_levels_text()));
    return canonical_level(name);
}

// A figure: a number (for the sheet's thread count) or a map {threads: value}.
// A key above the sheet's cores would be a roofline no run of this machine can
// have, judged with none of the sheet's other roofs: refused.
std::vector<std::pair<int, double>> figures_by_threads(const YamlNode& n, int default_threads, int cores,
                                                       const std::string& what) {
    std::vector<std::pair<int, double>> out;
    if (n.is_map()) {
        for (const auto& [key, value] : n.entries()) {
            int threads = 0;
            try {
                std::size_t used = 0;
                threads = std::stoi(key, &used);
                if (used != key.size()) threads = 0;
            } catch (const std::exception&) {
            }
            if (threads < 1 || threads > max_threads)
                value.fail(fmt::format("expected a thread count (1, 2, ...) as the key, found '{}'", key));
            if (threads > cores)
                value.fail(fmt::format("expected a thread count from 1 to the sheet's {} core{} ('cores:', 1 when "
                                       "not given) as the key, found {}",
                                       cores, cores == 1 ? "" : "s", threads));
            out.emplace_back(threads, checked_figure(value, rate_range));
        }
        if (out.empty()) n.expected(fmt::format("{} or a map of thread count to {}", what, what));
    } else {
        out.emplace_back(default_threads, checked_figure(n, rate_range));
    }
    return out;
}

// A roof a written ceiling must not exceed: its thread count and figure.
struct RoofBound {
    int threads = 0;
    double value = 0;
};

// The sheet's roof for a ceiling at `threads` threads: the figure at that count,
// else the lowest at a higher count (more threads never lower a roof); none when
// the sheet gives no figure at or above that count.
template <class Roof, class Same, class Value>
std::optional<RoofBound> roof_for(const std::vector<Roof>& roofs, int threads, Same same, Value value) {
    std::optional<RoofBound> exact, above;
    for (const auto& r : roofs) {
        if (!same(r)) continue;
        if (r.threads == threads) exact = RoofBound{r.threads, value(r)};
        else if (r.threads > threads && (!above || value(r) < above->value)) above = RoofBound{r.threads, value(r)};
    }
    return exact ? exact : above;
}

// A written ceiling above its roof would become the roof (a model's roof is its
// fastest entry) or silently vanish: either way the chart would not say what the
// sheet says. One with no roof at all would become one.
void check_below_roof(const YamlNode& value_node, double value, const std::string& roof_name, const std::string& unit,
                      int threads, const std::optional<RoofBound>& roof) {
    if (!roof)
        value_node.fail(fmt::format("the sheet gives no {} at {} thread{} or more for this ceiling to lie below",
                                    roof_name, threads, threads == 1 ? "" : "s"));
    if (value > roof->value)
        value_node.fail(fmt::format("expected at most the {} at {} thread{} ({:g} {}), found {:g}: a ceiling "
                                    "cannot be above its roof",
                                    roof_name, roof->threads, roof->threads == 1 ? "" : "s", roof->value, unit, value));
}

// A precision as a sheet writes it: the FLOP precisions in any spelling the precision table
// reads ("DP", "double", "fp64" -> "dp"), another work unit as written ("IOP", "exchange").
// 'DP: 20' was a work unit named "DP" ("20 GDP/s"), not the dp peak it meant.
std::string sheet_precision(const std::string& written) {
    const auto canonical = canonical_precision(written);
    return canonical && is_flop_precision(*canonical) ? *canonical : written;
}

void read_compute_ceiling(const YamlNode& n, MachineFile& out, int simd_bits, const std::vector<ComputeRoof>& peaks) {
    n.require_map();
    n.allow_only({"name", "value", "category", "advice", "precision", "vector_bits"});
    NamedCeiling named;
    Ceiling& c = named.ceiling;
    c.kind = CeilingKind::compute;
    c.name = n.required("name", "the ceiling's name").as_string();
    c.value = checked_figure(n.required("value", "G<unit>/s"), rate_range);
    c.category = n.has("category") ? n.child("category").as_string() : "other";
    if (const auto a = n.optional("advice")) c.advice = a->as_string();
    named.precision = n.has("precision") ? sheet_precision(n.child("precision").as_string()) : "dp";
    if (!is_valid_precision_name(named.precision))
        n.child("precision").fail(fmt::format("expected dp, sp or a work unit's short name, found '{}'", named.precision));

    ComputeRoof entry;
    entry.name = c.name;
    entry.precision = named.precision;
    entry.isa = ceiling_isa;
    entry.vector_bits = simd_bits;
    entry.threads = out.spec_threads;
    entry.gflops = c.value;
    entry.mix_detail = "spec sheet ceiling: " + c.name;
    if (c.category == "fma") entry.mix = "mul+add";
    else if (c.category == "balance") entry.mix = "add";
    else if (c.category == "ilp") entry.mix = "chain";
    else if (c.category == "threads") entry.mix = "spec", entry.threads = 1;
    else if (c.category == "simd") {
        entry.mix = "simd";  // a mix the other ceilings do not look for
        entry.vector_bits = element_bits_of(named.precision);
        if (const auto bits = n.optional("vector_bits")) entry.vector_bits = count(*bits, "a vector width in bits", 8, 4096);
    } else {
        entry.mix.clear();  // no place in the model: kept as a named ceiling only
    }
    if (n.has("vector_bits") && c.category != "simd") n.child("vector_bits").fail("'vector_bits' belongs to simd ceilings only");
    const std::string unit = is_flop_precision(named.precision) ? "GFLOP/s" : "G" + named.precision + "/s";
    check_below_roof(n.child("value"), c.value, named.precision + " peak", unit, entry.threads,
                     roof_for(
                         peaks, entry.threads, [&](const ComputeRoof& r) { return r.precision == named.precision; },
                         [](const ComputeRoof& r) { return r.gflops; }));
    if (!entry.mix.empty()) out.model.compute.push_back(entry);
    out.named_ceilings.push_back(named);
}

void read_bandwidth_ceiling(const YamlNode& n, MachineFile& out, const std::vector<MemoryRoof>& roofs) {
    n.require_map();
    n.allow_only({"name", "value", "level", "category", "pattern", "advice"});
    NamedCeiling named;
    Ceiling& c = named.ceiling;
    c.kind = CeilingKind::bandwidth;
    c.name = n.required("name", "the ceiling's name").as_string();
    c.value = checked_figure(n.required("value", "GB/s"), rate_range);
    c.level = n.has("level") ? known_level(n.child("level"), n.child("level").as_string()) : "DRAM";
    c.category = n.has("category") ? n.child("category").as_string() : "pattern";
    if (const auto a = n.optional("advice")) c.advice = a->as_string();

    MemoryRoof entry;
    entry.level = c.level;
    entry.isa = ceiling_isa;
    entry.threads = out.spec_threads;
    entry.gbs = c.value;
    entry.pattern = n.has("pattern") ? n.child("pattern").as_string() : c.name;
    if (c.category == "threads") entry.threads = 1, entry.pattern = roof_pattern;
    if (c.category == "numa") entry.level = "NUMA0->1", c.level = "DRAM";
    check_below_roof(n.child("value"), c.value, c.level + " bandwidth", "GB/s", entry.threads,
                     roof_for(
                         roofs, entry.threads, [&](const MemoryRoof& r) { return r.level == c.level; },
                         [](const MemoryRoof& r) { return r.gbs; }));
    out.model.memory.push_back(entry);
    out.named_ceilings.push_back(named);
}

// A cache as the sheet gives it: the size of one instance, or {size, shared_by_cores}. Without
// the sharing, L1 and L2 are private to each core and L3 and L4 one per socket, as on most
// CPUs; the machine has as many instances as its cores need (a team of threads on private
// caches has one each: working sets and residences are checked against all of them).
void read_caches(const YamlNode& n, MachineModel& model) {
    const int cores = std::max(1, model.cpu.cores);
    const int sockets = std::clamp(model.cpu.sockets, 1, cores);
    for (const auto& [name, entry] : n.entries()) {
        const auto number = cache_level_number(name);
        if (!number || *number < 1 || *number > 4)
            entry.fail(fmt::format("expected a cache level L1, L2, L3 or L4 as the key, found '{}'", name));
        CacheLevel cache;
        cache.level = *number;
        cache.shared_by_cores = cache.level <= 2 ? 1 : (cores + sockets - 1) / sockets;
        if (entry.is_map()) entry.allow_only({"size", "shared_by_cores"});
        const YamlNode size = entry.is_map() ? entry.required("size", "the size of one instance, e.g. 1MiB") : entry;
        if (const auto shared = entry.is_map() ? entry.optional("shared_by_cores") : std::nullopt) {
            cache.shared_by_cores = shared->as_int();
            if (cache.shared_by_cores < 1 || cache.shared_by_cores > cores)
                shared->fail(fmt::format("expected the number of cores sharing one instance, from 1 to the sheet's "
                                         "{} core{} ('cores:', 1 when not given), found {}",
                                         cores, cores == 1 ? "" : "s", cache.shared_by_cores));
        }
        cache.size_bytes = size.as_bytes();
        const std::uint64_t largest = largest_cache_of_any_machine(cache.level);
        if (cache.size_bytes < 1 || cache.size_bytes > largest)
            size.fail(fmt::format("expected a cache size from 1 byte to {} (no machine's L{} is larger), found {}",
                                  format_bytes(largest), cache.level, format_bytes(cache.size_bytes)));
        cache.instances = (cores + cache.shared_by_cores - 1) / cache.shared_by_cores;
        model.caches.push_back(cache);
    }
}

// Data from an outer level reaches the core through the inner ones, so an outer level
// well above an inner one at the same thread count cannot be true (10%: figures copied
// from measurements carry their noise). DRAM and HBM are not ordered against each other.
void check_levels_in_order(const std::vector<std::pair<MemoryRoof, YamlNode>>& written) {
    constexpr double kNoise = 0.10;
    for (const auto& [outer, node] : written) {
        if (!is_memory_level(outer.level)) continue;
        const auto outer_cache = cache_level_number(outer.level);
        for (const auto& [inner, unused] : written) {
            const auto inner_cache = cache_level_number(inner.level);
            if (inner.threads != outer.threads || !inner_cache || (outer_cache && *outer_cache <= *inner_cache)) continue;
            if (outer.gbs > inner.gbs * (1 + kNoise))
                node.fail(fmt::format("{} at {} GB/s ({} thread{}) is faster than {} at {} GB/s: data from {} passes "
                                      "through {}, so it cannot be; check the levels and units",
                                      outer.level, outer.gbs, outer.threads, outer.threads == 1 ? "" : "s", inner.level,
                                      inner.gbs, outer.level, inner.level));
        }
    }
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

MachineFile machine_spec_from_yaml(const std::string& text, const std::string& source) {
    const auto documents = parse_yaml_documents(text, source);
    if (documents.size() != 1) documents[1].fail("a spec-sheet machine file holds one YAML document");
    const YamlNode& n = documents.front();
    n.require_map();
    if (n.has("arrays") || n.has("kernels")) n.fail("this is a kernel spec, not a machine: pass it without --machine");
    n.allow_only({"schema", "name", "vendor", "isa", "sockets", "cores", "threads", "numa_nodes", "clock_ghz",
                  "simd_bits", "caches", "peak", "bandwidth", "ceilings", "source", "notes"});
    if (const auto s = n.optional("schema"); s && s->as_string() != spec_schema)
        s->fail(fmt::format("expected schema '{}', found '{}'", spec_schema, s->as_string()));

    MachineFile out;
    out.spec_sheet = true;
    MachineModel& m = out.model;
    m.cpu.model = n.required("name", "the machine's name").as_string();
    if (const auto v = n.optional("vendor")) m.cpu.vendor = v->as_string();
    if (const auto isa = n.optional("isa"))
        for (const auto& item : isa->elements()) m.cpu.isa.push_back(item.as_string());
    if (const auto v = n.optional("sockets")) m.cpu.sockets = count(*v, "a socket count", 1, max_threads);
    if (const auto v = n.optional("cores")) m.cpu.cores = count(*v, "a core count", 1, max_threads);
    m.cpu.threads = m.cpu.cores;
    if (const auto v = n.optional("threads")) m.cpu.threads = count(*v, "a thread count", 1, max_threads);
    if (const auto v = n.optional("numa_nodes")) m.cpu.numa_nodes = count(*v, "a NUMA node count", 1, max_threads);
    if (const auto v = n.optional("clock_ghz")) m.cpu.clock_ghz = m.cpu.nominal_clock_ghz = checked_figure(*v, clock_range);
    if (const auto c = n.optional("caches")) read_caches(*c, m);
    int simd_bits = 256;
    if (const auto v = n.optional("simd_bits")) simd_bits = count(*v, "a vector width in bits", 8, 4096);
    out.spec_threads = m.cpu.cores;
    // Per-core limits need the cores written (a GPU's sheet may count none); without a clock,
    // the fastest any core runs (kFastestCoreClockGhz) stands for it.
    const bool per_core_known = n.has("cores");
    const double limit_clock = n.has("clock_ghz") ? m.cpu.clock_ghz : kFastestCoreClockGhz;
    const std::string clock_assumed = n.has("clock_ghz") ? "" : " (no clock_ghz written: the fastest clock any core runs)";

    const auto peaks = n.required("peak", "a map of precision (dp, sp) to G<unit>/s");
    std::map<std::string, std::string> peak_key;  // precision -> the key that gave it
    for (const auto& [written, figure] : peaks.entries()) {
        if (!is_valid_precision_name(written))
            figure.fail(fmt::format("expected dp, sp or a work unit's short name as the key, found '{}'",
                                    message_excerpt(written)));
        const std::string precision = sheet_precision(written);
        if (const auto [first, fresh] = peak_key.emplace(precision, written); !fresh)
            figure.fail(fmt::format("the {} peak is given twice, as '{}' and as '{}': give it once", precision,
                                    first->second, written));
        for (const auto& [threads, value] : figures_by_threads(figure, out.spec_threads, m.cpu.cores, "G<unit>/s")) {
            ComputeRoof r;
            r.name = fmt::format("{} peak {}t (spec sheet)", precision, threads);
            r.precision = precision;
            r.isa = ceiling_isa;
            r.vector_bits = is_flop_precision(precision) ? simd_bits : 0;
            r.mix = "best";
            r.threads = threads;
            r.gflops = r.theoretical_gflops = value;
            if (per_core_known && is_flop_precision(precision))
                if (const auto why = work_rate_beyond_any_machine(value, precision, threads, limit_clock); !why.empty())
                    figure.fail(fmt::format("{} peak {} GFLOP/s at {} thread{} is {}{}", precision, value, threads,
                                            threads == 1 ? "" : "s", why, clock_assumed));
            m.compute.push_back(r);
        }
    }
    if (m.compute.empty()) peaks.expected("at least one peak, e.g. dp: 85.8");

    const auto bandwidths = n.required("bandwidth", "a map of level (L1, L2, L3, DRAM) to GB/s");
    std::vector<std::pair<MemoryRoof, YamlNode>> written;
    std::map<std::string, std::string> level_key;  // level -> the key that gave it
    for (const auto& [key, figure] : bandwidths.entries()) {
        const std::string level = known_level(figure, key);
        if (const auto [first, fresh] = level_key.emplace(level, key); !fresh)
            figure.fail(fmt::format("the {} bandwidth is given twice, as '{}' and as '{}': give it once", level,
                                    first->second, key));
        for (const auto& [threads, value] : figures_by_threads(figure, out.spec_threads, m.cpu.cores, "GB/s")) {
            MemoryRoof r;
            r.level = level;
            r.pattern = roof_pattern;
            r.isa = ceiling_isa;
            r.threads = threads;
            r.gbs = value;
            if (per_core_known)
                if (const auto why = byte_rate_beyond_any_machine(value, threads, limit_clock); !why.empty())
                    figure.fail(fmt::format("{} bandwidth {} GB/s at {} thread{} is {}{}", r.level, value, threads,
                                            threads == 1 ? "" : "s", why, clock_assumed));
            m.memory.push_back(r);
            written.emplace_back(r, figure);
        }
    }
    check_levels_in_order(written);
    if (m.memory.empty()) bandwidths.expected("at least one bandwidth, e.g. DRAM: 29");

    if (const auto ceilings = n.optional("ceilings")) {
        ceilings->allow_only({"compute", "bandwidth"});
        // Each ceiling against the written roofs only, not against the ceilings read before it.
        const std::vector<ComputeRoof> peaks_written = m.compute;
        const std::vector<MemoryRoof> roofs_written = m.memory;
        if (const auto list = ceilings->optional("compute"))
            for (const auto& item : list->elements()) read_compute_ceiling(item, out, simd_bits, peaks_written);
        if (const auto list = ceilings->optional("bandwidth"))
            for (const auto& item : list->elements()) read_bandwidth_ceiling(item, out, roofs_written);
    }

    m.environment.mode = BenchMode::spec;
    if (const auto s = n.optional("source")) m.environment.warnings.push_back("spec sheet source: " + s->as_string());
    m.environment.tool_version = ROOFLINE_VERSION;
    return out;
}

MachineFile read_machine_spec_file(const std::string& path) { return machine_spec_from_yaml(read_text_file(path), path); }

MachineFile load_machine_file(const std::string& path) {
    // Read once: the path may be a pipe (--machine <(...)), which cannot be read twice.
    const std::string text = read_text_file(path);
    bool yaml = ends_with(path, ".yaml") || ends_with(path, ".yml");
    if (!yaml && !ends_with(path, ".json")) {
        const auto first = text.find_first_not_of(" \t\r\n");
        yaml = first != std::string::npos && text[first] != '{';
    }
    if (yaml) return machine_spec_from_yaml(text, path);
    MachineFile out;
    out.model = machine_from_json(parse_json_text(text, path), path);
    return out;
}

} // namespace roofline
