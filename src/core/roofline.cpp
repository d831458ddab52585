#include "core/roofline.hpp"

#include "core/code_traits.hpp"
#include "core/cut_off_point.hpp"
#include "core/level.hpp"
#include "core/name_table.hpp"
#include "core/point_device.hpp"
#include "core/precision.hpp"
#include "core/rep_string_stores.hpp"
#include "core/repeated_timing.hpp"
#include "core/timing_disturbance.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace roofline {

const char* ceiling_kind_name(CeilingKind kind) { return kind == CeilingKind::compute ? "compute" : "bandwidth"; }

bool is_known_ceiling_category(const std::string& category) {
    for (const char* known : {"simd", "fma", "balance", "ilp", "threads", "pattern", "prefetch", "numa"})
        if (category == known) return true;
    return false;
}

namespace {
constexpr NameTable<View, 2> kViewNames{{{View::carm, "carm"}, {View::orm, "orm"}}};
}

const char* view_name(View v) { return name_of(kViewNames, v); }
std::optional<View> parse_view(std::string_view name) { return value_of(kViewNames, name); }
std::vector<std::string> view_names() { return names_of(kViewNames); }

namespace {
constexpr NameTable<NextStep::Kind, 12> kNextStepKindNames{{{NextStep::Kind::lift_ceiling, "lift_ceiling"},
                                                           {NextStep::Kind::raise_intensity, "raise_intensity"},
                                                           {NextStep::Kind::reach_compute, "reach_compute"},
                                                           {NextStep::Kind::vectorize, "vectorize"},
                                                           {NextStep::Kind::split_chain, "split_chain"},
                                                           {NextStep::Kind::one_kind_mix, "one_kind_mix"},
                                                           {NextStep::Kind::non_temporal_stores, "non_temporal_stores"},
                                                           {NextStep::Kind::widen_vectors, "widen_vectors"},
                                                           {NextStep::Kind::leave_x87, "leave_x87"},
                                                           {NextStep::Kind::call_overhead, "call_overhead"},
                                                           {NextStep::Kind::library_code, "library_code"},
                                                           {NextStep::Kind::flops_not_the_time, "flops_not_the_time"}}};
}

const char* next_step_kind_name(NextStep::Kind kind) { return name_of(kNextStepKindNames, kind); }

const char* region_name(Region r) {
    switch (r) {
    case Region::memory_only: return "memory-only";
    case Region::compute_only: return "compute-only";
    case Region::both: return "memory and compute";
    }
    return "?";
}

double attainable(double peak, double bandwidth, double intensity) { return std::min(peak, bandwidth * intensity); }
double ridge_point(double peak, double bandwidth) { return bandwidth > 0 ? peak / bandwidth : 0; }
double machine_balance(double peak, double bandwidth) { return peak > 0 ? bandwidth / peak : 0; }
double code_balance(double intensity) { return intensity > 0 ? 1.0 / intensity : 0; }

double performance(const Point& p) { return p.seconds > 0 ? p.work / p.seconds / 1e9 : 0; }

std::optional<double> intensity(const Point& p, const std::string& level) {
    auto it = p.bytes.find(level);
    if (it == p.bytes.end() || it->second <= 0) return std::nullopt;
    return p.work / it->second;
}

namespace {

const Roof* roof_of_level(const Roofline& r, const std::string& level) {
    for (const auto& b : r.bandwidth)
        if (b.level == level) return &b;
    return nullptr;
}

} // namespace

std::vector<std::string> bounding_levels(const Roofline& r, const Point& p, View view) {
    std::vector<std::string> levels;
    for (const auto& b : r.bandwidth) {
        if (view == View::orm && b.level != "DRAM") continue;
        if (intensity(p, b.level)) levels.push_back(b.level);
    }
    return levels;
}

double attainable(const Roofline& r, const Point& p, View view) {
    double best = r.compute.value;
    for (const auto& level : bounding_levels(r, p, view))
        best = std::min(best, roof_of_level(r, level)->value * *intensity(p, level));
    return best;
}

double ceiling_at(const Roofline& r, const Ceiling& c, double intensity_value) {
    if (c.kind == CeilingKind::compute) return c.value;
    return std::min(r.compute.value, c.value * intensity_value);
}

double coprocessor_attainable(double peak, double mem_bandwidth, double mem_intensity, double bus_bandwidth,
                              double bus_intensity) {
    return std::min({peak, mem_bandwidth * mem_intensity, bus_bandwidth * bus_intensity});
}

namespace {

bool usable(double value) { return std::isfinite(value) && value > 0; }

} // namespace

std::optional<RegionBounds> region_bounds(const Roofline& r, const std::string& level) {
    const Roof* top = roof_of_level(r, level);
    if (!top || !usable(top->value) || !usable(r.compute.value)) return std::nullopt;
    double lowest_compute = r.compute.value;
    double lowest_bandwidth = top->value;
    for (const auto& c : r.ceilings) {
        if (!usable(c.value)) continue;
        if (c.kind == CeilingKind::compute) lowest_compute = std::min(lowest_compute, c.value);
        if (c.kind == CeilingKind::bandwidth && c.level == level) lowest_bandwidth = std::min(lowest_bandwidth, c.value);
    }
    return RegionBounds{ridge_point(lowest_compute, top->value), ridge_point(r.compute.value, lowest_bandwidth)};
}

