// The Roofline model itself: roofs, ceilings, points, and the analysis of a
// point against a roofline. Pure functions and plain structs: no I/O.
//
// Units: compute in G<work unit>/s (GFLOP/s for FLOPs), bandwidth in GB/s
// (1e9 bytes/s), intensity in <work unit>/byte.
#pragma once

#include "core/dram_may_bind.hpp"
#include "core/llc_occupancy.hpp"
#include "core/math_library_flops.hpp"
#include "core/thread_imbalance.hpp"
#include "core/point_origin.hpp"
#include "core/timing_summary.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// A top roof: the highest compute rate, or the highest bandwidth of one level
// (a memory level "L1".."DRAM", or a bus such as "PCIe" for a coprocessor).
struct Roof {
    std::string name;    // "DP peak", "L2 load", "PCIe"
    std::string level;   // bandwidth roofs only
    double value = 0;    // G<work unit>/s for compute, GB/s for bandwidth
    // How far above `value` the machine was seen to run: (best sample - value) /
    // value from the measurement; 0 for a written figure. A point may land this
    // far above the roof by chance; further is a measurement error.
    double spread = 0;
    // A bandwidth roof measured with a known access pattern: the share of its nominal bytes that
    // are stores (load 0, triad 1/3, copy 1/2, store 1); nullopt for a written figure or a bus.
    std::optional<double> store_share = std::nullopt;
    // A bandwidth roof the bench also ran at narrower vectors: each width's rate (bits: 128 for
    // SSE2, 256 for AVX2) as a share of the fastest width's; empty where nothing says.
    std::map<int, double> share_at_width = {};
};

// A ceiling is flat (a compute rate) or slanted (a bandwidth times intensity).
enum class CeilingKind { compute, bandwidth };
const char* ceiling_kind_name(CeilingKind kind);  // "compute", "bandwidth"
bool is_known_ceiling_category(const std::string& category);

// A ceiling below a roof: what the machine gives when one optimization is
// missing (no SIMD, no FMA, one thread, no ILP, another access pattern ...).
struct Ceiling {
    std::string name;      // "no FMA", "scalar (no SIMD)", "1 thread", "DRAM copy", "remote NUMA"
    CeilingKind kind = CeilingKind::compute;
    // What is missing. Known: "simd", "fma", "balance", "ilp", "threads", "pattern",
    // "prefetch", "numa"; spec sheets may name others.
    std::string category;
    std::string level;     // bandwidth ceilings: the level they belong to
    double value = 0;
    std::string advice;    // a spec sheet's own words for what lifts a point above it; empty:
                           // render/ phrases the category
    // A "pattern" ceiling measured with loads alone. Where a mix of loads and stores streams
    // faster (the top roof), a point that only reads cannot change its way past it: for such a
    // point it is the limit of what it does, not a remedy.
    bool read_only = false;
};

// The "balance" ceiling measured with FMAs alone (roofline_from_machine); any other "balance"
// ceiling is one kind of operation without FMAs ("ADD or MUL only", a spec sheet's mul/add
// imbalance). Their premises are a kind mix that a point's counts can confirm or contradict.
inline constexpr const char* kFmaOnlyCeilingName = "FMA only";

// Everything needed to place points for one machine, precision and thread count.
struct Roofline {
    std::string label;             // machine name, shown on charts
    std::string work_unit = "FLOP";
    std::string precision;         // "dp", "sp", or empty for non-FLOP work
    int threads = 0;
    Roof compute;                  // the top compute roof
    std::vector<Roof> bandwidth;   // one per level, in level order (L1 first, buses last)
    std::vector<Ceiling> ceilings; // compute ceilings then bandwidth ceilings, each descending
    double clock_ghz = 0;          // the machine's measured clock, 0 when unknown (spec sheets)
    // The machine's hardware threads (PUs: SMT siblings each run a chain of their own), 0 when
    // unknown: a point's threads beyond them share them, so rates per thread (one dependent chain
    // each) add up over at most this many.
    int hardware_threads = 0;
    int vector_bits = 0;           // the widest vectors its compute roofs were measured with (0: unknown)
    // Cycles per accumulation of one dependent FMA chain as the bench measured it (its "no ILP"
    // ceiling at vector_bits, at clock_ghz): this core's own latency; where the bench measured no
    // chain, its FMA latency from the microarchitecture table the model names (chain_cycles_from:
    // that core's name); 0 where neither is known.
    double chain_cycles = 0;
    std::string chain_cycles_from;  // empty: measured by the bench; else the table's core

