// A loop described on paper against a machine's caches: how many bytes its operands
// occupy, whether the levels they are declared resident in can hold them, and which
// level the whole working set fits in when no residence was given. Pure.
#pragma once

#include "core/kernel_spec.hpp"
#include "core/machine_model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// What a level of caches holds for a team of `threads` threads (threads on consecutive
// cores, as bench places them), in bytes of the team's data: the loop's `elements` and
// iterations are the whole team's, split evenly among its threads, so the instance with
// the most threads on it fills first: bytes = threads x size / (the most threads on one
// instance). Private levels: threads x size; one shared instance: its size; 3 threads on
// two L2s each shared by 2 cores: 1.5 x size (the pair fills theirs first).
// "L1" to "L3"; levels the machine does not describe are absent.
struct CacheCapacity {
    std::string level;
    double bytes = 0;
    // Team bytes one `per_thread` operand's elements count as here: each instance in use holds
    // at least one copy, so threads / (the most threads on one instance); 1 for one thread.
    double copies = 1;
};
std::vector<CacheCapacity> cache_capacities(const std::vector<CacheLevel>& caches, int threads);

// Bytes an operand occupies: `elements` x element_bytes when the spec gives its size
// (exact; a `per_thread` operand's is one thread's, see per_thread_bytes), else at most every element it touches, (reads + writes) x iterations x
// element_bytes (an upper bound: a loop may touch an element many times). nullopt when
// neither is known (no size and no iteration count) and for operands in registers.
struct Footprint {
    double bytes = 0;
    bool exact = false;
};
std::optional<Footprint> operand_footprint(const ArraySpec& array, const KernelSpec& spec);
// The team bytes an operand's footprint counts as at level `at`: `copies` times a `per_thread`
// operand's exact size (one copy in each instance in use), the footprint itself otherwise (a
// bound from iterations already covers what every thread touches).
double team_bytes(const ArraySpec& array, const Footprint& footprint, const CacheCapacity& at);

// A declared residence the machine's caches cannot be shown to hold.
struct ResidencyProblem {
    enum class Kind {
        too_small,      // the sizes given exceed the level: the declaration cannot hold (refused)
        unchecked,      // no size given, and the operands touch more bytes than the level holds
        no_such_level,  // the machine describes its caches but has no such level
    };
    Kind kind = Kind::too_small;
    std::string level;
    std::vector<std::string> operands;
    double bytes = 0;      // too_small: their exact size; unchecked: the most they touch
    double capacity = 0;   // what the level holds for the threads
};
// Per level, the operands declared resident there (`resident_in`), against its capacity.
// Empty when `capacities` is (a machine that does not describe its caches).
std::vector<ResidencyProblem> residency_problems(const KernelSpec& spec, const std::vector<CacheCapacity>& capacities);

// The working set of every operand but those in registers and those stored
// non-temporally (they never stay) within one level: the innermost that holds it.
// Operands with no residence given (not even `memory`) are placed there in `placed`,
// the spec the loop has once it runs again over data it has touched: nullopt when no
// operand could move, or the working set is not known to fit (a size not given and no
// iteration count, or too much).
struct CacheFit {
    std::string level;
    double footprint = 0;     // bytes, exact or at most
    bool exact = false;       // every operand's size was given
    double capacity = 0;
    std::vector<std::string> moved;  // the operands placed in `level`
    KernelSpec placed;
};
std::optional<CacheFit> fit_in_cache(const KernelSpec& spec, const std::vector<CacheCapacity>& capacities);

// An operand the spec leaves to the default residence (no `resident_in`) whose given size fits a
// cache level inner to the one it is predicted from, and that the loop touches more often than it
// has elements (a histogram's 256 bins, SpMV's x): every access is counted from the outer level,
// though the cache may keep it. `placed` is the spec as predicted (fit_in_cache's, or as written).
struct ReusedOperand {
    std::string operand;
    std::string level;     // the innermost level its size fits
    std::string counted;   // where it is counted from: "memory" or a level
    double bytes = 0;      // elements x element size
    double elements = 0;
    double accesses = 0;   // (reads + writes) x iterations
    double capacity = 0;   // what `level` holds for the threads
};
std::vector<ReusedOperand> reused_outside_their_cache(const KernelSpec& placed,
                                                      const std::vector<CacheCapacity>& capacities);

} // namespace roofline
