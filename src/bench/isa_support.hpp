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

// "ROOFLINE_MAX_ISA=avx2" when that cap keeps out an ISA this CPU runs (its roofs are
// then those of older code, not the machine's); "" when there is no such cap.
std::string isa_cap_in_force();

} // namespace roofline
