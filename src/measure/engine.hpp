// `roofline measure`: engines behind one interface. An engine runs the
// measured command and returns plain structs; merging them into points and
// rendering them happen elsewhere (merge.hpp, cli/measure_cmd.cpp).
//
// Timing always comes from a native run (instrumentation distorts time);
// counts come from the engine; both are merged per region name.
#pragma once

#include "core/repeated_timing.hpp"
#include "topo/cpu_activity.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/evex_code.hpp"  // OutputComparison (--counts-from)

namespace roofline::measure {

// The engines, each described (what it can do, its name and help, how it runs) by one row of
// engine_registry.cpp's table; ncu's runs go through app's GPU backend, not run_measurement.
enum class EngineKind { automatic, instrument, perf, time, ncu };

// What a region counts: the work of every thread of the process while it is
// open (threaded libraries, OpenMP), or only the thread that opened it
// (LIKWID's semantics).
enum class RegionScope { process, thread };
const char* region_scope_name(RegionScope scope);
// "process", "thread"; throws std::invalid_argument otherwise.
RegionScope parse_region_scope(const std::string& text);
// The engine's name in the registry (engine_registry.hpp): "auto", "perf", "instrument", "time", "ncu".
const char* engine_name(EngineKind kind);
// The engine of that name; throws std::invalid_argument, naming the engines, otherwise.
EngineKind parse_engine(const std::string& text);

struct RegionTiming {
    std::string name;
    long long calls = 0;
    double seconds = 0;   // wall time the region was open (union over its threads)
    int threads = 1;      // that ran it: opened it, the largest OpenMP team forked inside it, or
                          // the most threads started inside it alive at once
    int team_threads = 0; // that largest team (0: none seen)
    int spawned_threads = 0; // those threads started inside it (0: none seen)
    // For the marker calls' own cost (marker_cost.hpp): the calls that were their thread's outermost
    // instance (-1: not known; a recursion's inner calls add no time of their own), the begin calls
    // of regions opened inside it while it was open, and its threads' own times added up (0: not known).
    long long outermost_calls = -1;
    long long inner_calls = 0;
    double thread_seconds = 0;
    // The calls' own cost taken off `seconds` (0: none); a region whose time that leaves at or
    // below zero is refused, `refused` saying why (it gets no point).
    double marker_cost_seconds = 0;
    std::string refused{};
    long long unclosed = 0;  // calls still open when the program ended (a crash): closed then
};

// Times taken by an earlier run of the same command (--times FILE): the
// instrument engine then runs the program only under its tool (an MPI rank
// whose launcher lets it start the program once; a program with side effects).
struct EarlierTimes {
    std::vector<RegionTiming> timings;
    double wall_seconds = 0;  // the whole program's, from its "(program)" point
    std::string source;       // the file
    // How the earlier run timed them (its --repeat), parallel to `timings`; nullopt: one run.
    std::vector<std::optional<TimingSummary>> region_timing;
    std::optional<TimingSummary> wall_timing;
};

struct MeasureRequest {
    std::vector<std::string> argv;                         // the command; argv[0] looked up in PATH
    EngineKind engine = EngineKind::automatic;
    std::vector<std::string> region_functions;             // functions measured as regions, no recompiling
    RegionScope region_scope = RegionScope::process;
    std::vector<std::pair<std::string, std::string>> env;  // extra environment for the child
    // --counts-from: the program run under the Valgrind tool for the counts (the same source built
    // without AVX-512), with argv's arguments; argv[0] is only timed. Empty: argv[0] for both.
    std::string counts_from;
    std::string self_exe;                                  // path of the roofline executable (vgtool lookup)
    std::string events_dir;                                // perf event files; empty: the default
    std::optional<EarlierTimes> times;                     // instrument engine only: no native run
    // Instrument engine: the cache hierarchy the Valgrind tool simulates (the tool's
    // --roofline-cache value, cache_hierarchy_option), over this many cores; empty: none.
    std::string cache_hierarchy;
    int cache_cores = 1;
    // The simulated core of each CPU by OS number (cpu_core_map), so threads run on the
    // cores their affinity gives them; empty: thread n on core (n-1) mod cache_cores.
    std::string cache_cpu_cores;
    // How often the native run is repeated for its time (--repeat, --warmup): every engine's
    // timing run, not the counting runs.
    RepeatRequest repeat;
    // Instrument engine: count every instruction of this object file (the program's own
    // path, resolved) on its own, for measure --loops; empty: none.
    std::string per_instruction_object;
    // ... and these libraries' (measure --loops-library: resolved paths).
    std::vector<std::string> per_instruction_libraries;
};

// Counts of one region (or of "(program)", or of one function).
struct RegionCounts {
    std::string name;
    long long calls = 0;
    std::map<std::string, double> flops;  // "f64_add", "f32_fma", ... FLOPs (lanes; an FMA is 2)
    std::map<std::string, double> flops_by_width;  // "scalar", "128", "256", "512"
    double bytes_loaded = 0;   // what the instructions load (L1 traffic)
    double bytes_stored = 0;
    // perf engine: "DRAM" from uncore / LLC misses; instrument engine with cache simulation:
    // the bytes crossing into each level below L1 ("L2", "L3", "DRAM": read + written)
    std::map<std::string, double> bytes_by_level;
    // cache simulation: "L2_read", "L2_write", ..., "DRAM_nontemporal", "dirty_at_end", "dirty_at_exit"
    // (bytes)
    std::map<std::string, double> cache_traffic;
    // cache simulation: the data touched, distinct lines x line size (the tool's estimate: marker
    // regions and "(program)" only; not additive, so neither loops nor ranks sum it), and the last
    // level simulated (its capacity, one instance, and number): core/llc_occupancy's note
    double cache_touched_bytes = 0;
    // ... and, opened several times, the data one opening's re-reads span: its own lines, with those
    // of the earlier openings it re-touched (the tool's `cache_working_set`; 0: not said, an older
    // tool), which the note judges rather than the union over every opening
    double cache_working_set_bytes = 0;
    double cache_llc_bytes = 0;
    int cache_llc_level = 0;
    // the last level's instances in the simulated machine and the cores sharing one (0: not said)
    int cache_llc_instances = 0;
    int cache_llc_cores_per_instance = 0;
    // a function's or loop's: what the program (a loop of a marker region: the region) touched,
    // which its note may use when its own LLC reads show it re-reads (core/llc_occupancy)
    double cache_enclosing_touched_bytes = 0;
    bool cache_enclosing_region = false;
    // ... and the threads that program (or region) ran: a function's or loop's point has threads 1
    // (its CPU time summed over them), so the LLC instances its data may have spread over are
    // those threads' (0: not known)
    int cache_enclosing_threads = 0;
    std::map<std::string, double> events;          // raw counter values (perf engine), scaled
    // Instrument engine: the most threads that did its work at once (Valgrind runs one at a time:
    // the tool counts threads whose stretches of work overlapped); 0: unknown
    int threads = 0;
    // ... the threads that did its work at any time, each once (the tool's "threads" before it counted
    // at once counted these by thread slot; 0: not said), and the busiest one's FLOPs and bytes
    // loaded + stored (core/thread_imbalance's note; 0: not said)
    int threads_working = 0;
    double busiest_thread_flops = 0;
    double busiest_thread_bytes = 0;
    double instructions = 0;           // instructions executed (instrument engine)
    // Instrument engine: of the FLOPs, those x87 instructions made (long double); and FP operations not
    // among the FLOPs, run only to raise an exception flag (libgcc's soft-fp __sfp_handle_exceptions).
    double flops_x87 = 0;
    double fp_flag_ops = 0;
    // Instrument engine, functions: executions of the function's first instruction, its calls (tail
    // calls included; absent from an older tool's output: 0, unknown).
    double entries = 0;
    // "<function NAME>" regions, process scope (instrument engine): the instructions each function executed
    // while the region was open, by function name.
    std::map<std::string, double> inner_instructions;
    std::vector<std::string> matched;  // "<function NAME>" regions: the functions NAME matched
    std::string object;                // functions: the file holding it (empty: unknown)
    // Instrument engine, marker and function regions: the FLOPs run while it was open by the file
    // whose code ran them (libm's exp called inside it among them); loops: summed from their
    // instructions' and callees' files. What core/math_library_flops' note of a point is made from.
    std::map<std::string, double> flops_by_object;
    // The marker calls' own counts taken off these (marker_cost.hpp), by figure ("bytes_loaded",
    // "instructions", "event_<name>", ...); `refused`: why the figures left cannot stand (no point).
    std::map<std::string, double> marker_cost;
    std::string refused{};
    double total_flops() const;
};

// Where an indirect call went (the Valgrind tool records it for instructions counted one by one).
struct CallTarget {
    std::uint64_t address = 0;  // link-time address in `object`
    std::string object;         // the file there (empty: unknown)
    std::string function;       // the function there, as the tool names it (empty: unknown)
    double calls = 0;
};

// One guest instruction's counts (--roofline-per-instruction), for the loops of measure --loops.
struct InstructionCounts {
    std::uint64_t address = 0;  // in its object file: the link-time address ELF symbols give
    bool jumps = false;         // the tool saw a jump leave from it (a side exit): `taken` holds
    double taken = 0;           // how often it jumped
    RegionCounts counts;        // name: its function; object: its file; instructions: how often it ran
    std::vector<CallTarget> call_targets;  // an indirect call: where it went, over the whole run
};

// A marker region's counts by function and by instruction: what ran while it was open
// (instrument engine with instructions counted one by one, --region-scope process), for
// measure --loops inside the region.
struct RegionBreakdown {
    std::string region;
    std::vector<RegionCounts> functions;          // exclusive counts per function
    std::vector<InstructionCounts> instructions;  // the instructions counted one by one
};

struct ChildStatus {
    bool started = false;       // false: the command could not be run at all
    bool exited = false;        // normal exit
    int exit_code = 0;          // when exited
    int signal = 0;             // when killed by a signal
    std::string describe() const;  // "exited with status 3", "killed by signal 11 (SIGSEGV)"
    // What roofline itself exits with: the child's code, or 128 + signal.
    int pass_through_code() const;
};

// A run after the native one that a signal killed before it gave what it was for (the run under the
// Valgrind tool killed by SIGKILL, as the OOM killer does): the native run's time is kept, and
// roofline exits 128 + the signal, as a shell reports it.
struct LostRun {
    std::string what;    // "the run under the Valgrind tool (counts)"
    ChildStatus status;  // killed by status.signal
    double wall_seconds = 0;
    // Why it died, when known ("Valgrind cannot decode the AVX-512 instruction in ..."), said
    // with the signal. `signal` is the one roofline exits 128 + with: status.signal, or SIGILL for
    // an instruction Valgrind could not decode when the program left some other way.
    std::string cause;
    int signal = 0;
};

struct MeasureResult {
    EngineKind engine = EngineKind::time;  // the engine used
    std::string engine_reason;             // why auto picked it, or "requested"
    ChildStatus status;                    // of the native (timing) run
    std::optional<LostRun> lost_run;       // a later run killed by a signal, its results lost (time only)
    double wall_seconds = 0;               // whole program, measured by the parent
    // The first native run's CPU time (its process tree's, ChildRun), user and system, and its
    // wall time: how much ran in the kernel, and how many CPUs it kept busy on average.
    double cpu_user_seconds = 0, cpu_system_seconds = 0, cpu_wall_seconds = 0;
    // What else ran on the program's CPUs during the native run whose time the points take (the
    // fastest timed one): hypervisor steal and other processes, which lengthen that time.
    std::optional<CpuActivity> timed_run_activity;
    // The CPUs the native run was allowed at once: its affinity mask at most its cgroup's quota
    // (topo/cpus_allowed), as it started; 0: unknown (no native run).
    int cpus_allowed = 0;
    std::vector<RegionTiming> timings;     // from the marker library (empty without markers)
    // The native run repeated (--repeat): what was done, and the runs behind wall_seconds and each
    // of `timings` (parallel to it; nullopt for a region only the first run had). Their seconds are
    // the fastest timed run's.
    RepeatPlan repeat_plan;
    int native_runs = 0;                   // native runs made, warm-up included
    std::optional<TimingSummary> wall_timing;
    std::vector<std::optional<TimingSummary>> region_timing;
    std::vector<RegionCounts> counts;      // per region, "(program)" included when known
    std::vector<RegionCounts> functions;   // instrument engine: exclusive counts per function
    std::vector<InstructionCounts> instructions;  // instrument engine, per_instruction_object: by instruction
    std::vector<RegionBreakdown> region_breakdowns;  // and each marker region's (process scope)
    std::map<std::string, double> multiplexing;  // perf: event -> time_running / time_enabled (< 1 scaled)
    // perf: what the marker library's calibration counted, by event (its threads' counters):
    // the whole program's counters less these are the program's.
    std::map<std::string, double> calibration_events;
    std::vector<std::string> warnings;
    std::vector<std::string> notes;        // what was run, in order
    // instrument: the native glibc store thresholds the counting run was given ("glibc.cpu.
    // x86_non_temporal_threshold = 240 MiB"), for the points' provenance; empty when none.
    std::string counting_glibc_thresholds;
    // --counts-from: the timed program's standard output (native) against the counted one's.
    std::optional<OutputComparison> output_comparison;
};

// Runs the whole measurement with a CPU engine. Throws MeasureError (with guidance) when the
// engine cannot run at all (an engine run through the GPU backend, ncu, included); a child that
// fails or crashes is not an error (see status).
MeasureResult run_measurement(const MeasureRequest& request);

// The engine `request` would use, and why ("requested" when not automatic):
// auto is the first available of the registry's CPU engines (choose_engine):
// perf with hardware counters, else instrument with valgrind and our tool, else time.
EngineKind resolve_engine(const MeasureRequest& request, std::string* reason = nullptr);

struct MeasureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The command cannot be found or executed: roofline exits 127 like a shell.
// The command could not be run: 127 when it was not found, 126 when it was found
// but could not be executed (the shell's codes).
struct CommandNotFound : MeasureError {
    explicit CommandNotFound(const std::string& what, int exit_code = 127) : MeasureError(what), exit_code(exit_code) {}
    int exit_code;
};

} // namespace roofline::measure