namespace {

// Two ceilings ask for the same change: the same written advice, or none and
// the same known category (an unknown one is told apart by name; loads alone ask for
// another change than the other access patterns).
bool same_remedy(const Ceiling& a, const Ceiling& b) {
    if (!a.advice.empty() || !b.advice.empty()) return a.advice == b.advice;
    if (a.kind != b.kind || a.category != b.category || a.read_only != b.read_only) return false;
    return is_known_ceiling_category(a.category) || a.name == b.name;
}

// A code step and a ceiling that ask for the same change: vectorizing is what lifts the SIMD
// ceilings, splitting the accumulator what lifts the ILP one (a spec sheet's own advice is its own).
bool covers(const NextStep& step, const Ceiling& c) {
    switch (step.kind) {
    case NextStep::Kind::lift_ceiling: return same_remedy(step.ceiling, c);
    case NextStep::Kind::vectorize: return c.advice.empty() && c.category == "simd";
    case NextStep::Kind::widen_vectors: return c.advice.empty() && c.category == "simd";
    case NextStep::Kind::split_chain: return c.advice.empty() && c.category == "ilp";
    // x87 code: no SIMD ceiling (the x87 unit has no vector form) and no ILP one (more
    // accumulators did not help, below) is its remedy; leaving x87 is.
    case NextStep::Kind::leave_x87: return c.advice.empty() && (c.category == "simd" || c.category == "ilp");
    case NextStep::Kind::one_kind_mix: return c.category == "balance";
    // A function too small to vectorize or unroll within one call: inlining or batching it is
    // what lets the compiler do either.
    case NextStep::Kind::call_overhead: return c.advice.empty() && (c.category == "simd" || c.category == "ilp");
    default: return false;
    }
}

// At most this share of its bytes stored, a loop is a reduction: what it computes stays in
// registers, where one accumulator makes each step wait for the one before. A loop that
// stores a larger share writes its results as it goes and carries no such chain.
constexpr double kReductionStoreShare = 0.05;

// More accumulations than this per value stored, a point's chains run longer between stores than
// the core's reorder window (224 to 512 micro-ops on current x86 cores, one or more an
// accumulation) holds: it cannot overlap one with the next, whatever share of its bytes the stores
// are. A loop that moves almost no bytes (an audit's x = fma(x, a, b), 2e7 times, 132,000
// accumulations per value stored) stores 41% of the few bytes it has, and was told to vectorize,
// its one dependent chain left unsaid.
constexpr double kWindowAccumulations = 1000;

double chain_lanes(const CodeTraits& traits);

// Its stores are few enough for its accumulations to be one chain: at most kReductionStoreShare of
// its bytes, or at most one value per kWindowAccumulations instructions.
bool stores_like_a_reduction(const CodeTraits& traits) {
    return (traits.store_share && *traits.store_share <= kReductionStoreShare) ||
           (traits.accumulations_per_store &&
            *traits.accumulations_per_store / chain_lanes(traits) > kWindowAccumulations);
}

// A function whose own work per call is under these (FLOPs and instructions per call, both),
// called at least kManyCalls times, spends its time calling and returning rather than computing.
// A call and its return with a frame and a few saved registers take about 10-20 instructions and
// 5-20 cycles on current x86 cores, on top of the return-address prediction; under 50 instructions
// of its own per call, that is a quarter or more of each call. 16 FLOPs are two 512-bit vectors of
// doubles (four 256-bit ones): less work than one iteration of a vectorized loop, so a call has
// nothing a vectorizer can work on, and none works across calls. A naive recursive Fibonacci on
// doubles (gcc -O1, fib(27): 635,621 calls, 0.5 FLOPs and 15 instructions each) and a loop calling
// a two-FLOP function through a pointer 3M times were told to vectorize: -O3 -march=native ran 6.47
// ms against 6.55 (here 5.19 against 5.17; inlined, 1.08 at -O2). kManyCalls: enough calls (10,000,
// at ~5 ns each 50 us) for their cost to show.
constexpr double kTinyCallFlops = 16;
constexpr double kTinyCallInstructions = 50;
constexpr double kManyCalls = 10000;

// Its FLOPs and bytes were counted in another build than the one timed (measure --counts-from).
bool counted_in_other_build(const Point& p) {
    const auto other = p.details.find(kCountedFromOtherBuild);
    return other != p.details.end() && other->second > 0;
}

// One chain's rate is reckoned at one accumulation per 2 cycles; the slowest floating-point add
// or FMA latency of x86 cores is 5-6 cycles (Agner Fog's instruction tables: Haswell's FMA 5,
// Zen 1's 5). A reduction running under a third of that rate is not held by its chain but by
// what its adds wait for (loads that miss, a gather: an audit's CSR SpMV ran at 0.22 of it, and
// two accumulators made it no faster).
constexpr double kSlowestChainShare = 2.0 / 6.0;

// Where the bench measured this core's FMA chain (Roofline::chain_cycles), the latency is known,
// not hedged: under half of that chain's rate at the point's width, most of its time goes to what
// its adds wait for. A textbook multiply on a Zen 4 (one 256-bit FMA chain of 4 cycles, 7.14
// GFLOP/s measured) ran at 4.86 with each FMA's line of B from L2, under a third of the 2-cycle
// rate (14.8), and lost its "break the dependency chain" advice.
constexpr double kMeasuredChainShare = 0.5;

// The machine's ILP ceiling is one chain of its widest vectors; a chain carries as many lanes as its
// vectors, so a point whose FLOPs ran narrower (counted) is capped by one chain at its own width:
// a 256-bit multiply on a Zen 4 was sandwiched under "no ILP" at 14.3 GFLOP/s (the 512-bit
// chain), though one 256-bit chain measured 7.14. That ceiling, named for its width; an empty
// name where the point's width is the widest or unknown (the machine's ceiling stands).
Ceiling ilp_ceiling_at_its_width(const Roofline& r, const CodeTraits& traits) {
    if (r.vector_bits <= 0 || !traits.scalar_share || !is_flop_precision(r.precision)) return {};
    const int element = element_bits_of(r.precision);
    const int its_bits = *traits.scalar_share >= 0.5 ? element : traits.widest_bits;
    if (element <= 0 || its_bits <= 0 || its_bits >= r.vector_bits) return {};
    for (const auto& c : r.ceilings)
        if (c.category == "ilp" && c.kind == CeilingKind::compute) {
            Ceiling at_width = c;
            at_width.value = c.value * its_bits / r.vector_bits;
            at_width.name = its_bits == element ? fmt::format("{}, scalar", c.name)
                                                : fmt::format("{}, {}-bit", c.name, its_bits);
            return at_width;
        }
    return {};
}

// The rate under which a point is not held by its chain: a share of the measured chain's rate at
// the point's width where the bench measured it, else of the 2-cycle rate (`chain_at_its_width`).
double chain_floor(const Roofline& r, double chain_at_its_width) {
    if (r.chain_cycles > 2) return kMeasuredChainShare * chain_at_its_width * 2 / r.chain_cycles;
    return kSlowestChainShare * chain_at_its_width;
}

// Under this share of the loads-alone ceiling at its intensity (the half under which code_first
// holds back a cache's access-pattern advice), a point is far from what loads alone stream: that
// ceiling is not its next limit, whatever holds it (its add chain, a gather's latency, its code),
// and fusing read-only passes would not move it.
constexpr double kFarUnderLoads = 0.5;

// From this share of its DRAM bytes being write-allocate fills that no load read, a DRAM-bound
// point is told to write that output with non-temporal stores: it would move that much less.
constexpr double kUnreadWriteAllocateShare = 0.2;

// A loop entered with at most this many accumulations an entry (a CSR row's 5 nonzeros) has no
// one chain: its accumulator starts again at each entry, and the reorder window (224 to 512
// micro-ops on current x86 cores, a few per accumulation) holds the next entries' chains beside
// it. An audit's SpMV inner loop (5 an entry, under one chain's rate) ran no faster with two
// accumulators (0.083-0.086 s against 0.088-0.092).
// A region has no loop entries, but a reduction stores its total where its chain ends: a CSR
// SpMV region (rows of 8 nonzeros, 1M rows x5, y[i] = s) stores one double per 8 adds, so its
// chains are 8 long at most, and it was told to split the accumulator at 45% of one chain's
// rate. Its accumulations per value stored bound its chains as entries bound a loop's.
constexpr double kShortChainAccumulations = 16;

// The lanes one accumulating instruction carries: 1 for scalar code (at least half its FLOPs
// scalar), else its widest vectors' elements (a 256-bit float add carries 8).
double chain_lanes(const CodeTraits& traits) {
    if (!traits.scalar_share || *traits.scalar_share >= 0.5 || traits.widest_bits <= 0) return 1;
    const int element = traits.f64_share && *traits.f64_share >= 0.5 ? 64 : 32;
    return std::max(1, traits.widest_bits / element);
}

// The longest its accumulations' chains can be by its counts, in instructions: per loop entry (a
// loop point) and per value stored, the shorter, over the lanes each add carries (accumulations
// are counted per lane: five 256-bit float adds an entry are a chain of 5, not 40); nullopt where
// neither was counted (nothing said of its chains).
std::optional<double> longest_chain(const CodeTraits& traits) {
    std::optional<double> bound = traits.accumulations_per_entry;
    if (traits.accumulations_per_store && (!bound || *traits.accumulations_per_store < *bound))
        bound = traits.accumulations_per_store;
    if (bound) *bound /= chain_lanes(traits);
    return bound;
}

bool short_chains(const CodeTraits& traits) {
    const auto longest = longest_chain(traits);
    return longest && *longest <= kShortChainAccumulations;
}

// Past this many bytes from L2 per byte accessed, it uses under 80% of the lines it brings:
// its adds wait for lines, not only for each other, and no rate says which. The textbook multiply
// (tests/advice_programs/matmul_naive.c, a column of B walked: 64 B from L2 per 40 B loaded) ran
// at 0.5-0.66 of one chain's rate, yet four accumulators made it no faster on a Zen 4 (0.33-0.36 s
// against 0.37), while the loop order ikj (unit stride) made it 7x faster (0.05 s). A unit-stride
// stream past L1 brings as many bytes as it accesses: 1.
constexpr double kLinesUsedShare = 1.25;

bool loads_waste_lines(const CodeTraits& traits) {
    return traits.l2_bytes_per_accessed_byte && *traits.l2_bytes_per_accessed_byte > kLinesUsedShare;
}

// Evidence of one long chain, which split_chain needs: its counts allow chains longer than
// kShortChainAccumulations (a dot product over a long array stores nothing, or its total once),
// and its loads use the lines they bring (loads_waste_lines).
bool long_chain(const CodeTraits& traits) {
    if (loads_waste_lines(traits)) return false;
    const auto longest = longest_chain(traits);
    return longest && *longest > kShortChainAccumulations;
}

// The point's threads that run at once: at most the machine's hardware threads where the model
// knows them (8 OpenMP threads on 2 CPUs run 2 chains at a time; an audit's divide chain on 8
// threads of a 2-vCPU guest was told its FLOPs were not its time, against a cap 4x what 2 allow),
// and at most the CPUs its run was allowed where measure recorded them (kCpusAllowed: `taskset -c
// 0` or a cgroup quota of 1 CPU runs 8 threads one at a time).
int threads_running(const Roofline& r, const Point& p) {
    int threads = std::max(1, judged_threads(p));
    if (r.hardware_threads > 0) threads = std::min(threads, r.hardware_threads);
    return threads;
}

// The highest rate of one dependent chain of the point's own instructions: one_chain_gflops
// times the lanes of its vectors (a 256-bit chain of doubles carries 4); 0 when the clock,
// the precision or the counts leave it unknown, or its chains are short (short_chains).
double one_chain_at_its_width(const Roofline& r, const Point& p, const CodeTraits& traits) {
    if (!traits.flops_per_accumulation || !traits.scalar_share || short_chains(traits)) return 0;
    int lanes = 1;
    if (*traits.scalar_share < 0.5 && traits.widest_bits > 0) {
        const int element = r.precision.empty() ? 0 : element_bits_of(r.precision);
        if (element <= 0) return 0;
        lanes = std::max(1, traits.widest_bits / element);
    }
    return one_chain_gflops(r.clock_ghz, threads_running(r, p), *traits.flops_per_accumulation) * lanes;
}

// One dependent chain of the slowest floating-point instructions: a scalar divide or square root
// in double waits 13-21 cycles for the one before on recent x86 cores (Agner Fog's instruction
// tables: Skylake, Zen 2-4), x87's a few more; 32 cycles leaves a margin. A point whose FLOPs run
// slower than such a chain on each of its threads does not spend its time computing them: no
// change to its arithmetic (vectorizing, wider vectors, FMAs, more accumulators) makes it faster.
// An audit's pointer chase (one add per dependent load) ran at 0.0103 GFLOP/s against 0.115 and was
// told to vectorize, as its only step; a memcpy program with one multiply, the same.
constexpr double kSlowestFlopCycles = 32;

// That chain's rate over the point's threads at the measured clock; 0 where the clock is
// unknown, or the work is not FLOPs.
double slowest_flop_chain_gflops(const Roofline& r, const Point& p) {
    if (!(r.clock_ghz > 0) || r.work_unit != "FLOP" || p.work_unit != "FLOP") return 0;
    return r.clock_ghz / kSlowestFlopCycles * threads_running(r, p);
}

// Whether the point only reads: counted stores at most a thousandth of the loads (a
// kernel's result, a reduction's total). nullopt where nothing counted them.
std::optional<bool> point_reads_only(const Point& p) {
    const auto loaded = p.details.find("bytes_loaded"), stored = p.details.find("bytes_stored");
    if (loaded == p.details.end() || stored == p.details.end() || loaded->second <= 0) return std::nullopt;
    return stored->second <= 1e-3 * loaded->second;
}

// At least this share of its FLOPs of one kind, a point's code is that kind alone (the premise
// of a mix ceiling, of "no FMA" for fused code, of the SIMD ceilings for vector code).
constexpr double kOneKindShare = 0.9;

// Whether a point's counted FLOPs are (nearly all, as point_precision has it) of the roofline's
// precision: the rate of one kind of operation alone, a mix ceiling, is that precision's, and an
// 89% float kernel judged on the dp roofline is not capped by dp FMAs (sp FMAs run twice as fast).
bool counted_in_roofline_precision(const Roofline& r, const CodeTraits& traits) {
    if (!traits.f64_share || (r.precision != "dp" && r.precision != "sp")) return true;
    const double own = r.precision == "dp" ? *traits.f64_share : 1 - *traits.f64_share;
    return own >= 0.99;
}

// The one kind of operation a point's counted FLOPs are: "FMA", "add" (with subtracts) or "mul";
// "" for a mix of kinds; nullopt where nothing counted the kinds.
std::optional<std::string> one_kind_of(const CodeTraits& traits) {
    if (!traits.fma_share && !traits.add_share && !traits.mul_share) return std::nullopt;
    if (traits.fma_share.value_or(0) >= kOneKindShare) return "FMA";
    if (traits.add_share.value_or(0) >= kOneKindShare) return "add";
    if (traits.mul_share.value_or(0) >= kOneKindShare) return "mul";
    return "";
}

double share_of_kind(const CodeTraits& traits, const std::string& kind) {
    if (kind == "FMA") return traits.fma_share.value_or(0);
    if (kind == "add") return traits.add_share.value_or(0);
    return traits.mul_share.value_or(0);
}

// Whether vectors of `bits` reach (95% of) the compute roof measured with wider ones: by the
// model's own ceiling of that width where it measured one, else by the microarchitecture table
// (Zen 4's 256-bit peak is its 512-bit one: wider ops take two passes through the same pipes).
bool compute_width_costs_nothing(const Roofline& r, int bits) {
    if (bits <= 0 || !(r.compute.value > 0)) return false;
    const auto ceiling = std::find_if(r.ceilings.begin(), r.ceilings.end(), [&](const Ceiling& c) {
        return c.category == "simd" && c.name == fmt::format("{}-bit SIMD", bits);
    });
    if (ceiling != r.ceilings.end()) return ceiling->value >= 0.95 * r.compute.value;
    const auto share = r.peak_share_at_width.find(bits);
    return share != r.peak_share_at_width.end() && share->second >= 0.95;
}

// Whether a "balance" ceiling's premise is the point's counted mix: FMAs alone for "FMA only",
// adds or multiplies alone (no FMA) for the others; nullopt where the kinds were not counted.
std::optional<bool> mix_premise_holds(const Ceiling& c, const CodeTraits& traits) {
    const auto kind = one_kind_of(traits);
    if (!kind) return std::nullopt;
    return c.name == kFmaOnlyCeilingName ? *kind == "FMA" : (*kind == "add" || *kind == "mul");
}

// A storing pattern ceiling (copy, triad) whose remedy is a smaller share of stores, toward the
// pattern of the level's roof, facing a point that stores no larger share of its bytes than that
// pattern (within 2 points): daxpy's one store per two loads is a triad's mix already, and an
// audit's CSR SpMV, 4.5% of its bytes stored, was sandwiched under "L2 triad+WA" and told to
// "store a smaller share of its bytes" (a JSON upper ceiling) on a copy+WA roof that stores half.
bool stores_no_more_than_its_roof(const Roofline& r, const Ceiling& c, const CodeTraits& traits) {
    if (c.category != "pattern" || c.read_only || !traits.store_share) return false;
    const Roof* roof = roof_of_level(r, c.level);
    return roof && roof->store_share && *traits.store_share <= *roof->store_share + 0.02;
}

// A ceiling whose premise the point's counts contradict, so the point is already past it: the
// SIMD ceilings of a width its FLOPs already use (almost none scalar), "no FMA" when nearly all
// its FLOPs are fused or almost none are multiplies, a mix ceiling measured with another kind mix than its counted one (FMA
// only for code that adds, ADD or MUL only for code that fuses or mixes kinds), the ILP ceiling
// (one dependent chain, measured at the widest vectors) for a loop that is no reduction, runs
// above one chain's rate at its own width (eight scalar accumulators run under a 512-bit
// chain's rate, and past a scalar one) or whose chains are short (short_chains: per loop entry or
// per value stored), a pattern ceiling of the other kind than the point's
// (loads alone for a point that stores, a storing pattern for one that only reads: `reads_only`,
// nullopt where nothing counted), a storing pattern for a point that stores no larger share than
// its level's roof (stores_no_more_than_its_roof). Such a ceiling neither sandwiches nor limits
// the point.
bool already_past(const Roofline& r, const Ceiling& c, const CodeTraits& traits, double chain_at_its_width,
                  double performance, std::optional<bool> reads_only) {
    if (c.category == "pattern")
        return (reads_only && c.read_only != *reads_only) || stores_no_more_than_its_roof(r, c, traits);
    if (c.category == "ilp") {
        if (traits.store_share && !stores_like_a_reduction(traits)) return true;
        if (short_chains(traits) || loads_waste_lines(traits)) return true;
        // Far under one chain's rate its adds wait for something else (split_chain's bound): the
        // ILP ceiling would give the advice split_chain withholds (a scalar sum at 0.16 of one
        // chain was told "break the dependency chain" by a full bench's ceiling).
        return chain_at_its_width > 0 && (performance > 1.1 * chain_at_its_width ||
                                          performance < chain_floor(r, chain_at_its_width));
    }
    if (c.category == "simd" && traits.scalar_share && *traits.scalar_share < 1 - kOneKindShare) {
        int bits = 0;  // "128-bit SIMD" -> 128; "scalar (no SIMD)" -> 0
        try {
            bits = std::stoi(c.name);
        } catch (const std::exception&) {
        }
        return traits.widest_bits > bits;
    }
    // "no FMA": multiplies and adds left unfused; past for fused code and for code without
    // multiplies to fuse (a sum).
    if (c.category == "fma" && traits.fma_share && *traits.fma_share >= kOneKindShare) return true;
    if (c.category == "fma" && traits.mul_share && *traits.mul_share < 1 - kOneKindShare) return true;
    if (c.category == "balance" && c.kind == CeilingKind::compute) return mix_premise_holds(c, traits) == false;
    return false;
}

Region region_for(const Roofline& r, const std::string& level, double i) {
    const auto bounds = region_bounds(r, level);
    if (!bounds) return Region::compute_only;
    if (i < bounds->start) return Region::memory_only;
    if (i > bounds->end) return Region::compute_only;
    return Region::both;
}

// The zone of a point bounded at several levels: memory-only where some level's roof lies under
// even the lowest compute ceiling (then the binding level's does too), compute-only only where
// every level's lowest bandwidth ceiling lies above the compute roof at its intensity. Judged at
// one level alone, a compute-bound point whose L3 ceiling sat under the peak was called
// compute-only while its first step was an L3 access pattern.
Region zone_of(const Roofline& r, const Point& p, const std::vector<std::string>& levels) {
    Region zone = Region::compute_only;
    for (const auto& level : levels) {
        const Region here = region_for(r, level, *intensity(p, level));
        if (here == Region::memory_only) return here;
        if (here == Region::both) zone = here;
    }
    return zone;
}

} // namespace

