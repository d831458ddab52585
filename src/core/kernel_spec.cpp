#include "core/kernel_spec.hpp"

#include "core/code_traits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace roofline {
namespace {

// How deep an array's traffic reaches: 0 registers (no level), 1 L1 ... 4 DRAM.
int residence_depth(const std::string& resident_in) {
    if (resident_in == "registers") return 0;
    if (resident_in == "L1") return 1;
    if (resident_in == "L2") return 2;
    if (resident_in == "L3") return 3;
    return 4;  // "", "memory", "DRAM": streams from memory
}

std::map<std::string, LevelTraffic> count_traffic(const KernelSpec& spec) {
    const auto& levels = spec_levels();
    std::map<std::string, LevelTraffic> traffic;
    for (const auto& array : spec.arrays) {
        const int depth = residence_depth(array.resident_in);
        const int last = static_cast<int>(levels.size());
        for (int level = 1; level <= last; ++level) {
            const double access = bytes_per_access(array, level, spec.line_bytes);
            const double loaded = array.reads_per_iteration * access;
            const double stored = array.writes_per_iteration * access;
            // A store to a line the loop also reads (y = y + ...) finds it loaded already:
            // only stores beyond the reads allocate.
            const double allocated = std::max(0.0, array.writes_per_iteration - array.reads_per_iteration) * access;
            LevelTraffic t;
            if (level <= depth) t.loaded = loaded;
            if (array.non_temporal) {
                // Streaming stores leave the core for memory without touching the
                // caches: the store instructions at L1, the bytes at DRAM.
                if (level == 1 || level == last) t.stored = t.non_temporal_stored = stored;
            } else if (level <= depth) {
                t.stored = stored;
                // L1 counts what instructions move; the read for ownership happens below it.
                if (array.write_allocate && level >= 2) t.allocated = allocated;
            }
            if (t.loaded + t.stored + t.allocated > 0) {
                LevelTraffic& sum = traffic[levels[static_cast<std::size_t>(level - 1)]];
                sum.loaded += t.loaded;
                sum.stored += t.stored;
                sum.non_temporal_stored += t.non_temporal_stored;
                sum.allocated += t.allocated;
            }
        }
    }
    return traffic;
}

std::map<std::string, double> count_bytes(const KernelSpec& spec, bool with_write_allocate) {
    std::map<std::string, double> bytes;
    for (const auto& [level, t] : count_traffic(spec)) {
        const double moved = t.loaded + t.stored + (with_write_allocate ? t.allocated : 0.0);
        if (moved > 0) bytes[level] = moved;
    }
    return bytes;
}

double iteration_count(const KernelSpec& spec) { return spec.iterations.value_or(1.0); }

const Roof* roof_of(const Roofline& r, const std::string& level) {
    for (const auto& b : r.bandwidth)
        if (b.level == level) return &b;
    return nullptr;
}

// The time terms of T = max(W / P, Q_l / B_l), per iteration.
struct Timing {
    double seconds = 0;
    std::string roof;
    std::string level;
};

Timing time_per_iteration(const KernelSpec& spec, const Roofline& r, View view) {
    Timing t;
    t.seconds = spec.work_per_iteration / (r.compute.value * 1e9);
    t.roof = r.compute.name;
    const auto bytes = bytes_per_iteration(spec);
    for (const auto& b : r.bandwidth) {
        if (view == View::orm && b.level != "DRAM") continue;
        const auto it = bytes.find(b.level);
        if (it == bytes.end() || b.value <= 0) continue;
        const double seconds = it->second / (b.value * 1e9);
        if (seconds > t.seconds) t = {seconds, b.name, b.level};
    }
    return t;
}

double predicted_performance(const KernelSpec& spec, const Roofline& r, View view) {
    const double seconds = time_per_iteration(spec, r, view).seconds;
    return seconds > 0 ? spec.work_per_iteration / seconds / 1e9 : 0;
}

void add_model_lifts(const KernelSpec& spec, const Roofline& r, View view, KernelPrediction& out) {
    if (out.binding_level.empty() || spec.work_per_iteration <= 0) return;

    // Non-temporal stores drop the write-allocate reads (and the stores' trips
    // through L2 and L3). Only for arrays that stream from memory: a cache-resident
    // output stored non-temporally would be sent to memory.
    KernelSpec streaming = spec;
    std::vector<std::string> allocating;
    for (auto& a : streaming.arrays) {
        if (a.writes_per_iteration > a.reads_per_iteration && a.write_allocate && !a.non_temporal &&
            residence_depth(a.resident_in) == 4) {
            allocating.push_back(a.name);
            a.write_allocate = false;
            a.non_temporal = true;
        }
    }
    if (!allocating.empty()) {
        const double p = predicted_performance(streaming, r, view);
        if (p > out.performance * 1.001)
            out.lifts.push_back({KernelPrediction::Lift::Kind::non_temporal_stores, allocating, {}, 0, 0, {}, p});
    }

    // How much intensity the compute roof needs at the binding level.
    const Roof* roof = roof_of(r, out.binding_level);
    if (roof && roof->value > 0) {
        const double needed = ridge_point(r.compute.value, roof->value);
        out.lifts.push_back({KernelPrediction::Lift::Kind::intensity_at_level, {}, out.binding_level, needed,
                             out.intensity.at(out.binding_level), r.compute.name, r.compute.value});
    }
}

} // namespace

