#pragma once

#include "bench/kernel.hpp"

namespace roofline {

// True when this CPU and OS can run kernels compiled for `isa`
// (CPUID feature bits and XGETBV register-state support).
bool isa_supported(Isa isa);

} // namespace roofline