namespace {

// Rounding, not measurement: a point `model -o` placed on its roof reads back a few ulps above it
// (its bytes are a product of per-iteration figures, its time a quotient).
inline constexpr double kOnTheRoofRounding = 1e-9;

std::optional<AboveRoof> check_above_roof(const Roofline& r, const Point& p, const Analysis& a) {
    if (!(a.efficiency > 1 + kOnTheRoofRounding)) return std::nullopt;
    AboveRoof out;
    out.excess = a.efficiency - 1;
    const Roof* binding = a.memory_bound ? roof_of_level(r, a.binding_level) : &r.compute;
    out.tolerance = binding ? std::max(0.0, binding->spread) : 0;
    out.within_spread = out.excess <= out.tolerance;
    // A GPU kernel has no threads, regions or sampled time of a CPU run: its own causes.
    if (point_device(p) == Device::gpu) {
        out.causes = {AboveRoof::Cause::gpu_wrong_roof, AboveRoof::Cause::gpu_roof_below_device,
                      AboveRoof::Cause::gpu_work_counted_twice, AboveRoof::Cause::stale_machine_model};
        return out;
    }
    // Most likely first: the ones this point's own record points at, then what can always be the case.
    // Counted in another build, the bytes are that build's: a build without AVX-512 has 16 vector
    // registers, not 32, and a kernel that keeps 20 vectors live spills where the timed build does not
    // (an audit's FMA chains: 189.5 GB counted at L1 for 41 MB moved, read as 356% of the L1 roof).
    // A memset's or memcpy's lines read before they were written, in the simulation only: first, the
    // counts themselves say so (a memset of an L3-sized buffer read at 131% of the L3 roof on Zen 4).
    // Named only where they can account for the excess: at 120% of the roof, fills of 6% of the bytes
    // leave it at 113% without them, and were named first, "largely" its bytes.
    if (const auto fill = a.memory_bound ? rep_string_fill_at(p, a.binding_level) : std::nullopt;
        fill && a.efficiency * (1 - fill->fill_bytes / fill->level_bytes) <= 1 + out.tolerance)
        out.causes.push_back(AboveRoof::Cause::rep_string_fill);
    if (counted_in_other_build(p))
        out.causes.push_back(AboveRoof::Cause::counted_in_other_build);
    // Threads beyond the CPUs the run was allowed took turns: not more than the roofline's at once.
    if (r.threads > 0 && judged_threads(p) > r.threads)
        out.causes.push_back(AboveRoof::Cause::more_threads_than_roofline);
    if (p.source == PointOrigin::instrument_sampling) out.causes.push_back(AboveRoof::Cause::self_time_only);
    // A cyclic sweep over twice a cache is all misses under LRU, but real replacement (adaptive, or
    // a victim L3) keeps part of it: the transition spans a few times the cache's size.
    if (const auto spill = p.details.find(kWorkingSetOverCache);
        spill != p.details.end() && spill->second > 1 && spill->second < 4)
        out.causes.push_back(AboveRoof::Cause::working_set_near_cache);
    out.causes.push_back(AboveRoof::Cause::work_outside_timing);
    out.causes.push_back(AboveRoof::Cause::stale_machine_model);
    return out;
}

} // namespace