    // The core's theoretical peak at a narrower width as a share of it at vector_bits, from the
    // microarchitecture table the model names (core/peak): 1 where wider ops take more passes
    // through the same pipes (Zen 4 runs 512-bit ops as two 256-bit halves). Empty: unknown.
    std::map<int, double> peak_share_at_width;
};

// Measured or modelled work: an application region, a reference kernel, a spec.
struct Point {
    std::string name;
    std::string series;            // points of one series are connected on charts
    std::string label;
    double work = 0;               // FLOPs, or ops of work_unit
    // false: nothing counted the work (the time engine measures time only, or the
    // counting run was cut short); `work` is then 0 and means nothing: such a point
    // is shown as "not counted", never placed or judged at 0 GFLOP/s.
    bool work_counted = true;
    std::string work_unit = "FLOP";
    std::map<std::string, double> bytes;  // per level: bytes crossing that level's boundary
    double seconds = 0;
    int threads = 1;
    PointSource source;            // where it came from: PointOrigin, its names in core/point_origin.hpp
    std::map<std::string, double> details;  // e.g. "flops_dp", "flops_sp_256", "fma_share"
    // The file its code is in, as the Valgrind tool names it (a function point of measure
    // --functions: "/usr/lib/x86_64-linux-gnu/libfftw3.so.3.6.10"); empty: unknown or not one
    // function's; the program's: the file holding most of its FLOPs, kMainWorkShare). Report
    // tells library code from the program's own by it (core/code_traits).
    std::string object;
    // The program's point: the function that did most of its FLOPs (kMainWorkShare or more), its
    // FLOPs, calls and instructions in details kMainFunction*; empty: no one function did.
    std::string main_function;
};

// Point::details key: the CPUs the measured run was allowed at once (its affinity mask's CPUs, at
// most its cgroup's CPU quota rounded up; topo/cpus_allowed), where measure knew them: its
// threads beyond them take turns, so per-thread rates add up over at most this many.
inline constexpr const char* kCpusAllowed = "cpus_allowed";
// The threads a point is judged by (the roofs of that count select_roofline picks, the "1 thread"
// ceilings, the above-roof causes, the advice's caps): its threads, at most the CPUs its run was
// allowed where measure recorded them (kCpusAllowed >= 1): 8 threads under `taskset -c 0` take
// turns on one CPU and reach no more than one thread's roofs. Its own threads where nothing
// recorded them or they allowed as many.
int judged_threads(const Point& p);
// A point judged by fewer threads than it ran (judged_threads), for its note.
struct JudgedThreads {
    int threads = 0;           // judged by: the CPUs allowed
    int point_threads = 0;     // it ran
    int roofline_threads = 0;  // the roofline's it was judged on (0: not a thread count's, a GPU's)
};
// nullopt where judged_threads(p) is the point's own count.
std::optional<JudgedThreads> judged_threads_of(const Roofline& r, const Point& p);
// "ran 8 threads on 1 CPU allowed (cpus_allowed: ...): judged as 1 thread, on the roofs of 1 thread"
std::string judged_threads_text(const JudgedThreads& j);
// Point::details key: a reference kernel's working set over the capacity of the last cache it
// spills (its bytes below that cache are counted as if none of it stayed there).
inline constexpr const char* kWorkingSetOverCache = "working_set_over_cache";
// Point::details keys of a function point of measure --functions: the instructions it executed
// and its calls (executions of its first instruction), counted by the Valgrind tool.
inline constexpr const char* kInstructionsDetail = "instructions";
inline constexpr const char* kFunctionCallsDetail = "function_calls";
// The share of the program's FLOPs one function or one file must hold to stand for its code
// (Point::main_function, Point::object), and the main function's figures (Point::details keys).
inline constexpr double kMainWorkShare = 0.8;
inline constexpr const char* kMainFunctionFlops = "main_function_flops";
inline constexpr const char* kMainFunctionCalls = "main_function_calls";
inline constexpr const char* kMainFunctionInstructions = "main_function_instructions";
// Point::details key, 1 when the point's FLOPs and bytes were counted in another build of the program
// (measure --counts-from) than the one timed: its loads and stores are that build's.
inline constexpr const char* kCountedFromOtherBuild = "counted_from_other_build";

