// Runs the reference kernels of core/reference_kernels.hpp natively and times them:
// one thread, warm caches (the timed calls follow untimed ones over the same data),
// each sample long enough for the clock, the minimum (or median) of several samples.
// Every run checks its result against the value known on paper.
#pragma once

#include "core/reference_kernels.hpp"

#include <cstdint>
#include <string>

namespace roofline {

struct ReferenceRunOptions {
    int samples = 5;                    // timed samples, each of calls_per_sample calls
    double min_sample_seconds = 0.02;   // calls per sample doubled until a sample lasts this long
    bool median = false;                // the statistic: min (default) or median of the samples
};

struct ReferenceRun {
    std::int64_t n = 0;
    KernelCounts counts;                // of one call
    double seconds = 0;                 // per call, by the statistic
    double fastest = 0, slowest = 0;    // per call, over the samples
    int samples = 0;
    std::int64_t calls_per_sample = 0;
    bool checked = false;               // the result matched its known value
    std::string check_error;            // what did not, when not
};

// Throws std::bad_alloc when the arrays cannot be allocated, std::invalid_argument for n < 1.
ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options);

} // namespace roofline
