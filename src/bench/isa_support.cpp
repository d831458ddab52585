#include "bench/isa_support.hpp"

#include <cstdlib>
#include <cstring>

namespace roofline {
namespace {

int rank(Isa isa) { return isa == Isa::avx512 ? 2 : isa == Isa::avx2 ? 1 : 0; }

// ROOFLINE_MAX_ISA=sse2|avx2|avx512 caps the kernels used, to measure what code
// built for an older ISA can reach (as MKL_ENABLE_INSTRUCTIONS does for MKL).
int max_rank_from_environment() {
    const char* cap = std::getenv("ROOFLINE_MAX_ISA");
    if (!cap) return 2;
    if (std::strcmp(cap, "sse2") == 0) return 0;
    if (std::strcmp(cap, "avx2") == 0) return 1;
    return 2;
}

} // namespace

bool isa_supported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
    static const int max_rank = max_rank_from_environment();
    if (rank(isa) > max_rank) return false;
    // libgcc's CPU model checks CPUID bits and that the OS saves the wider registers.
    __builtin_cpu_init();
    switch (isa) {
    case Isa::sse2: return __builtin_cpu_supports("sse2");
    case Isa::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
    }
#endif
    (void)isa;
    return false;
}

} // namespace roofline
