// A loop described on paper (a "kernel spec"): work and array traffic per
// iteration, which operands stay in registers or a cache, whether stores
// write-allocate. From it: the analytic bytes crossing each memory level, the
// intensity per level, and the prediction on a roofline. Pure: no I/O.
//
// Levels, from the core outward: "L1" (what the load/store instructions move),
// "L2" (L1<->L2), "L3" (L2<->L3), "DRAM" (last cache<->memory).
#pragma once

#include "core/roofline.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ArraySpec {
    std::string name;
    std::string type;                 // as the spec names it ("double", "float", "int32"); "" when given in bytes
    double element_bytes = 8;
    double reads_per_iteration = 0;   // elements loaded per iteration (may be fractional: 1/N)
    double writes_per_iteration = 0;  // elements stored per iteration
    // Stores read the line before writing it (read for ownership) wherever the
    // array streams through a cache. false: no such read, but the stores still pass
    // through the caches (a line claimed without reading it: Intel's SpecI2M, ARM's
    // DC ZVA). Non-temporal stores are `non_temporal`, which implies it.
    bool write_allocate = true;
    // Non-temporal (streaming) stores: they bypass the caches, so the stored bytes
    // count at L1 (the store instructions, as counters and the cache simulation count
    // them) and at DRAM, not at L2 or L3, and read nothing for ownership. The
    // array's loads still come through every level. Only for arrays in memory.
    bool non_temporal = false;
    // Where the array stays between uses: "registers", "L1", "L2", "L3", or
    // "" (streams from memory). It crosses every level from L1 down to this one.
    std::string resident_in;
    // resident_in was written (`memory` too): where the spec says it stays, which a
    // working set that fits a cache does not change (core/kernel_footprint.hpp).
    bool resident_given = false;
    // Its size in elements, when the spec gives it: what it occupies (for an operand
    // resident in a cache, the part kept there), checked against that cache.
    std::optional<double> elements;
    // `per_thread: true`: `elements` is what each thread uses (its own tile or rows, or an
    // array every thread reads whole, as x of a matrix-vector product), not the team's total
    // split among its threads (the default). Each cache instance the team uses then holds at
    // least one copy (core/kernel_footprint.hpp).
    bool per_thread = false;
    // How successive accesses fall (`stride:`): 1, the next element (the default); a
    // larger stride skips elements, and `random` lands each access on a line of its own.
    // Below L1 caches move whole lines, so each access of a strided or random operand
    // moves min(stride x element_bytes, the line) bytes there (at least one element),
    // down to where it stays: a sum of every 8th double moves 64 B per 8 B loaded.
    double stride = 1;
    bool random = false;
    // Strided or random: the cache that keeps each line until the loop has used all of it
    // (it comes back to the line's other elements within what that cache holds: a
    // transpose's N store lines in L2). Lines move whole above it and each once below it,
    // as elements do. "" when nothing keeps them (every access moves a line).
    std::string lines_kept_in;
};

// Whether accesses skip through the operand (a stride above one element, or random).
bool scattered_access(const ArraySpec& array);
// Bytes one access of `array` moves across the boundary into `level` (1 = L1 ... 4 = DRAM)
// on a machine of `line_bytes` lines: the element at L1 and wherever its lines are used
// whole, else the part of a line it brings (see ArraySpec::stride).
double bytes_per_access(const ArraySpec& array, int level, double line_bytes);

struct KernelSpec {
    std::string name;
    std::string description;
    std::string work_unit = "FLOP";     // or "IOP", "bit op", "exchange", "instruction" ...
    std::string precision;              // of its FLOPs as the spec declares it ("dp", "sp"); "" when it does not
    double work_per_iteration = 0;
    std::optional<double> iterations;   // total; unknown when the spec gives no size
    std::string iterations_text;        // as written ("N*N"), for display
    std::map<std::string, double> sizes;  // named sizes the expressions used
    std::vector<ArraySpec> arrays;
    // The cache line of the machine it is judged on (what strided and random accesses
    // move below L1); 64 B unless the machine says otherwise.
    double line_bytes = 64;
    // The instruction set the code was built for (`isa:`: "scalar", "sse2", "avx", "avx2",
    // "avx512"; core/kernel_spec_roofs.hpp): its compute and L1/L2 roofs are that width's.
    // "": not said (the machine's widest).
    std::string isa;
};

// "L1", "L2", "L3", "DRAM".
const std::vector<std::string>& spec_levels();

// The floating-point precision of an element type: "dp" (double, float64, complex),
// "sp" (float, float32, complex_float), "fp16" (half, float16); "" for integers and
// names not known.
std::string float_precision_of_type(const std::string& type);

// The precision of a kernel's FLOPs, which decides the compute roof it is judged
// against: as declared (`precision:`), else that of its operands when they all have
// one floating-point type. Operands of several floating-point types do not say which
// FLOPs are which (mixed_types); no floating-point type at all (element_bytes only,
// integers), or work that is not FLOP, says nothing (unknown).
struct SpecPrecision {
    enum class Basis { declared, element_types, mixed_types, unknown };
    Basis basis = Basis::unknown;
    std::string precision;           // "dp", "sp", "fp16"; "" for mixed_types and unknown
    std::vector<std::string> types;  // the operands' floating-point precisions, each once, in order met
};
SpecPrecision spec_precision(const KernelSpec& spec);

