// Runs the reference kernels (their counts in core/reference_kernels.hpp, their code registered
// in bench/reference_kernel_registry.hpp) natively and times them:
// one thread, warm caches (the timed calls follow untimed ones over the same data),
// each sample long enough for the clock, the minimum (or median) of several samples.
// Every run checks its result against the value known on paper.
#pragma once

#include "bench/reference_kernel_registry.hpp"
#include "bench/thread_team.hpp"
#include "core/reference_kernels.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace roofline {

// warm: timed calls follow untimed ones over the same data and code. The cold modes time
// one call at a time, each after the kernel's arrays were flushed from every cache level
// (clflush of each line), or after 8 MiB of other code ran (the instruction caches and the
// L2/L3 hold that instead; the arrays are then read back, so only the code is cold), or both.
enum class CacheMode { warm, cold_data, cold_code, cold };
// Whether the timed calls start with the kernel's arrays in no cache (cold-data, cold).
inline bool data_cold(CacheMode mode) { return mode == CacheMode::cold_data || mode == CacheMode::cold; }
// "warm", "cold-data", "cold-code", "cold"; nullopt for anything else.
std::optional<CacheMode> parse_cache_mode(const std::string& text);
const char* cache_mode_name(CacheMode mode);

struct ReferenceRunOptions {
    int samples = 5;                    // timed samples: of calls_per_sample calls (warm), of one call (cold)
    double min_sample_seconds = 0.02;   // warm: calls per sample doubled until a sample lasts this long
    bool median = false;                // the statistic: min (default) or median of the samples
    CacheMode cache = CacheMode::warm;
    KernelParams params;                // the kernel's parameters beyond n (defaults for those not given)
};

struct ReferenceRun {
    std::int64_t n = 0;                 // per thread
    int threads = 1;
    CacheMode cache = CacheMode::warm;  // how the timed calls found the caches
    KernelCounts counts;                // of one call on one thread
    double seconds = 0;                 // per call, by the statistic
    double fastest = 0, slowest = 0;    // per call, over the samples
    int samples = 0;
    std::int64_t calls_per_sample = 0;
    bool checked = false;               // the result matched its known value
    std::string check_error;            // what did not, when not
    std::map<std::string, double> details;  // what ran, where it is chosen at run time (block, vector bits)
};

// Throws std::bad_alloc when the arrays cannot be allocated, std::invalid_argument for n < 1.
ReferenceRun run_reference_kernel(const RegisteredReferenceKernel& kernel, std::int64_t n,
                                  const ReferenceRunOptions& options);
// A row of core's table: the code registered for its id.
ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options);

// The same on every thread of `team` at once, each on arrays of its own of size n (allocated
// by that thread, so on its NUMA node), started together; a sample lasts until the slowest
// thread is done (ThreadTeam::run_timed). Every thread's result is checked.
ReferenceRun run_reference_kernel(const RegisteredReferenceKernel& kernel, std::int64_t n,
                                  const ReferenceRunOptions& options, ThreadTeam& team);
ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options,
                                  ThreadTeam& team);

} // namespace roofline