// CARM: intensity per level, every level with bytes bounds the point.
// ORM: DRAM bytes only (the original model).
enum class View { carm, orm };
const char* view_name(View v);                           // "carm", "orm"
std::optional<View> parse_view(std::string_view name);   // nullopt for another name
std::vector<std::string> view_names();                   // the names, for an option's check

// --- basic formulas -----------------------------------------------------------------
double attainable(double peak, double bandwidth, double intensity);  // min(peak, bw x I)
double ridge_point(double peak, double bandwidth);                   // peak / bw, work/byte
double machine_balance(double peak, double bandwidth);               // bw / peak, bytes/work
double code_balance(double intensity);                               // 1 / I, bytes/work
double performance(const Point& p);                                  // work / s / 1e9
// work / bytes at `level`; nullopt when the point has no bytes there.
std::optional<double> intensity(const Point& p, const std::string& level);

// The levels that bound a point in a view: CARM every level the point has bytes
// for and the roofline has a roof for; ORM only "DRAM".
std::vector<std::string> bounding_levels(const Roofline& r, const Point& p, View view);

// min(compute roof, min over bounding levels of bw_level x I_level).
double attainable(const Roofline& r, const Point& p, View view);

// --- analysis of one point (the paper's Table 4 and Figure 2c) -----------------------
enum class Region { memory_only, compute_only, both };
const char* region_name(Region r);

// The intensity range where compute and bandwidth lines cross (the paper's
// Figure 2c) for one level: left of `start` only memory optimizations help,
// right of `end` only compute ones, in between both. Values that are not
// finite and positive are ignored. A point bounded at several levels
// (Analysis::region) is memory-only when one level says so, compute-only only
// when every level does.
struct RegionBounds {
    double start = 0;
    double end = 0;
};
// nullopt when the roofline has no usable roof for `level`.
std::optional<RegionBounds> region_bounds(const Roofline& r, const std::string& level);

struct Headroom {
    std::string roof;     // roof or ceiling name
    double attainable;    // what it allows at this point's intensity
    double factor;        // attainable / achieved performance
};