int judged_threads(const Point& p) {
    const auto allowed = p.details.find(kCpusAllowed);
    // A fraction never reaches here (measure rounds a quota up); floor() keeps a hand-written 1.5 at 1.
    if (allowed == p.details.end() || !std::isfinite(allowed->second) || !(allowed->second >= 1)) return p.threads;
    const double cpus = std::floor(allowed->second);
    return cpus < p.threads ? static_cast<int>(cpus) : p.threads;
}

std::optional<JudgedThreads> judged_threads_of(const Roofline& r, const Point& p) {
    const int judged = judged_threads(p);
    if (judged == p.threads) return std::nullopt;
    return JudgedThreads{judged, p.threads, std::max(0, r.threads)};
}

std::string judged_threads_text(const JudgedThreads& j) {
    const auto count = [](int n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); };
    std::string out = fmt::format("it ran {} on {} allowed (cpus_allowed: its affinity mask, as taskset sets it, or its "
                                  "cgroup's CPU quota): they took turns, so it is judged as {} at once",
                                  count(j.point_threads, "thread"), count(j.threads, "CPU"), count(j.threads, "thread"));
    if (j.roofline_threads == j.threads) return out + fmt::format(", on the roofs of {}", count(j.threads, "thread"));
    if (j.roofline_threads > 0)
        return out + fmt::format(", yet this roofline is of {} (other points' count, or the model measured none of {}): "
                                 "roofs it could not reach",
                                 count(j.roofline_threads, "thread"), j.threads);
    return out;
}

