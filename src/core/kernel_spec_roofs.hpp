// Which of a machine's measured roofs bound a loop described on paper: per memory level
// the access pattern closest to the loop's own mix of loads and stores there, and, when
// the spec says what its code was built for (`isa:`), the compute and L1/L2 roofs of
// that vector width. As data, each choice with its basis; render/ phrases it. Pure.
#pragma once

#include "core/kernel_spec.hpp"
#include "core/machine_file.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// An instruction set a spec may name: what it allows of the machine's roofs.
struct SpecIsa {
    std::string name;          // "scalar", "sse2", "avx", "avx2", "avx512"
    int vector_bits = 0;       // 0: one element (scalar; the precision's element bits)
    bool fma = true;           // its code may use fused multiply-adds (sse2 and avx have none)
    std::string cpu_flag;      // what the CPU must list to run it ("" for scalar)
    std::string memory_trial;  // the memory kernels' ISA whose trial stands for it (bench measures sse2, avx2, avx512)
};
// nullopt for a name not in the table.
std::optional<SpecIsa> spec_isa(const std::string& name);
// The names spec_isa knows, for messages.
const std::vector<std::string>& spec_isa_names();

// Why `spec`'s code cannot run on `model`'s CPU (its `isa:` needs a feature the CPU does not
// list), or "" when it can or nothing can be told (no `isa:`, a CPU that lists no features).
std::string spec_isa_problem(const KernelSpec& spec, const MachineModel& model);

// How the compute roof was chosen.
struct ComputeRoofChoice {
    enum class Basis {
        widest,        // no `isa:`: the fastest the machine measured (its widest vectors)
        spec_isa,      // the fastest the model measured at the spec's width or narrower (without FMA for sse2, avx)
        no_such_width, // `isa:` given, but the model has no compute roof that narrow: the fastest, said
        not_flop,      // `isa:` given, but the work is not FLOP (a spec sheet's unit): the roof as it is
        no_model,      // --peak/--bw: one figure, of no width
    };
    Basis basis = Basis::widest;
    std::string isa;       // the spec's (empty when not given)
    int wanted_bits = 0;   // the spec's width (element bits for scalar); 0 without `isa:`
    int vector_bits = 0;   // of the roof used; 0 when not known
    bool fma = true;       // whether FMA mixes were allowed
};

// How one level's bandwidth roof was chosen for the loop.
struct LevelRoofChoice {
    enum class Basis {
        pattern,          // a measured pattern with the loop's share of stores
        between,          // between two measured patterns' shares: their roofs' harmonic mix
        fastest_unknown,  // no roof of the level has a known pattern (a spec sheet's figure): the fastest
        fastest_beyond,   // the loop's share lies outside the patterns measured: the fastest
        fastest_no_nt,    // non-temporal stores, and no `_nt` pattern measured at the level: the fastest
        no_model,         // --peak/--bw
    };
    enum class Isa {
        as_measured,  // the roofs as bench chose them (each pattern's fastest ISA)
        spec_trial,   // scaled to the spec's ISA by the ISA trials bench ran side by side
        no_trial,     // the spec names an ISA, but the level's roof has no trial of it: as measured
    };
    std::string level;
    double store_share = 0;     // the loop's stores over its loads and stores there (nominal bytes)
    bool non_temporal = false;  // DRAM: its stores are non-temporal (then only `_nt` patterns and load match)
    Basis basis = Basis::pattern;
    // pattern: one name; between: two, the fewer stores first ("load", "copy+WA"), weight the
    // share of the loop's bytes taken to move as the first.
    std::vector<std::string> patterns;
    std::vector<double> pattern_gbs;
    std::vector<double> pattern_shares;
    double weight = 1;
    double min_share = 0, max_share = 0;  // fastest_beyond: the shares measured
    Isa isa_basis = Isa::as_measured;
    std::string isa;            // spec_trial, no_trial: the spec's ISA's trial name
    Roof roof;                  // what bounds the loop at the level
    Roof fastest;               // the level's fastest roof (of the spec's ISA when it names one): the fallback
};

struct SpecRoofline {
    Roofline roofline;  // the judging roofline with the roofs chosen for this loop
    ComputeRoofChoice compute;
    std::vector<LevelRoofChoice> levels;  // levels the loop moves bytes at, inner first
};

// The roofs that bound `spec` on `machine`, from `judged` (the machine's roofline of the
// spec's precision and thread count, as roofline_from_machine_file builds it). `machine`
// null (--peak/--bw): `judged` as it is, each choice `no_model`.
//
// The pattern rule, per level the loop moves bytes at: its store share s (nominal stores
// over nominal loads and stores) against the store shares of the patterns measured there
// at the roofline's thread count (pattern_store_share: load 0, triad and 2ld1st 1/3, copy
// 1/2, store 1; at DRAM non-temporal stores match only `_nt` patterns and load, ordinary
// stores no `_nt` one). A pattern of the same share gives its roof (the faster of two alike); between
// two measured shares the roof is 1 / (w / B_a + (1 - w) / B_b) with w = (s_b - s) / (s_b - s_a):
// the loop's bytes taken as a mix of the two patterns' streams, each at its measured rate,
// so their times add. Outside the shares measured, or without any, the level's fastest roof
// (an upper bound), said. Bandwidth ceilings of the level at or above the roof chosen are
// dropped (they do not hold this loop below its bound), and where the roof is the loop's own
// pattern so are the other patterns' ("pattern" ceilings: not what the loop does).
//
// The ISA rule: with `isa:`, compute roofs and ceilings come from the model's compute roofs
// of that width or narrower (no FMA mixes for sse2 and avx); L1 and L2 roofs are scaled by
// the ratio of the ISA trials bench timed side by side (the spec's ISA over the one that
// won), since the width of the load and store instructions bounds what a core moves there;
// from L3 out lines arrive from outside the core and the trials differ by their noise.
SpecRoofline spec_roofline(const KernelSpec& spec, const MachineFile* machine, const Roofline& judged);

} // namespace roofline
