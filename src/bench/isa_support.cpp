#include "bench/isa_support.hpp"

#include "topo/cpu_features.hpp"

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
    static const int max_rank = max_rank_from_environment();
    if (rank(isa) > max_rank) return false;
    // The one CPU identity (topo): CPUID bits, and XGETBV for the OS saving the wider registers.
    static const CpuFeatures cpu = detect_cpu_features();
    switch (isa) {
    case Isa::sse2: return cpu.sse2;
    case Isa::avx2: return cpu.avx2 && cpu.fma && cpu.os_saves_ymm;
    case Isa::avx512: return cpu.avx512f && cpu.avx512dq && cpu.avx512vl && cpu.os_saves_zmm;
    }
    return false;
}

} // namespace roofline