// Whether `resident_in` names a place a spec array may live ("" = memory).
bool is_known_residence(const std::string& resident_in);

// What the model leaves out that the spec's own operands run into, a sentence each: accesses a
// page or more apart in memory (TLB misses, DRAM page changes), and random accesses below L1
// (each waits for its line: latency and the misses a core keeps in flight, not bandwidth).
// Such loops run well under a prediction made of bandwidth (bench/model-vs-measured.sh).
std::vector<std::string> unmodelled_effects(const KernelSpec& spec);

// What crosses one level per iteration, by kind: the loads, the stores (non-temporal ones
// included, and also apart), and the write-allocate reads of the stores.
struct LevelTraffic {
    double loaded = 0;
    double stored = 0;
    double non_temporal_stored = 0;
    double allocated = 0;
};
// Per level, as bytes_per_iteration counts it; a level no byte crosses is absent.
std::map<std::string, LevelTraffic> traffic_per_iteration(const KernelSpec& spec);

// Bytes crossing each level per iteration. A level no byte crosses is absent.
// With write-allocate: one extra read per stored byte at each level below L1
// that a write-allocating array streams through (L1 counts instructions only);
// stores to an array the loop reads as often (y = y + ...) allocate nothing extra.
// Non-temporal stores count at L1 and DRAM only. Strided and random operands move
// bytes_per_access below L1.
std::map<std::string, double> bytes_per_iteration(const KernelSpec& spec);
// The same without write-allocate reads (what the instructions nominally move).
std::map<std::string, double> nominal_bytes_per_iteration(const KernelSpec& spec);

// work / bytes per level (levels with bytes only).
std::map<std::string, double> intensity_per_level(const KernelSpec& spec);

// The spec as a point: work and bytes for all iterations (or one iteration when
// the count is unknown), source "analytic", seconds 0 (nothing was measured).
// details: "iterations" (when known), "work_per_iteration", and the work again as
// "flops_f32" or "flops_f64" when spec_precision says sp or dp (how points carry
// their precision, core/machine_roofline.hpp's point_precision).
Point point_from_spec(const KernelSpec& spec);

// A spec placed on a roofline: predicted time T = max(W / peak, max over the
// bounding levels of Q_level / B_level), predicted performance W / T.
struct KernelPrediction {
    Point point;                    // seconds = the predicted time (of one iteration when the count is unknown)
    std::map<std::string, double> intensity;  // per level
    double performance = 0;         // predicted G<unit>/s
    std::optional<double> seconds;  // predicted time for the given iterations
    double seconds_per_iteration = 0;
    std::string binding_roof;       // name of the roof that sets the time
    std::string binding_level;      // "" when compute-bound
    double binding_bandwidth_gbs = 0;  // bytes/s at the binding level when memory-bound (1e9)
    Analysis analysis;              // the point at its predicted performance (headroom, next steps)
    // Ways the model itself says the prediction rises, each with the new figure.
    // As data; render/ phrases it.
    struct Lift {
        enum class Kind {
            non_temporal_stores,  // `arrays` stored without write-allocate reads
            intensity_at_level,   // intensity `needed` at `level` (now `current`) reaches the roof `roof`
        };
        Kind kind = Kind::non_temporal_stores;
        std::vector<std::string> arrays;
        std::string level;
        double needed = 0;
        double current = 0;
        std::string roof;
        double performance = 0;     // G<unit>/s after the change
    };
    std::vector<Lift> lifts;
    // Scalar accumulators (`resident_in: registers`, `elements: 1`, read and written each
    // iteration: s += ...): a compiler that may not reassociate (-O3 without -ffast-math)
    // keeps each one dependent chain of adds, at most one per add latency
    // (core/code_traits.hpp's one_chain_gflops at the roofline's clock). Set when that rate
    // is below the prediction, the clock known and the work FLOP.
    std::vector<std::string> accumulators;
    std::optional<double> one_chain_performance;
    // Ceilings that would hold the kernel below the prediction at its intensity:
    // the code must beat each of them (SIMD, FMA, threads ...) to reach it. Highest first.
    std::vector<Ceiling> must_beat;
};

// Why `spec` cannot be predicted on `roofline`, or "" when it can: a kernel that moves
// bytes needs a bandwidth roof at one of the levels it moves them at (in the ORM view,
// DRAM). Without one, min(peak, B x I) has no B and the compute peak alone would be a
// prediction no memory was asked about (a STREAM triad "compute-bound" on a
// compute-only model).
std::string unpredictable_reason(const KernelSpec& spec, const Roofline& roofline, View view);

// Throws std::invalid_argument when the roofline has no compute roof (value <= 0).
KernelPrediction predict(const KernelSpec& spec, const Roofline& roofline, View view);

} // namespace roofline
