#pragma once

#include "bench/kernel.hpp"

#include <string>

namespace roofline {

// True when this CPU and OS can run kernels compiled for `isa`
// (CPUID feature bits and XGETBV register-state support), and not above the
// cap ROOFLINE_MAX_ISA sets (sse2, avx2 or avx512), if any.
bool isa_supported(Isa isa);

// Why ROOFLINE_MAX_ISA cannot be used ("" when it is unset or names sse2, avx2 or
// avx512, in any case): commands check it before doing any work.
std::string max_isa_environment_problem();

} // namespace roofline