std::optional<BusThroughput> bus_throughput(const Point& p) {
    if (!(p.work > 0)) return std::nullopt;
    for (const auto& [level, bytes] : p.bytes) {
        if (!is_bus_level(level) || !(bytes > 0)) continue;
        BusThroughput t;
        t.bus = level;
        t.intensity = p.work / bytes;
        for (const char* memory : {"HBM", "DRAM"}) {
            const auto it = p.bytes.find(memory);
            if (it == p.bytes.end() || !(it->second > 0)) continue;
            t.memory_level = memory;
            t.memory_intensity = p.work / it->second;
            t.coefficient = t.intensity / t.memory_intensity;
            break;
        }
        return t;
    }
    return std::nullopt;
}

std::optional<TimeOutsideCode> time_outside_code(const Point& p) {
    const auto detail = [&](const char* key) {
        const auto it = p.details.find(key);
        return it != p.details.end() && std::isfinite(it->second) && it->second > 0 ? it->second : 0.0;
    };
    TimeOutsideCode t;
    const double system = detail("cpu_system_seconds"), user = detail("cpu_user_seconds");
    // The same floors as measure's warnings.
    if (system >= kKernelTimeFloorSeconds && system >= kKernelTimeShare * (system + user))
        t.kernel_share = system / (system + user);
    // The same floors of CPU time as measure's warnings, over the interval the shares were read in
    // (the timed run; its time where an older file did not record it): over a run of a few ms one
    // 10 ms tick of another process reads as several CPUs. Unknown interval: the shares alone.
    const double interval = detail("cpu_activity_seconds") > 0 ? detail("cpu_activity_seconds")
                                                              : (std::isfinite(p.seconds) && p.seconds > 0 ? p.seconds : 0.0);
    const double cpus = detail("cpu_activity_cpus") > 0 ? detail("cpu_activity_cpus") : 1.0;
    const auto enough = [&](double cpu_seconds, double floor) { return !(interval > 0) || cpu_seconds >= floor; };
    if (detail("cpu_others_busy") >= kOthersCpusWarning &&
        enough(detail("cpu_others_busy") * interval, kOthersFloorSeconds))
        t.others_cpus = detail("cpu_others_busy");
    if (detail("cpu_steal_share") >= kStealShareWarning &&
        enough(detail("cpu_steal_share") * cpus * interval, kStealFloorSeconds))
        t.steal_share = detail("cpu_steal_share");
    if (t.kernel_share == 0 && t.others_cpus == 0 && t.steal_share == 0) return std::nullopt;
    return t;
}

