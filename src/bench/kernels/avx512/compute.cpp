// Compute kernels encoded with AVX-512 (EVEX): 512-bit, and 256-bit, 128-bit and
// scalar with the 32 registers AVX-512(VL) gives, room for more FMA+ADD chains.
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
    constexpr Isa isa = Isa::avx512;
    out.push_back(make_compute_kernel<Ops, 8, 0, 0, 4>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 16, 0, 0, 2>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 24, 0, 0, 2>("fma", isa));
    out.push_back(make_compute_kernel<Ops, 0, 8, 0, 4>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 16, 0, 2>("add", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 8, 4>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 0, 16, 2>("mul", isa));
    out.push_back(make_compute_kernel<Ops, 0, 8, 8, 2>("mul+add", isa));
    out.push_back(make_compute_kernel<Ops, 1, 0, 0, 16>("chain", isa));
    // The best port mix is searched over FMA + ADD chain counts (in steps of
    // two) that fit the 32 registers besides the two constants.
    // Steps of four at 256 bits, a ceiling under the 512-bit peak.
    if constexpr (sizeof(typename Ops::V) == 64) append_port_mix_grid<Ops, 30, 2>(out, isa);
    else append_port_mix_grid<Ops, 28, 4>(out, isa);
}

// Scalar and 128 bits with more chains than AVX2's 16 registers hold: on a core whose
// pipes need more independent chains in flight (Zen 5 fills its FMA and ADD pipes
// only with about 24), the scalar and 128-bit ceilings of code that may use AVX-512's
// 32 registers, and what a run kept to --isa sse2 or avx2 is checked against.
template <class Ops>
void append_narrow(std::vector<ComputeKernel>& out) {
    out.push_back(make_compute_kernel<Ops, 0, 8, 8, 2>("mul+add", Isa::avx512));
    out.push_back(make_compute_kernel<Ops, 0, 12, 12, 2>("mul+add", Isa::avx512));
    append_port_mix_grid<Ops, 28, 4>(out, Isa::avx512);
}

} // namespace

void append_compute_kernels_avx512(std::vector<ComputeKernel>& out) {
    append_narrow<Dp64>(out);
    append_narrow<Sp32>(out);
    append_narrow<Dp128>(out);
    append_narrow<Sp128>(out);
    append_width<Dp256>(out);
    append_width<Sp256>(out);
    append_width<Dp512>(out);
    append_width<Sp512>(out);
}

} // namespace roofline
