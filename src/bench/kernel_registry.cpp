#include "bench/kernel.hpp"

#include "core/precision.hpp"

namespace roofline {

const char* isa_name(Isa isa) {
    switch (isa) {
    case Isa::sse2: return "sse2";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
    }
    return "?";
}

int ComputeKernel::lanes() const {
    const int element_bits = element_bits_of(precision);
    return vector_bits / element_bits;
}

double ComputeKernel::flops_per_iteration() const {
    const double per_step = lanes() * (2.0 * fma_chains + add_chains + mul_chains);
    return per_step * steps_per_iteration;
}

const std::vector<ComputeKernel>& all_compute_kernels() {
    static const std::vector<ComputeKernel> kernels = [] {
        std::vector<ComputeKernel> k;
        append_compute_kernels_sse2(k);
        append_compute_kernels_avx2(k);
        append_compute_kernels_avx512(k);
        return k;
    }();
    return kernels;
}

const std::vector<MemoryKernel>& all_memory_kernels() {
    static const std::vector<MemoryKernel> kernels = [] {
        std::vector<MemoryKernel> k;
        append_memory_kernels_sse2(k);
        append_memory_kernels_avx2(k);
        append_memory_kernels_avx512(k);
        return k;
    }();
    return kernels;
}

const std::vector<IntensityKernel>& all_intensity_kernels() {
    static const std::vector<IntensityKernel> kernels = [] {
        std::vector<IntensityKernel> k;
        append_intensity_kernels_avx2(k);
        return k;
    }();
    return kernels;
}

} // namespace roofline
