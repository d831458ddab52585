// What `roofline bench --list` shows of a microbenchmark kernel: plain data,
// filled in by bench (which owns the kernels) and phrased by render.
#pragma once

#include <string>

namespace roofline {

// What a kernel measures: a compute roof, a memory roof, or a validation point
// of known intensity.
enum class KernelKind { compute, memory, intensity };

inline const char* kernel_kind_name(KernelKind kind) {
    switch (kind) {
    case KernelKind::compute: return "compute";
    case KernelKind::memory: return "memory";
    case KernelKind::intensity: return "intensity";
    }
    return "?";
}

struct KernelInfo {
    std::string name;        // "dp.avx2.256.fma8+add6", "copy.avx2.256", "intensity.avx2.256.k64"
    KernelKind kind = KernelKind::compute;
    std::string isa;         // "sse2", "avx2", "avx512"
    int vector_bits = 0;
    std::string precision;   // compute: "dp"/"sp"; others "dp" (8-byte elements)
    std::string what;        // compute: the mix ("fma+add"); memory: the pattern; intensity: "stream+fma"
    std::string unit;        // "iteration" (compute) or "element" (memory, intensity)
    double flops = 0;        // per unit
    double bytes = 0;        // per unit, nominal (0 for compute)
    double bytes_write_allocate = 0;  // per unit, with the write-allocate reads of ordinary stores
    bool supported = false;  // this CPU (and ROOFLINE_MAX_ISA) can run it
};

} // namespace roofline
