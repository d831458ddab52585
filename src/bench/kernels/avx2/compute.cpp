// Compute kernels encoded with AVX2 + FMA (VEX): scalar, 128- and 256-bit.
// 16 vector registers: at most 14 accumulators, leaving two for the constants.
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
    constexpr Isa isa = Isa::avx2;
    out.push_back(make_compute_kernel<Ops, 8, 0, 0, 4>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 12, 0, 0, 4>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 0, 8, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 12, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 8, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 12, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 6, 6, 4>("mul+add", isa));
    out.push_back(make_compute_kernel<Ops, 1, 0, 0, 16>("chain", isa));
    // Candidates for the best port mix: FMA chains next to ADD chains feed
    // dedicated FADD pipes where the core has them (AMD Zen).
    out.push_back(make_compute_kernel<Ops, 8, 2, 0, 4>("fma+add", isa));
    out.push_back(make_compute_kernel<Ops, 8, 4, 0, 4>("fma+add", isa));
    out.push_back(make_compute_kernel<Ops, 6, 6, 0, 4>("fma+add", isa));
    out.push_back(make_compute_kernel<Ops, 8, 6, 0, 4>("fma+add", isa));
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
