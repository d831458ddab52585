#include "bench/isa_support.hpp"

namespace roofline {

bool isa_supported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
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
