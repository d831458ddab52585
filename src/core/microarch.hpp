// What one core of a known microarchitecture can do per cycle: floating-point
// pipes, L1 load/store ports, the L2->L1 path. The theoretical figures printed
// next to measured roofs come from this table and nowhere else. Facts come from
// vendor optimization manuals and published instruction tables (cited next to
// each entry in microarch.cpp). Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// The floating-point back end of one core. Pipes are counted by capability so
// that the best throughput of any FMA/MUL : ADD mix follows by Hall's condition:
// fma/mul ops <= fma_pipes, add ops <= add_pipes, both together <= fp_pipes.
struct FpPipes {
    int fma_pipes = 2;          // pipes that execute FMA (and MUL)
    int add_pipes = 2;          // pipes that execute ADD (may overlap the FMA pipes)
    int fp_pipes = 2;           // pipes that execute FMA or ADD (the union)
    int datapath_bits = 256;    // a wider op occupies its pipe for width/datapath passes
    int fma_latency = 4, add_latency = 4, mul_latency = 4;  // cycles, dependent op to dependent op
    std::string description;    // what was assumed, printed with the figures
};

// L1 data cache ports and the path from L2, per core and cycle, at the widest
// vector width the core executes at full rate.
struct CorePorts {
    double l1_load_bytes_per_cycle = 0;   // e.g. 2 loads x 32 B
    double l1_store_bytes_per_cycle = 0;  // e.g. 1 store x 32 B
    double l2_to_l1_bytes_per_cycle = 0;  // line fill bandwidth from L2 (0: unknown)
    int load_vector_bits = 0;             // the load width that reaches l1_load_bytes_per_cycle
};

// The data cache sizes of the products built on one core (bytes per instance):
// a reported size outside them is not this core's. L3 lists the sizes shipped
// (per CCX/CCD on AMD, per socket or die on Intel), the commonest first; 0
// where the core has none.
struct CacheSizes {
    std::uint64_t l1d = 0;
    std::uint64_t l2_min = 0, l2_max = 0;
    std::uint64_t l3_min = 0, l3_max = 0;
    std::vector<std::uint64_t> l3_known;
};

struct Microarch {
    std::string name;       // "AMD Zen 3", "Intel Sapphire Rapids", ...
    FpPipes fp;             // at the widest vector width the code may use
    // Ops of at most 256 bits, where they run on other pipes than the widest
    // (Golden Cove server: fast adders on p1/p5 below 512 bits); empty: as `fp`.
    std::optional<FpPipes> fp_256;
    CorePorts ports;
    std::string source;     // where the figures come from (manual, table), short
    std::optional<CacheSizes> caches;  // the cache sizes this core ships with; nullopt: not in the table
};

// The pipes that run ops of `vector_bits`.
inline const FpPipes& fp_pipes_for(const Microarch& m, int vector_bits) {
    return vector_bits <= 256 && m.fp_256 ? *m.fp_256 : m.fp;
}

// The table entry for a CPU (CPUID vendor string, family, model as the OS shows
// them, whether AVX-512 is usable), or nothing for a CPU the table does not know.
// Never guesses: an unknown CPU's theoretical figures are "unknown".
std::optional<Microarch> microarch_for(const std::string& vendor, int family, int model, bool has_avx512);

// What identifies a CPU to the table: CPUID's vendor, family and model, and the
// features it has (names as CpuFeatures::names(): "avx512f", "amx-tile", ...).
struct CpuIdentity {
    std::string vendor;
    int family = 0, model = 0;
    std::vector<std::string> features;
};

struct MicroarchLookup {
    std::optional<Microarch> arch;
    std::string note;  // said with the figures: how the core was identified when not plainly, or why not
};

// The table row for this CPU, checked against its features: a row whose core
// lacks a feature the CPU has is not used (hypervisors may present an older
// model number than the hardware's), and an Intel family-6 CPU with AMX is
// identified by it. AVX-512 is usable when "avx512f" is among the features.
MicroarchLookup identify_microarch(const CpuIdentity& cpu);

// The table entry a machine model names (its environment.microarchitecture, as a bench run
// wrote it: a core's name, or one followed by how it was identified), described with or without
// AVX-512; nothing for a name the table does not hold.
std::optional<Microarch> microarch_named(const std::string& name, bool has_avx512);

} // namespace roofline
