// Compute kernels encoded with AVX2 + FMA (VEX): scalar, 128- and 256-bit.
// 16 vector registers: at most 14 accumulators, leaving two for the constants.
#include "bench/kernel.hpp"

#include <immintrin.h>

#include <cstdint>
#include <utility>
#include <string>

namespace roofline {
namespace {

#include "bench/kernels/x86_compute_traits.inl"

#include "bench/kernels/compute_kernels.inl"

template <class Ops>
void append_width(std::vector<ComputeKernel>& out) {
    constexpr Isa isa = Isa::avx2;
    out.push_back(make_compute_kernel<Ops, 8, 0, 0, 4>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 12, 0, 0, 4>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 0, 8, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 12, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 8, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 12, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 6, 6, 4>("mul+add", isa));
    out.push_back(make_compute_kernel<Ops, 1, 0, 0, 16>("chain", isa));
    // The best port mix is searched over every FMA + ADD chain count that fits
    // at the widest width (the peak); narrower widths, ceilings only, in steps of two.
    if constexpr (sizeof(typename Ops::V) == 32) append_port_mix_grid<Ops, 14, 1>(out, isa);
    else append_port_mix_grid<Ops, 14, 2>(out, isa);
}

} // namespace

void append_compute_kernels_avx2(std::vector<ComputeKernel>& out) {
    append_width<Dp64>(out);
    append_width<Sp32>(out);
    append_width<Dp128>(out);
    append_width<Sp128>(out);
    append_width<Dp256>(out);
    append_width<Sp256>(out);
}

} // namespace roofline
