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

} // namespace roofline