bool scattered_access(const ArraySpec& a) { return a.random || a.stride > 1; }

std::vector<std::string> unmodelled_effects(const KernelSpec& spec) {
    constexpr double kPageBytes = 4096;  // the base page of x86-64 and most Linux systems
    std::vector<std::string> out;
    for (const auto& a : spec.arrays) {
        const bool in_memory = a.resident_in.empty() || a.resident_in == "memory";
        if (!a.random && in_memory && a.stride * a.element_bytes >= kPageBytes)
            out.push_back(fmt::format(
                "{}'s accesses fall {} B apart, a page or more: TLB misses and DRAM page changes are not in the "
                "model, so read the prediction as a bound such code often misses by several times",
                a.name, a.stride * a.element_bytes));
        if (a.random && a.resident_in != "registers" && a.resident_in != "L1")
            out.push_back(fmt::format(
                "{}'s accesses land at random: each waits for its line (latency, and the misses a core keeps in "
                "flight), which the model leaves out, so read the prediction as a bound such code often misses by "
                "twice or more",
                a.name));
    }
    return out;
}

double bytes_per_access(const ArraySpec& a, int level, double line_bytes) {
    // L1 counts what the instructions move; below the cache that keeps the lines until
    // they are used whole, each line crosses once, as a contiguous operand's elements do.
    if (level <= 1 || !scattered_access(a) || level > residence_depth(a.lines_kept_in)) return a.element_bytes;
    const double span = a.random ? line_bytes : a.stride * a.element_bytes;
    return std::max(a.element_bytes, std::min(span, line_bytes));
}

const std::vector<std::string>& spec_levels() {
    static const std::vector<std::string> levels{"L1", "L2", "L3", "DRAM"};
    return levels;
}

std::string float_precision_of_type(const std::string& type) {
    if (type == "double" || type == "float64" || type == "complex") return "dp";
    if (type == "float" || type == "float32" || type == "complex_float") return "sp";
    if (type == "half" || type == "float16") return "fp16";
    return "";
}

SpecPrecision spec_precision(const KernelSpec& spec) {
    SpecPrecision out;
    for (const auto& a : spec.arrays)
        if (const std::string p = float_precision_of_type(a.type);
            !p.empty() && std::find(out.types.begin(), out.types.end(), p) == out.types.end())
            out.types.push_back(p);
    if (spec.work_unit != "FLOP") return out;  // not floating-point work: no FLOP roof to choose
    if (!spec.precision.empty()) {
        out.basis = SpecPrecision::Basis::declared;
        out.precision = spec.precision;
    } else if (out.types.size() == 1) {
        out.basis = SpecPrecision::Basis::element_types;
        out.precision = out.types.front();
    } else if (out.types.size() > 1) {
        out.basis = SpecPrecision::Basis::mixed_types;
    }
    return out;
}

bool is_known_residence(const std::string& r) {
    return r.empty() || r == "registers" || r == "L1" || r == "L2" || r == "L3" || r == "memory" || r == "DRAM";
}

std::map<std::string, LevelTraffic> traffic_per_iteration(const KernelSpec& spec) { return count_traffic(spec); }

std::map<std::string, double> bytes_per_iteration(const KernelSpec& spec) { return count_bytes(spec, true); }

std::map<std::string, double> nominal_bytes_per_iteration(const KernelSpec& spec) { return count_bytes(spec, false); }

std::map<std::string, double> intensity_per_level(const KernelSpec& spec) {
    std::map<std::string, double> out;
    for (const auto& [level, bytes] : bytes_per_iteration(spec)) out[level] = spec.work_per_iteration / bytes;
    return out;
}

