// Compute kernels for x86-64 CPUs without AVX2/FMA: scalar and 128-bit SSE2.
// Only registered for use when the AVX2 build cannot run (see bench planning).
#include "bench/kernel.hpp"

#include <immintrin.h>

#include <cstdint>
#include <string>

namespace roofline {
namespace {

#include "bench/kernels/x86_compute_traits.inl"
#include "bench/kernels/compute_kernels.inl"

template <class Ops>
void append_width(std::vector<ComputeKernel>& out) {
    constexpr Isa isa = Isa::sse2;
    out.push_back(make_compute_kernel<Ops, 0, 8, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 12, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 8, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 12, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 6, 6, 4>("mul+add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 1, 0, 16>("chain", isa));
}

} // namespace

void append_compute_kernels_sse2(std::vector<ComputeKernel>& out) {
    append_width<Dp64>(out);
    append_width<Sp32>(out);
    append_width<Dp128>(out);
    append_width<Sp128>(out);
}

} // namespace roofline
