#include "core/machine_roofline.hpp"

#include "core/level.hpp"
#include "core/microarch.hpp"
#include "core/peak.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <stdexcept>
#include <string_view>

namespace roofline {
namespace {

int max_threads(const MachineModel& m, const std::string& precision) {
    int t = 0;
    for (const auto& c : m.compute)
        if (c.precision == precision) t = std::max(t, c.threads);
    return t;
}

// Fastest compute entry matching a predicate.
template <class Pred>
const ComputeRoof* best_compute(const MachineModel& m, Pred pred) {
    const ComputeRoof* best = nullptr;
    for (const auto& c : m.compute)
        if (pred(c) && (!best || c.gflops > best->gflops)) best = &c;
    return best;
}

// Built-in ceilings carry no advice text: render/ phrases their category.
void add_compute_ceiling(Roofline& r, const ComputeRoof* c, std::string name, std::string category) {
    if (!c || c->gflops <= 0 || c->gflops >= r.compute.value * 0.995) return;
    for (const auto& existing : r.ceilings)
        if (existing.name == name) return;
    r.ceilings.push_back({std::move(name), CeilingKind::compute, std::move(category), "", c->gflops, {}});
}

} // namespace

std::string traffic_roof_name(const MemoryRoof& r) {
    const bool with_wa = traffic_gbs(r) > r.gbs * 1.0005;
    return fmt::format("{} {}{}", r.level, r.pattern, with_wa ? "+WA" : "");
}

std::optional<double> pattern_store_share(std::string_view pattern) {
    if (pattern.size() > 3 && pattern.substr(pattern.size() - 3) == "_nt") pattern.remove_suffix(3);
    if (pattern == "load") return 0.0;
    if (pattern == "store") return 1.0;
    if (pattern == "copy") return 0.5;
    if (pattern == "triad" || pattern == "2ld1st") return 1.0 / 3;
    return std::nullopt;
}

std::string machine_label(const MachineModel& model) {
    return model.cpu.model.empty() ? std::string("machine") : model.cpu.model;
}

// A model with bandwidth figures but no compute roof (an interrupted run):
// the fastest pattern per level at the highest thread count.
Roofline bandwidth_roofline(const MachineModel& model) {
    Roofline r;
    r.label = machine_label(model);
    for (const auto& m : model.memory)
        if (m.gbs > 0 && !is_custom_working_set(m.level)) r.threads = std::max(r.threads, m.threads);
    std::vector<const MemoryRoof*> best;
    for (const auto& m : model.memory) {
        if (!(m.gbs > 0) || m.threads != r.threads || is_numa_pair(m.level) || is_custom_working_set(m.level)) continue;
        auto same = std::find_if(best.begin(), best.end(), [&](auto* b) { return b->level == m.level; });
        if (same == best.end()) best.push_back(&m);
        else if (traffic_gbs(m) > traffic_gbs(**same)) *same = &m;
    }
    std::stable_sort(best.begin(), best.end(), [](auto* a, auto* b) { return level_before(a->level, b->level); });
    for (auto* m : best)
        r.bandwidth.push_back({traffic_roof_name(*m), m->level, traffic_gbs(*m), 0, pattern_store_share(m->pattern)});
    return r;
}

namespace {

// A memory roof's ISA trials as shares of the fastest, by vector width (Roof::share_at_width).
std::map<int, double> width_shares(const MemoryRoof& m) {
    double fastest = 0;
    for (const auto& [isa, gbs] : m.isa_trials) fastest = std::max(fastest, gbs);
    std::map<int, double> out;
    if (!(fastest > 0)) return out;
    for (const auto& [isa, gbs] : m.isa_trials) {
        const int bits = isa == "sse2" ? 128 : isa == "avx2" ? 256 : isa == "avx512" ? 512 : 0;
        if (bits > 0 && gbs > 0) out[bits] = gbs / fastest;
    }
    return out;
}

} // namespace

Roofline roofline_from_machine(const MachineModel& m, const RooflineSelection& sel) {
    Roofline r;
    r.label = machine_label(m);
    r.precision = sel.precision;
    r.threads = sel.threads > 0 ? sel.threads : max_threads(m, sel.precision);
    r.clock_ghz = m.cpu.clock_ghz > 0 && std::isfinite(m.cpu.clock_ghz) ? m.cpu.clock_ghz : 0;
    r.hardware_threads = std::max(0, m.cpu.threads);
    const int t = r.threads;
    const std::string& prec = sel.precision;

    const ComputeRoof* top = best_compute(m, [&](auto& c) { return c.precision == prec && c.threads == t; });
    if (!top)
        throw std::invalid_argument(fmt::format("the machine model of {} has no {} compute roof at {} thread{}",
                                                r.label, precision_label(prec), t, t == 1 ? "" : "s"));
    r.compute = {fmt::format("{} peak", precision_label(prec)), "", top->gflops, measured_spread(top->gflops, top->stats)};

    // Compute ceilings, from what the model measured at this precision and thread count.
    auto same = [&](const ComputeRoof& c) { return c.precision == prec && c.threads == t && c.mix != "best"; };
    int widest = 0;
    for (const auto& c : m.compute)
        if (same(c)) widest = std::max(widest, c.vector_bits);
    r.vector_bits = widest;
    if (widest > 0)
        if (const auto arch = microarch_named(m.environment.microarchitecture, widest >= 512)) {
            const auto peak = [&](int bits) {
                return best_flops_per_cycle(fp_pipes_for(*arch, bits), true, true, true, bits, element_bits_of(prec));
            };
            for (int bits : {256, 128})
                if (bits < widest && peak(widest) > 0) r.peak_share_at_width[bits] = peak(bits) / peak(widest);
        }
    auto at_widest = [&](const char* mix) {
        return best_compute(m, [&](auto& c) { return same(c) && c.vector_bits == widest && c.mix == mix; });
    };
    add_compute_ceiling(r, at_widest("fma"), kFmaOnlyCeilingName, "balance");
    add_compute_ceiling(r, at_widest("mul+add"), "no FMA", "fma");
    const ComputeRoof* add_only = at_widest("add");
    const ComputeRoof* mul_only = at_widest("mul");
    add_compute_ceiling(r, (add_only && mul_only && mul_only->gflops > add_only->gflops) ? mul_only : add_only,
                        "ADD or MUL only", "balance");
    for (int bits : {256, 128}) {
        if (bits >= widest) continue;
        add_compute_ceiling(r, best_compute(m, [&](auto& c) { return same(c) && c.vector_bits == bits; }),
                            fmt::format("{}-bit SIMD", bits), "simd");
    }
    const int scalar_bits = element_bits_of(prec);
    add_compute_ceiling(r, best_compute(m, [&](auto& c) { return same(c) && c.vector_bits == scalar_bits; }),
                        "scalar (no SIMD)", "simd");
    const ComputeRoof* chain = at_widest("chain");
    add_compute_ceiling(r, chain, "no ILP", "ilp");
    // The bench's chain is one FMA chain per thread (2 FLOPs an accumulation in each lane).
    if (chain && chain->gflops > 0 && r.clock_ghz > 0 && chain->vector_bits > 0 && element_bits_of(prec) > 0) {
        const double lanes = std::max(1, chain->vector_bits / element_bits_of(prec));
        r.chain_cycles = r.clock_ghz * 2 * lanes * std::max(1, chain->threads) / chain->gflops;
    }
    // No chain measured ('bench --quick'): the table's FMA latency, where it knows the core. Without
    // it the advice reckoned 2 cycles, and an audit's Zen 4 multiply "ran at about one chain's rate
    // (14.6 GFLOP/s)" while one chain of its 4-cycle FMAs runs 7.3.
    if (r.chain_cycles <= 0 && widest > 0)
        if (const auto arch = microarch_named(m.environment.microarchitecture, widest >= 512)) {
            r.chain_cycles = fp_pipes_for(*arch, widest).fma_latency;
            r.chain_cycles_from = arch->name;
        }
    if (t > 1)
        add_compute_ceiling(r, best_compute(m, [&](auto& c) { return c.precision == prec && c.threads == 1; }),
                            "1 thread", "threads");

    // Bandwidth roofs and ceilings per level. A working set the user chose, of no known
    // level ("custom", older models), bounds no point: it is no level's roof.
    std::vector<std::string> levels;
    for (const auto& mem : m.memory)
        if (mem.threads == t && !is_numa_pair(mem.level) && !is_custom_working_set(mem.level) &&
            std::find(levels.begin(), levels.end(), mem.level) == levels.end())
            levels.push_back(mem.level);
    std::sort(levels.begin(), levels.end(), [](auto& a, auto& b) { return level_before(a, b); });
    std::vector<Ceiling> bandwidth_ceilings;
    for (const auto& level : levels) {
        const MemoryRoof* best = nullptr;
        for (const auto& mem : m.memory)
            if (mem.level == level && mem.threads == t && (!best || traffic_gbs(mem) > traffic_gbs(*best))) best = &mem;
        const double roof = traffic_gbs(*best);
        r.bandwidth.push_back({traffic_roof_name(*best), level, roof, measured_spread(best->gbs, best->stats),
                               pattern_store_share(best->pattern), width_shares(*best)});
        for (const auto& mem : m.memory) {
            if (mem.level != level || &mem == best || traffic_gbs(mem) >= roof * 0.995) continue;
            if (mem.threads == t) {
                bandwidth_ceilings.push_back({traffic_roof_name(mem), CeilingKind::bandwidth, "pattern", level,
                                              traffic_gbs(mem), {}, mem.pattern == "load"});
            }
        }
        if (t > 1) {
            const MemoryRoof* one = nullptr;
            for (const auto& mem : m.memory)
                if (mem.level == level && mem.threads == 1 && (!one || traffic_gbs(mem) > traffic_gbs(*one))) one = &mem;
            if (one && traffic_gbs(*one) < roof * 0.995)
                bandwidth_ceilings.push_back({fmt::format("{} 1 thread", level), CeilingKind::bandwidth, "threads", level,
                                              traffic_gbs(*one), {}});
        }
    }
    // Remote NUMA memory: a ceiling below DRAM.
    for (const auto& mem : m.memory) {
        if (!is_numa_pair(mem.level)) continue;
        const auto arrow = mem.level.find("->");
        if (arrow == std::string::npos || mem.level.substr(4, arrow - 4) == mem.level.substr(arrow + 2)) continue;
        bandwidth_ceilings.push_back({fmt::format("remote NUMA ({} {})", mem.level.substr(4), mem.pattern), CeilingKind::bandwidth,
                                      "numa", "DRAM", mem.gbs, {}});
    }

    auto descending = [](const Ceiling& a, const Ceiling& b) { return a.value > b.value; };
    std::stable_sort(r.ceilings.begin(), r.ceilings.end(), descending);
    std::stable_sort(bandwidth_ceilings.begin(), bandwidth_ceilings.end(), descending);
    r.ceilings.insert(r.ceilings.end(), bandwidth_ceilings.begin(), bandwidth_ceilings.end());
    return r;
}

namespace {

// FLOPs of one precision in a point's details: "flops_f32" (perf engine) or
// "flops_f32_<kind>" (instrument engine).
double flops_of(const Point& p, std::string_view prefix) {
    double total = 0;
    for (const auto& [key, value] : p.details)
        if (key == prefix || (key.size() > prefix.size() && key.rfind(prefix, 0) == 0 && key[prefix.size()] == '_'))
            total += value;
    return total;
}

std::vector<int> compute_thread_counts(const MachineModel& m, const std::string& precision) {
    std::vector<int> counts;
    for (const auto& c : m.compute)
        if (c.precision == precision && std::find(counts.begin(), counts.end(), c.threads) == counts.end())
            counts.push_back(c.threads);
    std::sort(counts.begin(), counts.end());
    return counts;
}

std::string join_counts(const std::vector<int>& counts) {
    std::string out;
    for (int c : counts) out += (out.empty() ? "" : ", ") + std::to_string(c);
    return out;
}

} // namespace

std::optional<std::string> point_precision(const Point& p) {
    // The precision of nearly all its FLOPs: one double temporary among 384 million float
    // operations made an sp kernel "mixed", judged on the dp roof at 129% of it.
    constexpr double kDominant = 0.99;
    const double f32 = flops_of(p, "flops_f32"), f64 = flops_of(p, "flops_f64"), total = f32 + f64;
    if (!(total > 0)) return std::nullopt;
    if (f32 >= kDominant * total) return "sp";
    if (f64 >= kDominant * total) return "dp";
    return std::nullopt;
}

namespace {

// The precision the points' FLOPs agree on (a point whose FLOPs do not say counts as dp);
// nullopt when they disagree or none has FLOPs.
std::optional<std::string> points_common_precision(const std::vector<Point>& points) {
    std::optional<std::string> common;
    for (const auto& p : points) {
        // A point with no FLOPs (a memcpy's, an int8 dot product's) has no precision to vote
        // with: it made the report of an sp kernel and an integer one judge the sp kernel on dp roofs.
        if (!(p.work > 0) || p.work_unit != "FLOP") continue;
        const auto own = point_precision(p).value_or("dp");
        if (common && *common != own) return std::nullopt;
        common = own;
    }
    return common;
}

} // namespace

RooflineSelection select_roofline(const MachineModel& m, const std::vector<Point>& points,
                                  const RooflineRequest& request) {
    RooflineSelection s;
    if (m.compute.empty()) {
        std::vector<int> memory_counts;
        for (const auto& r : m.memory)
            if (std::find(memory_counts.begin(), memory_counts.end(), r.threads) == memory_counts.end())
                memory_counts.push_back(r.threads);
        std::sort(memory_counts.begin(), memory_counts.end());
        throw std::invalid_argument(
            m.memory.empty() ? std::string("this model has no roofs at all")
                             : fmt::format("this model has only memory roofs (no compute roof to draw a roofline "
                                           "under); measured thread counts: {}",
                                           join_counts(memory_counts)));
    }
    if (request.precision) {
        s.precision = *request.precision;
    } else {
        s.precision = points_common_precision(points).value_or("dp");
        if (compute_thread_counts(m, s.precision).empty())
            s.precision = compute_thread_counts(m, "dp").empty() ? m.compute.front().precision : "dp";
    }
    const auto counts = compute_thread_counts(m, s.precision);
    if (counts.empty())
        throw std::invalid_argument(fmt::format("this model has no {} compute roof; it has {}", precision_label(s.precision),
                                                [&] {
                                                    std::string have;
                                                    for (const auto& c : m.compute)
                                                        if (have.find(precision_label(c.precision)) == std::string::npos)
                                                            have += (have.empty() ? "" : ", ") + precision_label(c.precision);
                                                    return have;
                                                }()));
    const auto measured = [&](int t) { return std::find(counts.begin(), counts.end(), t) != counts.end(); };
    if (request.threads && *request.threads > 0) {
        if (!measured(*request.threads))
            throw std::invalid_argument(fmt::format("this model has no {} compute roof for {} thread{}; measured "
                                                    "thread counts: {}",
                                                    precision_label(s.precision), *request.threads,
                                                    *request.threads == 1 ? "" : "s", join_counts(counts)));
        s.threads = *request.threads;
        return s;
    }
    s.threads = 0;  // the most measured
    if (!request.threads && !points.empty()) {
        // Each point's count at most the CPUs its run was allowed (judged_threads): 8 threads under
        // `taskset -c 0` belong under the 1-thread roofline.
        const int common = judged_threads(points.front());
        const bool agree =
            std::all_of(points.begin(), points.end(), [common](const Point& p) { return judged_threads(p) == common; });
        if (agree && measured(common)) s.threads = common;
    }
    return s;
}

std::string mixed_precision_note(const std::vector<Point>& points, const RooflineRequest& request,
                                 const RooflineSelection& selection) {
    if (request.precision) return "";
    std::vector<std::string> held;
    for (const auto& p : points)
        if (const auto own = point_precision(p); own && std::find(held.begin(), held.end(), *own) == held.end())
            held.push_back(*own);
    // A point whose FLOPs are both (neither precision 99% of them) is judged on one roofline too.
    std::vector<std::string> mixed;
    std::size_t mixed_count = 0;
    for (const auto& p : points) {
        const double f32 = flops_of(p, "flops_f32"), f64 = flops_of(p, "flops_f64");
        if (f32 + f64 > 0 && !point_precision(p)) {
            // Ten named, the rest counted: 545 points of a C++ program's functions made one line of 161 kB.
            if (++mixed_count <= 10) mixed.push_back(fmt::format("'{}' ({:.0f}% sp)", p.name, 100 * f32 / (f32 + f64)));
        }
    }
    if (mixed_count > mixed.size()) mixed.push_back(fmt::format("{} more", mixed_count - mixed.size()));
    if (!mixed.empty() && held.size() < 2)
        return fmt::format("{} hold{} both sp and dp work and {} judged on the {} roofline: {}; --precision {} "
                           "judges {} on the other",
                           fmt::join(mixed, ", "), mixed_count == 1 ? "s" : "", mixed_count == 1 ? "is" : "are",
                           precision_label(selection.precision),
                           selection.precision == "dp"
                               ? "its sp FLOPs run up to twice as fast as the dp roofs allow, so efficiency reads "
                                 "high and a point may even read above its roof"
                               : "its dp FLOPs run at half the sp roofs' rate or less, so efficiency reads low",
                           selection.precision == "sp" ? "dp" : "sp", mixed_count == 1 ? "it" : "them");
    if (held.size() < 2) return "";
    const std::string other = selection.precision == "sp" ? "dp" : "sp";
    return fmt::format("the points hold both sp and dp work and share one roofline, the {} one: {} points are judged "
                       "against roofs of another precision (their efficiency, and any 'above its roof', do not hold); "
                       "--precision {} judges them on their own",
                       precision_label(selection.precision), precision_label(other), other);
}

std::string missing_precision_note(const MachineModel& model, const std::vector<Point>& points,
                                   const RooflineRequest& request, const RooflineSelection& selection,
                                   const std::vector<std::string>& named) {
    if (request.precision) return "";
    // Judged on another precision's roofline without a word, an audit's float kernels read their
    // efficiency against the DP peak, half the rate their operations reach.
    const auto own = points_common_precision(points);
    if (!own || *own == selection.precision || !compute_thread_counts(model, *own).empty()) return "";
    const bool one = named.size() == 1;
    std::vector<std::string> quoted;
    for (const auto& name : named) quoted.push_back(fmt::format("'{}'", name));
    const std::string whose = named.empty() ? "the points' FLOPs are" : fmt::format("the FLOPs of {} are", fmt::join(quoted, ", "));
    return fmt::format("{0} {1} but this model has no {1} compute roof, so {3} judged on the {2} "
                       "roofline: {4}; 'roofline bench' measures both precisions",
                       whose, precision_label(*own), precision_label(selection.precision), one ? "it is" : "they are",
                       *own == "sp" ? fmt::format("sp FLOPs run up to twice as fast as its compute roof and ceilings "
                                                  "allow, so {} efficiency (% of attainable) reads high and {} may "
                                                  "even read above its roof",
                                                  one ? "its" : "their", one ? "it" : "a point")
                                    : fmt::format("dp FLOPs run at half its compute roof's rate or less, so {} "
                                                  "efficiency (% of attainable) reads low",
                                                  one ? "its" : "their"));
}

std::string mixed_threads_note(const MachineModel& model, const std::vector<Point>& points,
                               const RooflineRequest& request, const RooflineSelection& selection) {
    if (request.threads || selection.threads != 0) return "";
    std::vector<int> ran;  // at once: at most the CPUs each run was allowed
    for (const auto& p : points)
        if (std::find(ran.begin(), ran.end(), judged_threads(p)) == ran.end()) ran.push_back(judged_threads(p));
    const auto counts = compute_thread_counts(model, selection.precision);
    if (counts.empty() || ran.empty()) return "";
    if (ran.size() == 1) {
        // All points ran with one thread count, but the model has no roofs for it: judged
        // against another count's roofs, their efficiencies are off by up to the ratio of
        // the counts, and nothing else on the page says so.
        const int t = ran.front();
        if (std::find(counts.begin(), counts.end(), t) != counts.end()) return "";
        // More threads than the machine has cores share them: the roofs of every core are the ceiling.
        if (model.cpu.cores > 0 && t > model.cpu.cores && counts.back() >= model.cpu.cores) return "";
        return fmt::format("the points ran with {} thread{}, a count this model did not measure ({} roofs for {} "
                           "thread{}): they are judged against the roofs for {} thread{}, so their efficiencies and "
                           "bounds are against roofs of another thread count; measure it (roofline bench --threads "
                           "{}) or give --threads to choose the roofline",
                           t, t == 1 ? "" : "s", precision_label(selection.precision), join_counts(counts),
                           counts.size() == 1 && counts.front() == 1 ? "" : "s", counts.back(),
                           counts.back() == 1 ? "" : "s", t);
    }
    std::sort(ran.begin(), ran.end());
    const int most = counts.back();
    std::vector<int> fewer, more;
    for (int t : ran) {
        if (t < most) fewer.push_back(t);
        if (t > most) more.push_back(t);
    }
    std::string what;
    if (!fewer.empty())
        what = fmt::format("points that ran with fewer threads ({}) are judged against roofs they could not reach",
                           join_counts(fewer));
    if (!more.empty()) {
        if (!what.empty()) what += "; ";
        what += model.cpu.cores > 0 && most >= model.cpu.cores
                    ? fmt::format("points that ran with more threads ({}) than the machine's {} cores share them, "
                                  "so these roofs are theirs too",
                                  join_counts(more), model.cpu.cores)
                    : fmt::format("points that ran with more threads ({}) are judged against roofs of fewer "
                                  "threads than they had",
                                  join_counts(more));
    }
    return fmt::format("the points ran with {} threads and share one roofline, the one for the most threads "
                       "measured ({}): {}; --threads N judges every point under N threads",
                       join_counts(ran), most, what);
}

} // namespace roofline
