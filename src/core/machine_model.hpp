// The measured machine model: the data contract every other part draws on
// (schema "roofline.machine/1", see DESIGN.md). Plain structs, no behaviour.
#pragma once

#include "core/bench_mode.hpp"
#include "core/figure_stats.hpp"
#include "core/gpu_model.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

struct CacheLevel {
    int level = 0;               // 1, 2, 3 ...
    std::uint64_t size_bytes = 0;
    int line_bytes = 0;
    int associativity = 0;       // 0 = unknown, -1 = fully associative
    int shared_by_cores = 1;     // how many cores share one instance
    int instances = 1;
    // The check of the reported size (core/cache_check.hpp): what the OS said,
    // where a measured load curve ends the level (0: not measured), where
    // size_bytes comes from, and why the reported size was not believed.
    std::uint64_t reported_size_bytes = 0;
    std::uint64_t measured_size_bytes = 0;
    std::string size_source = {};  // "reported", "table", "measured"; empty: not checked (older files, spec sheets)
    std::string finding = {};    // empty when the reported size was believed
    bool doubtful = false;       // still doubted: nothing settled it (no table entry, no measurement)
};

struct CpuDescription {
    std::string model;
    std::string vendor;
    std::vector<std::string> isa;  // e.g. "sse2", "avx2", "fma", "avx512f"
    int sockets = 1;
    int cores = 1;
    int threads = 1;
    int numa_nodes = 1;
    double clock_ghz = 0;          // measured
    double nominal_clock_ghz = 0;  // from the model string / TSC, 0 if unknown
};

struct ComputeRoof {
    std::string name;          // e.g. "dp avx2 fma+add 1t"
    std::string precision;     // "dp", "sp"
    std::string isa;           // "scalar", "sse", "avx2", "avx512"
    int vector_bits = 0;       // 64/32 (scalar), 128, 256, 512
    std::string mix;           // "fma", "add", "mul", "mul+add", "chain", "best"
    std::string mix_detail;    // e.g. "8 fma + 4 add chains"
    int threads = 1;
    double gflops = 0;
    double theoretical_gflops = 0;  // 0: unknown (CPU not in the microarchitecture table)
    int mixes_tried = 0;            // port-mix search: how many FMA/ADD chain mixes were timed
    Stats stats;
    // The clock the theoretical figure assumes (0: not recorded, older files), and which reading
    // it is: before the run, the higher of before and after, or re-measured next to the kernel
    // when the roof came out above the limit at the clock before the run (bench/roof_limit_guard).
    double theoretical_clock_ghz = 0;
    std::string theoretical_clock = {};
};

struct MemoryRoof {
    std::string level;          // "L1", "L2", "L3", "DRAM", "NUMA0->1" ...
    std::string pattern;        // "load", "store", "copy", "triad", "2ld1st", "*_nt"
    std::string isa;
    int threads = 1;
    double gbs = 0;             // nominal bytes (what the kernel's instructions move)
    double gbs_write_allocate = 0; // counting the read-for-ownership of stores
    double theoretical_gbs = 0; // nominal bytes the ports allow (L1, L2 load); 0: unknown
    std::uint64_t working_set_bytes = 0; // total over threads
    // Every ISA variant tried for this level and pattern, with its rate (GB/s):
    // the winner (`isa`) was chosen by measurement.
    std::vector<std::pair<std::string, double>> isa_trials;
    Stats stats;
    double theoretical_clock_ghz = 0;    // as ComputeRoof's
    std::string theoretical_clock = {};  // as ComputeRoof's
};

// A memory roof in the currency of points' bytes at its level. L1 bytes are
// what the instructions load and store (nominal); below L1 they are the traffic
// crossing the level (caches, counters and the cache simulation all count lines
// moved), which for ordinary stores includes their write-allocate reads. So
// below L1 a roof is the kernel's traffic rate: its nominal rate plus the
// write-allocate reads it implies (assumed to happen, as on x86 without
// non-temporal stores); a model without that figure gives the nominal one.
inline double traffic_gbs(const MemoryRoof& r) {
    return r.level != "L1" && r.gbs_write_allocate > 0 ? r.gbs_write_allocate : r.gbs;
}
// The roof's name: level and pattern, "+WA" when its traffic counts write-allocate reads.
std::string traffic_roof_name(const MemoryRoof& r);

struct BandwidthCurve {
    std::string pattern;
    std::string isa;
    int threads = 1;
    // [working_set_bytes (total over threads), GB/s nominal]
    std::vector<std::pair<std::uint64_t, double>> points;
};

// One point of the validation sweep: a kernel of known intensity run in one
// memory level, compared with what the measured roofline predicts.
struct ValidationPoint {
    std::string level;
    double intensity = 0;       // FLOP / nominal byte
    int threads = 1;
    std::uint64_t working_set_bytes = 0;
    double gflops = 0;          // measured
    double predicted_gflops = 0;
    double ratio = 0;           // measured / predicted
};

struct Environment {
    std::string hostname;
    std::string hypervisor;     // empty when bare metal
    std::string governor;       // empty when not readable
    std::string turbo;          // "on", "off" or empty when not readable
    double load_average = 0;    // 1-minute, at start
    double clock_before_ghz = 0;
    double clock_after_ghz = 0;
    std::string compiler;
    std::string tool_version;
    std::string timestamp;      // ISO 8601 UTC
    std::optional<BenchMode> mode;  // how the model was made; unset in old files
    double duration_seconds = 0;
    std::string microarchitecture;  // table entry the theoretical figures come from; empty: unknown
    std::string statistic;          // how each roof is derived from its samples
    std::vector<std::string> warnings;
    // Figures that failed a check: above what the hardware allows (a roof past its theoretical
    // value by more than the clock's error), a kernel's self-check, or at odds with another
    // figure of the run (a GPU L2 curve that does not fall to DRAM): left out, each with why.
    std::vector<std::string> refused;
    // What the run was kept to, so its roofs are not the machine's best: "--isa sse2",
    // "--kernel NAME, ...", "ROOFLINE_MAX_ISA=avx2", joined by "; "; empty: not kept to anything.
    std::string restricted_to = {};
    // Over the run, on the CPUs it may use (/proc/stat): the share of their time the hypervisor
    // gave to others (steal), and the CPUs' worth other processes kept busy; -1: not known.
    double steal_share = -1;
    double others_busy_cpus = -1;
};

struct MachineModel {
    std::string schema = "roofline.machine/1";
    bool partial = false;       // true when the run was interrupted
    CpuDescription cpu;
    std::vector<CacheLevel> caches;
    std::vector<ComputeRoof> compute;
    std::vector<MemoryRoof> memory;
    std::vector<BandwidthCurve> curves;
    // The hierarchy probe (bench/cache_probe.hpp): one thread's load curve from
    // a few KiB past the last cache, whose drops checked the caches' sizes; empty
    // points when no probe ran.
    BandwidthCurve cache_probe;
    std::vector<ValidationPoint> validation;
    std::vector<GpuModel> gpus;  // bench --gpu; empty otherwise
    Environment environment;
};

} // namespace roofline