Analysis analyze(const Roofline& r, const Point& p, View view) {
    Analysis a;
    a.point = p.name;
    a.outside_code = time_outside_code(p);
    a.llc_near_full = llc_near_full(p);
    a.math_library = math_library_flops(p);
    a.thread_imbalance = thread_imbalance(p);
    a.judged_threads = judged_threads_of(r, p);
    a.throughput = bus_throughput(p);
    a.timing = timing_of(p);
    a.cut_off = cut_off_signal(p);
    a.performance = performance(p);

    // The binding roof: the lowest of the compute roof and each level's roof x intensity.
    a.attainable = r.compute.value;
    a.binding_roof = r.compute.name;
    a.memory_bound = false;
    const auto levels = bounding_levels(r, p, view);
    for (const auto& level : levels) {
        const Roof* roof = roof_of_level(r, level);
        const double i = *intensity(p, level);
        const double limit = roof->value * i;
        if (limit < a.attainable) {
            a.attainable = limit;
            a.binding_roof = roof->name;
            a.binding_level = level;
            a.memory_bound = true;
        }
    }
    const std::string intensity_level = a.memory_bound ? a.binding_level : (levels.empty() ? "" : levels.back());
    a.intensity = intensity_level.empty() ? std::numeric_limits<double>::quiet_NaN() : *intensity(p, intensity_level);
    a.intensity_level = intensity_level;
    if (view == View::carm)
        for (const auto& [level, bytes] : p.bytes)
            if (bytes > 0 && !roof_of_level(r, level)) a.unjudged_levels.push_back(level);
    a.efficiency = a.attainable > 0 ? a.performance / a.attainable : 0;
    a.region = zone_of(r, p, levels);
    if (a.llc_near_full && a.binding_level != "DRAM") a.dram_may_bind = dram_may_bind(r, p, *a.llc_near_full, a.attainable);

    // Headroom to every roof at this point's intensities. A bandwidth roof that lies above the
    // compute roof there caps nothing: its figure would repeat the compute roof's under its name.
    auto add_headroom = [&](const std::string& name, double allowed) {
        a.headroom.push_back({name, allowed, a.performance > 0 ? allowed / a.performance : 0});
    };
    add_headroom(r.compute.name, r.compute.value);
    for (const auto& level : levels) {
        const Roof* roof = roof_of_level(r, level);
        if (const double cap = roof->value * *intensity(p, level); cap < r.compute.value) add_headroom(roof->name, cap);
    }
    std::sort(a.headroom.begin(), a.headroom.end(), [](auto& x, auto& y) { return x.attainable > y.attainable; });

    // Ceilings that apply to this point: compute ceilings, and bandwidth
    // ceilings of the levels that bound it, each at its value for this point's
    // intensity. One at or above the binding roof does not bound the point here.
    struct Placed {
        const Ceiling* c;
        double at;
    };
    std::vector<Placed> placed;
    // The point's own counts (core/code_traits): the ceilings are the machine's, the counts are
    // the code's.
    const CodeTraits traits = code_traits(p);
    const Ceiling ilp_at_width = ilp_ceiling_at_its_width(r, traits);
    for (const auto& machine_ceiling : r.ceilings) {
        const Ceiling& c = machine_ceiling.category == "ilp" && !ilp_at_width.name.empty() ? ilp_at_width : machine_ceiling;
        // A point already running the roofline's thread count is past its 1-thread ceilings: "use all
        // cores" is not a remedy for it.
        // Its own threads, not judged_threads: 8 threads on 1 allowed CPU lack CPUs, not parallel code, and
        // its note (judged_threads_of) says so; "parallelize" would not help it.
        if (c.category == "threads" && r.threads > 0 && p.threads >= r.threads) continue;
        double at = 0;
        if (c.kind == CeilingKind::compute) {
            at = c.value;
        } else if (std::find(levels.begin(), levels.end(), c.level) != levels.end()) {
            at = ceiling_at(r, c, *intensity(p, c.level));
        } else {
            continue;
        }
        if (at < a.attainable) placed.push_back({&c, at});
    }
    std::sort(placed.begin(), placed.end(), [](auto& x, auto& y) { return x.at < y.at; });
    // A ceiling whose premise the counts contradict (no SIMD for vector FLOPs, one chain for a
    // loop that stores like a stream, no FMA for fused FLOPs) does not sandwich the point.
    const double chain_at_its_width = one_chain_at_its_width(r, p, traits);  // scalar code: one_chain_gflops
    const auto reads_only = point_reads_only(p);
    for (const auto& pl : placed) {
        if (already_past(r, *pl.c, traits, chain_at_its_width, a.performance, reads_only)) continue;
        if (pl.at >= a.performance) {
            if (!a.upper) a.upper = *pl.c;
        } else {
            a.lower = *pl.c;
        }
    }
    a.above_roof = check_above_roof(r, p, a);
    if (a.above_roof && !a.above_roof->within_spread) return a;  // an error, not a result: no advice from it

    // Next steps. First what the point's own counts say (scalar code, one dependent chain).
    // A reduction running at one chain's rate is held by that chain: splitting it comes first.
    // Only where its counts show a long chain (long_chain): a short one restarts at each entry or
    // stored total, and the core overlaps the next ones already.
    // Vectorizing it means reassociating the sum, which is the same change, and a compiler told
    // only "-O3 -march=native" keeps it scalar (an audit's float sum: 0.0915 s at -O2, 0.0912 at
    // -O3 -march=native, 0.0098 with -ffast-math).
    // Mostly x87 (long double) FLOPs: the x87 unit has no vector form, so neither vectorizing nor
    // -march=native changes them, and more accumulators did not help either (a long double dot
    // product, gcc -O2, 1e6 x 20: 58.1 ms; -O3 -march=native 57.9; 4 accumulators 58.3; in double
    // 18.9): leaving x87 is the step, in vectorize's place, and split_chain is not offered.
    // A function whose own work per call is tiny (kTinyCallFlops): its calls, not its FLOPs, fill
    // its time; inlining or batching it comes in the place of vectorizing, splitting a chain or
    // leaving x87, which a call of a few FLOPs has no room for.
    const bool call_bound = traits.calls && traits.flops_per_call && traits.instructions_per_call &&
                            *traits.calls >= kManyCalls && *traits.flops_per_call < kTinyCallFlops &&
                            *traits.instructions_per_call < kTinyCallInstructions;
    // Its FLOPs slower than one chain of the slowest ones (kSlowestFlopCycles): its time is not
    // theirs, and every step that changes its arithmetic is withheld (its calls may still be it).
    const double slowest_chain = slowest_flop_chain_gflops(r, p);
    const bool flops_not_the_time = !call_bound && p.work_counted && p.work > 0 && a.performance > 0 &&
                                    a.performance < slowest_chain;
    if (flops_not_the_time)
        a.next_steps.push_back({NextStep::Kind::flops_not_the_time, {}, {}, {}, slowest_chain, 0, {}});
    const bool x87 = !call_bound && !flops_not_the_time && traits.x87_share && *traits.x87_share >= 0.5;
    // Scalar code, or vector code of one chain of vectors (an audit's float sum at -O3 -ffast-math,
    // one 256-bit accumulator, ran 3.8x faster with four: 0.78 s against 0.21); mixed widths not.
    const bool one_width = traits.scalar_share && (*traits.scalar_share >= kOneKindShare ||
                                                   (*traits.scalar_share <= 1 - kOneKindShare && traits.widest_bits > 0));
    const bool chain_bound = !call_bound && !x87 && !flops_not_the_time && one_width && traits.store_share &&
                             stores_like_a_reduction(traits) && long_chain(traits) && chain_at_its_width > 0 &&
                             a.performance <= 1.1 * chain_at_its_width &&
                             a.performance >= chain_floor(r, chain_at_its_width);
    if (chain_bound) {
        // operation: the width of a vector chain ("256"), empty for a scalar one
        NextStep step{NextStep::Kind::split_chain, {}, {}, {}, chain_at_its_width, *traits.store_share,
                      chain_lanes(traits) > 1 ? std::to_string(traits.widest_bits) : ""};
        step.accumulations_per_store = traits.accumulations_per_store.value_or(0) / chain_lanes(traits);
        a.next_steps.push_back(step);
    }
    if (call_bound && (!a.memory_bound || a.efficiency < 0.8)) {
        NextStep step{NextStep::Kind::call_overhead, {}, {}, {}, 0, 0, {}};
        step.calls = *traits.calls;
        step.flops_per_call = *traits.flops_per_call;
        step.instructions_per_call = *traits.instructions_per_call;
        step.operation = traits.calls_of;  // the program's main function; "" for a function point
        step.share = traits.calls_share;
        a.next_steps.push_back(step);
    } else if (x87 && (!a.memory_bound || a.efficiency < 0.8))
        a.next_steps.push_back({NextStep::Kind::leave_x87, {}, {}, {}, 0, *traits.x87_share, {}});
    else if (!x87 && !call_bound && !flops_not_the_time && traits.scalar_share && *traits.scalar_share >= 0.5 &&
             (!a.memory_bound || a.efficiency < 0.8))
    {
        // A reference kernel's widths are its code's (kernel_point), not counted.
        NextStep step{NextStep::Kind::vectorize, {}, {}, {}, 0, *traits.scalar_share,
                      p.source == PointOrigin::kernel ? "by its code" : ""};
        // An audit's std::transform_reduce on floats, built -O3 -march=native, ran scalar and was
        // told to build with -O3 -march=native: reassociating is the missing permission (said by
        // split_chain already where it leads).
        step.reduction = !chain_bound && traits.store_share && stores_like_a_reduction(traits);
        step.in_math_library = a.math_library && a.math_library->share >= 0.5;
        a.next_steps.push_back(step);
    }
    // Far under a cache's roof with the code itself to blame: access patterns and intensity
    // there are not what holds it back yet, so they are not offered (the headroom still shows
    // the roofs). Bound by memory, a bus or the network, that advice stays beside the code's.
    // Not the lines' use (loads_waste_lines, below): lines it brings and barely uses are its own
    // accesses, and what its loads wait for (an audit's CSR SpMV with random columns, at 24% of
    // its L2 roof, took 3.4x the bytes it accessed from L2 and was told only to vectorize).
    const bool code_first = !a.next_steps.empty() && a.efficiency < 0.5 &&
                            (!a.memory_bound || cache_level_number(a.binding_level).has_value());

    // Vector code narrower than the vectors the roofs were measured with: those roofs (the compute
    // roof, L1's and L2's) may be out of its reach at its width (an audit's SSE2 multiply on an
    // AVX-512 machine read 18% of an L1 roof it reached 77% of at 128 bits). Last, after the
    // ceilings, which were measured, and the roof's step: what width costs depends on the core
    // (Zen 4 runs 512-bit vectors as two 256-bit halves); but in the place of a SIMD ceiling above
    // the point, which asks for the same change (a compute-bound SSE2 polynomial was told
    // "vectorize with the widest vectors ... -march=native" by its 128-bit SIMD ceiling and
    // "build for this CPU (-march=native ...)" by this step). Not for counts from another build
    // (--counts-from): their widths are that build's, not the timed one's. Not where L3 or DRAM
    // binds: narrow vectors reach those roofs (an SSE2 triad in DRAM ran 55.6 GB/s, its AVX-512
    // build 58.1, on a Zen 5 whose DRAM copy roof was measured with SSE2).
    std::optional<NextStep> widen;
    const auto bound_cache = cache_level_number(a.binding_level);
    const int its_width = widest_narrower_than(traits, r.vector_bits);
    // Bound by an L1 or L2 roof the bench also ran at the point's width: where that width reached
    // 95% of the roof's rate, wider vectors do not lift it (an audit's 256-bit dot product in L2 was
    // told to widen its vectors on a Zen 4 whose L2 streamed 114 GB/s at 128, 256 and 512 bits).
    const Roof* bound_roof = a.memory_bound ? roof_of_level(r, a.binding_level) : nullptr;
    const bool width_reaches_roof = bound_roof && bound_roof->share_at_width.count(its_width) > 0 &&
                                    bound_roof->share_at_width.at(its_width) >= 0.95;
    const bool width_can_bind = !a.memory_bound || (bound_cache && *bound_cache <= 2 && !width_reaches_roof);
    if (const auto narrow = share_narrower_than(traits, r.vector_bits);
        width_can_bind && !call_bound && !flops_not_the_time && !counted_in_other_build(p) && traits.scalar_share && *traits.scalar_share < 0.5 && narrow &&
        *narrow >= 0.5 && (!a.memory_bound || a.efficiency < 0.8) &&
        !(!a.memory_bound && compute_width_costs_nothing(r, its_width)))
        widen = NextStep{NextStep::Kind::widen_vectors, {}, {}, {}, 0, *narrow, std::to_string(its_width)};

    // Then break the ceilings above the point from the lowest up (one per kind of missing
    // optimization), then the roof.
    // A mix ceiling whose premise the counts confirm: the most the point's own operations reach.
    const Ceiling* mix_cap = nullptr;
    bool mix_said = false;  // a one_kind_mix step already says so
    for (const auto& pl : placed) {
        if (pl.at < a.performance) continue;
        if (code_first && pl.c->category == "pattern") continue;
        // Far under the loads-alone ceiling (kFarUnderLoads), its "fuse read-only passes" names a
        // limit the point is nowhere near: an add chain at 1.7% of the L1 roof was given it as its
        // first step, and an audit's scalar sum on 2 threads, at 18% of the DRAM load ceiling, as
        // its second after vectorizing. The ceiling still sandwiches it (upper ceiling).
        if (pl.c->category == "pattern" && pl.c->read_only && a.performance < kFarUnderLoads * pl.at) continue;
        if (flops_not_the_time && pl.c->kind == CeilingKind::compute) continue;  // a rate of FLOPs it does not reach
        // Past by its counts (already_past): a pattern ceiling speaks to points of its kind, the
        // read-only one to a point that only reads (no other pattern is open to it), the others
        // to a point that stores more than its level's roof's pattern.
        if (already_past(r, *pl.c, traits, chain_at_its_width, a.performance, reads_only)) continue;
        // A storing pattern's remedy is a smaller share of stores: nothing to one known to write
        // one array (a fill was told "fewer store streams"): it has no stream to merge or drop.
        const bool storing_pattern = pl.c->category == "pattern" && !pl.c->read_only && pl.c->advice.empty();
        if (storing_pattern && traits.store_streams && *traits.store_streams <= 1) continue;
        const bool seen = std::any_of(a.next_steps.begin(), a.next_steps.end(),
                                      [&](const NextStep& s) { return covers(s, *pl.c); });
        if (seen) continue;
        if (widen && covers(*widen, *pl.c)) {
            a.next_steps.push_back(*widen);
            widen.reset();
            continue;
        }
        // A mix ceiling whose premise the counts confirm (its FLOPs are that one kind) is the
        // rate of the operations the algorithm has: no mix to balance. Near it (80%), that is
        // what the step says, with the counted share; further under it, other steps come first.
        if (pl.c->category == "balance" && pl.c->kind == CeilingKind::compute && mix_premise_holds(*pl.c, traits)) {
            if (!counted_in_roofline_precision(r, traits)) continue;  // another precision's rate caps part of it
            if (!mix_cap) mix_cap = pl.c;
            if (a.performance >= 0.8 * pl.at) {
                const std::string kind = *one_kind_of(traits);
                a.next_steps.push_back(
                    {NextStep::Kind::one_kind_mix, *pl.c, {}, {}, pl.at, share_of_kind(traits, kind), kind});
                mix_said = true;
            }
            continue;
        }
        NextStep step{NextStep::Kind::lift_ceiling, *pl.c, pl.c->level, {}, pl.at, 0, {}};
        if (storing_pattern) {
            step.share = traits.store_share.value_or(0);
            step.store_streams = traits.store_streams.value_or(0);
        }
        a.next_steps.push_back(step);
    }
    // Output written and not re-read, counted: streaming stores skip its write-allocate reads.
    // Only where DRAM binds (in a cache the lines would be re-read, and the fills cost little),
    // before the generic "raise the intensity": it is the change those counted bytes name.
    if (a.memory_bound && a.binding_level == "DRAM" && traits.unread_write_allocate_share &&
        *traits.unread_write_allocate_share >= kUnreadWriteAllocateShare)
        a.next_steps.push_back({NextStep::Kind::non_temporal_stores, {}, "DRAM", a.binding_roof, a.attainable,
                                *traits.unread_write_allocate_share, {}});
    if (a.memory_bound) {
        // Bound past L1 by accesses that use little of each line (loads_waste_lines): `share`, the
        // part of the lines' bytes it uses, names the change (unit stride) in the generic one's place.
        const bool past_l1 = a.binding_level != "L1" && (cache_level_number(a.binding_level) || a.binding_level == "DRAM");
        const double lines_used = past_l1 && loads_waste_lines(traits) ? 1 / *traits.l2_bytes_per_accessed_byte : 0;
        if (!code_first || lines_used > 0)
            a.next_steps.push_back(
                {NextStep::Kind::raise_intensity, {}, a.binding_level, a.binding_roof, a.attainable, lines_used, {}});
    } else if (a.dram_may_bind) {
        // Compute-bound only on DRAM bytes that are a lower bound: no step says it is.
    } else if (mix_cap) {
        // Compute-bound code of one kind of operation (a DGEMM's FMAs) cannot reach the peak, which
        // needs other operations beside them (FMAs and adds on their own pipes): its ceiling is the
        // room it has (an audit's OpenBLAS DGEMM, 99.6% FMAs, was told "DP peak allows 410" where
        // FMAs alone run at 273). Near that ceiling one_kind_mix has said so already.
        if (!mix_said && a.performance < 0.95 * mix_cap->value) {
            const std::string kind = *one_kind_of(traits);
            a.next_steps.push_back({NextStep::Kind::reach_compute, *mix_cap, {}, r.compute.name, mix_cap->value,
                                    share_of_kind(traits, kind), kind});
        }
    } else if (a.efficiency < 0.95)
        a.next_steps.push_back({NextStep::Kind::reach_compute, {}, {}, r.compute.name, r.compute.value, 0, {}});
    if (widen) a.next_steps.push_back(*widen);  // no SIMD ceiling above it took its place
    // Code in an installed library (an FFTW codelet, a BLAS kernel): its user does not build it, so
    // every step above (vectorize, build flags, blocking, access patterns) asks for a change the
    // user cannot make to it (an FFTW transform was told "-march=native" and "raise the intensity").
    // One step in their place says where the levers are; the bound and the headroom stay.
    if (traits.library) {
        NextStep step{NextStep::Kind::library_code, {}, a.binding_level, a.binding_roof, a.attainable, 0,
                      *traits.library};
        a.next_steps.assign(1, step);
    }
    return a;
}

} // namespace roofline