Point point_from_spec(const KernelSpec& spec) {
    Point p;
    p.name = spec.name;
    p.label = spec.name;
    p.work_unit = spec.work_unit;
    const double n = iteration_count(spec);
    p.work = spec.work_per_iteration * n;
    for (const auto& [level, bytes] : bytes_per_iteration(spec)) p.bytes[level] = bytes * n;
    p.source = PointOrigin::analytic;
    p.seconds = 0;
    p.details["work_per_iteration"] = spec.work_per_iteration;
    if (spec.iterations) p.details["iterations"] = *spec.iterations;
    // What the loop's instructions load and store (L1), as measure and kernels write them: report
    // reads its mix from them (a read-only sum was told "fewer store streams" beside "loads alone
    // stream slower", and zaxpy, a triad's mix already, to move toward copy).
    const auto traffic = traffic_per_iteration(spec);
    if (const auto l1 = traffic.find("L1"); l1 != traffic.end()) {
        p.details["bytes_loaded"] = l1->second.loaded * n;
        p.details["bytes_stored"] = l1->second.stored * n;
    }
    // Its store streams: the operands it writes that are not kept in registers (report says
    // "fewer store streams" only to a loop that writes several).
    double written = 0;
    for (const auto& a : spec.arrays)
        if (a.writes_per_iteration > 0 && a.resident_in != "registers") ++written;
    p.details[kStoreStreamsDetail] = written;
    // The precision travels with the point: report and plot judge it on its own roof.
    const std::string precision = spec_precision(spec).precision;
    if (p.work > 0 && (precision == "sp" || precision == "dp"))
        p.details[precision == "sp" ? "flops_f32" : "flops_f64"] = p.work;
    return p;
}

std::string unpredictable_reason(const KernelSpec& spec, const Roofline& r, View view) {
    std::vector<std::string> moved;
    const auto bytes_at = bytes_per_iteration(spec);
    for (const auto& level : spec_levels()) {  // inner to outer, for the message
        const auto it = bytes_at.find(level);
        if (it == bytes_at.end() || !(it->second > 0) || (view == View::orm && level != "DRAM")) continue;
        const Roof* roof = roof_of(r, level);
        if (roof && roof->value > 0) return "";
        moved.push_back(level);
    }
    if (moved.empty()) return "";  // moves no bytes (at DRAM, in the ORM view): the compute roof alone bounds it
    return fmt::format("it moves bytes at {} and the roofline of {} has no bandwidth roof there", fmt::join(moved, ", "),
                       r.label);
}

KernelPrediction predict(const KernelSpec& spec, const Roofline& r, View view) {
    if (!(r.compute.value > 0))
        throw std::invalid_argument(fmt::format("the roofline of {} has no compute roof", r.label));
    KernelPrediction out;
    out.point = point_from_spec(spec);
    out.intensity = intensity_per_level(spec);

    const Timing t = time_per_iteration(spec, r, view);
    out.seconds_per_iteration = t.seconds;
    out.binding_roof = t.roof;
    out.binding_level = t.level;
    out.performance = t.seconds > 0 ? spec.work_per_iteration / t.seconds / 1e9 : 0;
    if (!t.level.empty() && t.seconds > 0)
        out.binding_bandwidth_gbs = bytes_per_iteration(spec).at(t.level) / t.seconds / 1e9;
    if (spec.iterations) out.seconds = t.seconds * *spec.iterations;
    out.point.seconds = t.seconds * iteration_count(spec);

    // The analysis needs work to place the point; a pure copy has none.
    if (spec.work_per_iteration > 0) out.analysis = analyze(r, out.point, view);
    add_model_lifts(spec, r, view, out);
    // A reduction into a scalar: the same FLOPs in one dependent chain per accumulator
    // (the chains of several accumulators run side by side, so the one with the most
    // updates per iteration sets the pace).
    double updates = 0;
    for (const auto& a : spec.arrays)
        if (a.resident_in == "registers" && a.elements == 1.0 && a.reads_per_iteration > 0 &&
            a.writes_per_iteration > 0) {
            out.accumulators.push_back(a.name);
            updates = std::max(updates, a.writes_per_iteration);
        }
    if (updates > 0 && r.clock_ghz > 0 && spec.work_unit == "FLOP" && spec.work_per_iteration > 0) {
        const double chain =
            one_chain_gflops(r.clock_ghz, std::max(1, r.threads), spec.work_per_iteration / updates);
        if (chain < out.performance) out.one_chain_performance = chain;
    }
    for (const auto& c : r.ceilings) {
        if (c.kind == CeilingKind::bandwidth && !out.intensity.count(c.level)) continue;
        if (c.kind == CeilingKind::bandwidth && view == View::orm && c.level != "DRAM") continue;
        const double at = c.kind == CeilingKind::compute ? c.value : ceiling_at(r, c, out.intensity.at(c.level));
        if (at < out.performance * 0.999) out.must_beat.push_back(c);
    }
    return out;
}

} // namespace roofline