// A next step for a point, as data (render/ phrases it), in the order the
// ceilings suggest: break the ceilings above the point, then the roof.
struct NextStep {
    enum class Kind {
        lift_ceiling,     // `ceiling` caps the point: remove what it lacks
        raise_intensity,  // memory-bound: the roof of `level` caps it at `cap`; `share` > 0: past
                          // L1, the part of the bytes of the lines it brings into L1 that it uses
        reach_compute,    // compute-bound below the compute roof `roof` (`cap`); where the
                          // counts confirm a mix ceiling's premise (`share` of its FLOPs are
                          // `operation`), that `ceiling` is the cap: its operations alone
                          // cannot reach the roof
        // From the point's own counts (core/code_traits), before any ceiling:
        vectorize,        // `share` of its FLOPs ran in scalar instructions
        split_chain,      // a reduction (it stores `share` of its bytes) running at about one
                          // dependent chain's rate, `cap` at the measured clock
        one_kind_mix,     // `share` of its FLOPs are one kind (`operation`: "FMA", "add", "mul")
                          // and it runs near `ceiling`, that kind's rate alone (`cap`): there is
                          // no mix to balance, only fewer operations
        non_temporal_stores,  // DRAM-bound, and `share` of its DRAM bytes are write-allocate fills
                              // no load read (counted by the cache simulation): output written
                              // and not re-read, which streaming stores write without reading
        widen_vectors,    // `share` of its FLOPs ran in vectors narrower than the roofline's
                          // (Roofline::vector_bits); `operation`: its widest ("128")
        leave_x87,        // `share` (at least half) of its FLOPs are x87 instructions (long double):
                          // in vectorize's place, since the x87 unit has no vector form
        call_overhead,    // a function point whose own work per call is tiny (`flops_per_call`,
                          // `instructions_per_call` over `calls` calls): calling it costs more than
                          // its FLOPs, and no vectorizer works across calls; in vectorize's place
        library_code,     // a function point whose code is in an installed library (`operation`: its
                          // file): in the place of every step that changes its code or build flags; the
                          // binding roof `roof` of `level` caps it at `cap`
        flops_not_the_time,  // its FLOPs run slower than one dependent chain of the slowest floating-point
                             // instructions would on its threads (`cap`, at the measured clock): its time
                             // goes elsewhere (loads waiting on loads, other work), and the steps that
                             // change its arithmetic (vectorize, SIMD, FMA, ILP ceilings) are withheld
    };
    Kind kind = Kind::lift_ceiling;
    Ceiling ceiling;
    std::string level;
    std::string roof;
    double cap = 0;   // G<work unit>/s
    double share = 0; // vectorize: scalar share of the FLOPs; split_chain and lift_ceiling of a storing
                      // pattern: store share of the bytes;
                      // leave_x87: the x87 share of the FLOPs;
                      // one_kind_mix: the share of the FLOPs of `operation`; non_temporal_stores:
                      // the unread write-allocate share of the DRAM bytes
    std::string operation;  // one_kind_mix: the one kind its FLOPs are ("FMA", "add", "mul");
                            // widen_vectors: its widest vector width narrower than the roofline's ("128");
                            // library_code: the library's file ("libfftw3.so.3.6.10")
    // call_overhead: the function's calls, and its own FLOPs and instructions per call; for the
    // program's point, `operation` names its main function and `share` is its share of the FLOPs.
    double calls = 0;
    double flops_per_call = 0;
    double instructions_per_call = 0;
    // lift_ceiling of a storing pattern: the arrays the point writes (its store streams), 0 where
    // nothing knows them (a measured point); at least 2 where the step is given with it.
    double store_streams = 0;
    // split_chain: its accumulations per value stored (0: not counted); past kReductionStoreShare of
    // its bytes stored, what makes it one chain.
    double accumulations_per_store = 0;
    // vectorize: its FLOPs are a reduction (it stores like one): a compiler vectorizes it only when
    // allowed to reassociate, which -O3 -march=native alone does not allow.
    bool reduction = false;
    // vectorize: most of its FLOPs ran inside a math library (core/math_library_flops: a loop calling
    // libm's exp per element), which a compiler vectorizes only by calling a vector math library.
    bool in_math_library = false;
};
// The kind's stable name for scripts and tests ("vectorize", "split_chain", "lift_ceiling", ...).
const char* next_step_kind_name(NextStep::Kind kind);

// A point above what its roofline allows is a measurement error, not a result:
// this says by how much, what the roofs' own spread allows, and the likely causes.
struct AboveRoof {
    enum class Cause {
        more_threads_than_roofline,  // the point used more threads than the roofline it is judged against
        self_time_only,              // its time is sampled self time: callees' work counted, their time not
        work_outside_timing,         // counts include work the timing did not cover (threads outside the region)
        counted_in_other_build,      // measure --counts-from: the bytes are another build's loads and stores
                                     // (register spills, other unrolling), not the timed build's
        stale_machine_model,         // the model is from another machine, clock or load
        working_set_near_cache,      // an analytic point whose working set is under 4x the cache it spills:
                                     // part of it still hits there, fewer bytes cross below than counted
        rep_string_fill,             // its bytes at the binding level hold enough write-allocate reads for
                                     // REP STOS/MOVS stores to put it above the roof, which fast strings may
                                     // skip (core/rep_string_stores)
        // A GPU kernel's (point_device gpu): the roof it is judged on is not the one its work ran on
        // (FMA for tensor-core work, another precision's), or the roof was measured below the device
        // (a lower clock, a slower benchmark kernel); or its work was counted twice.
        gpu_wrong_roof,
        gpu_roof_below_device,
        gpu_work_counted_twice,
    };
    double excess = 0;       // efficiency - 1
    double tolerance = 0;    // the binding roof's measured spread
    bool within_spread = false;  // above by no more than the spread: chance, still flagged
    std::vector<Cause> causes;   // most likely first
};

