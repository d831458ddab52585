// Every kernel checks its own result before it is timed: a short run whose
// output is compared, exactly, with a scalar model of the same operations.
// A kernel the compiler gutted, or a wrong kernel, fails loudly.
#pragma once

#include "bench/kernel.hpp"

#include <string>

namespace roofline {

// Empty string when the kernel computes what its metadata says; else a message.
std::string check_compute_kernel(const ComputeKernel& kernel);
std::string check_memory_kernel(const MemoryKernel& kernel);
std::string check_intensity_kernel(const IntensityKernel& kernel);

// After timing (BabelStream's check_solution): the kernel's output arrays (and,
// for a load, the value it returned) agree with what its pattern computes from
// the inputs now in `arrays`, at every `stride`-th element and the last block.
std::string check_stream_output(const MemoryKernel& kernel, const double* const* arrays, std::size_t n,
                                double returned, double scalar, std::size_t stride);

} // namespace roofline
