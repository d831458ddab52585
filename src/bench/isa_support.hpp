#pragma once

#include "bench/kernel.hpp"

namespace roofline {

// True when this CPU and OS can run kernels compiled for `isa`
// (CPUID feature bits and XGETBV register-state support), and not above the
// cap ROOFLINE_MAX_ISA sets (sse2, avx2 or avx512), if any.
bool isa_supported(Isa isa);

} // namespace roofline