// The multi-roofline's throughput intensity of work shipped over a bus: TI = work per byte
// crossing the bus, beside the intensity at the device's own memory, and the throughput
// coefficient a = TI / I (a < 1: the bus carries more bytes than the kernel reads from its
// memory, the data is not reused on the device between transfers).
struct BusThroughput {
    std::string bus;           // "PCIe", "NVLink", "network"
    double intensity = 0;      // TI
    std::string memory_level;  // the device memory level the coefficient compares with ("DRAM", "HBM")
    double memory_intensity = 0;  // I there
    double coefficient = 0;       // a = TI / I
};
// Nullopt when the point has no bytes at a bus or no work; the memory figures are 0 and the level
// empty when it has no DRAM/HBM bytes.
std::optional<BusThroughput> bus_throughput(const Point& p);

// Time in the point's seconds that its code did not spend computing or moving data, from what
// measure recorded of the run it was timed in (details cpu_system_seconds with cpu_user_seconds,
// cpu_others_busy, cpu_steal_share): the kernel's share of its CPU time (page faults, system
// calls), other processes on its CPUs and the hypervisor's steal. Set past the shares measure
// warns at (a quarter, a quarter of a CPU, 5%) and their floors of CPU time over the interval
// they were read in (cpu_activity_seconds, else the point's seconds): the point sits lower than
// its code alone would.
struct TimeOutsideCode {
    double kernel_share = 0;  // of the run's CPU time; 0: under the threshold or not recorded
    double others_cpus = 0;   // CPUs other processes kept busy on average
    double steal_share = 0;   // of the CPUs' time
};
std::optional<TimeOutsideCode> time_outside_code(const Point& p);

struct Analysis {
    std::string point;
    double performance = 0;        // achieved G<unit>/s
    double attainable = 0;         // the roofline's prediction
    double efficiency = 0;         // performance / attainable
    double intensity = 0;          // at intensity_level; NaN when no level bounds the point
    std::string intensity_level;   // the binding level; for a compute-bound point the last bounding level
    // CARM: levels the point has bytes at that the roofline has no roof for
    // (an L4 on a machine without one); those bytes bound nothing, which a
    // reader must be told rather than shown a compute-bound point at "0 FLOP/B".
    std::vector<std::string> unjudged_levels;
    std::string binding_roof;      // name of the roof that bounds the point
    std::string binding_level;     // its level ("" for the compute roof)
    bool memory_bound = false;
    std::optional<Ceiling> upper;  // the ceiling just above the point
    std::optional<Ceiling> lower;  // the ceiling just below it
    Region region = Region::both;
    std::vector<Headroom> headroom;        // to the compute roof and each bandwidth roof under it at the point's intensity, highest first
    std::vector<NextStep> next_steps;
    std::optional<AboveRoof> above_roof;   // set when efficiency > 100%
    std::optional<BusThroughput> throughput;  // work shipped over a bus: TI and a = TI / I
    std::optional<TimingSummary> timing;      // how the point's seconds were taken (measure --repeat)
    // The signal that ended the program while its region was open: its time is only the part that
    // ran (core/cut_off_point); nullopt: it was not cut off.
    std::optional<int> cut_off;
    std::optional<TimeOutsideCode> outside_code;  // its time holds waits no roof describes
    // Its data fills most of the simulated LLC and is re-read there: the DRAM bytes are a lower
    // bound (core/llc_occupancy; a note, the figures unchanged).
    std::optional<LlcNearFull> llc_near_full;
    // With those DRAM bytes at their upper bound the DRAM roof would bind it below `attainable`
    // (core/dram_may_bind): the bound is uncertain, and no step calls it compute-bound.
    std::optional<DramMayBind> dram_may_bind;
    std::optional<MathLibraryFlops> math_library;  // FLOPs it ran inside libm (core/math_library_flops)
    std::optional<ThreadImbalance> thread_imbalance;  // its busiest thread's excess (core/thread_imbalance)
    // It ran more threads than its run was allowed CPUs: judged by the CPUs (judged_threads_of).
    std::optional<JudgedThreads> judged_threads;
};

Analysis analyze(const Roofline& r, const Point& p, View view);

// What a ceiling (or roof) allows at intensity I: compute ceilings are flat
// (capped by nothing), bandwidth ceilings are min(compute roof, value x I).
double ceiling_at(const Roofline& r, const Ceiling& c, double intensity);

// A multi-roofline for a coprocessor (the paper's P = min(peak, B_mem I_mem, B_bus I_bus)).
double coprocessor_attainable(double peak, double mem_bandwidth, double mem_intensity, double bus_bandwidth,
                              double bus_intensity);

} // namespace roofline
