// The compute-kernel loop, written once and instantiated per ISA. The including
// file defines a traits struct Ops with:  using V (vector or scalar type),
// static V set1(double), fma(V,V,V), add(V,V), mul(V,V), and
// static void store(double* out, V) that writes every lane as double.
// Include it inside namespace roofline.
//
// Why it cannot be gutted: every operation is a volatile asm instruction (see
// the traits), and the starting values and constants are opaque to the compiler.

#define ROOFLINE_OPAQUE(reg) asm volatile("" : "+v"(reg))

template <class Ops, int FmaChains, int AddChains, int MulChains, int Steps>
void compute_loop(std::uint64_t iterations, double mul_value, double add_value, double* out) {
    using V = typename Ops::V;
    constexpr int kF = FmaChains > 0 ? FmaChains : 1;
    constexpr int kA = AddChains > 0 ? AddChains : 1;
    constexpr int kM = MulChains > 0 ? MulChains : 1;
    V m = Ops::set1(mul_value);
    V a = Ops::set1(add_value);
    ROOFLINE_OPAQUE(m);
    ROOFLINE_OPAQUE(a);
    V f[kF], s[kA], p[kM];
    // Opaque starting values, so the compiler cannot prove two chains equal.
    for (int j = 0; j < kF; ++j) { f[j] = Ops::set1(1.0); ROOFLINE_OPAQUE(f[j]); }
    for (int j = 0; j < kA; ++j) { s[j] = Ops::set1(1.0); ROOFLINE_OPAQUE(s[j]); }
    for (int j = 0; j < kM; ++j) { p[j] = Ops::set1(1.0); ROOFLINE_OPAQUE(p[j]); }

    for (std::uint64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 32
        for (int step = 0; step < Steps; ++step) {
            if constexpr (FmaChains > 0) {  // the SSE2 build has no fma()
#pragma GCC unroll 32
                for (int j = 0; j < FmaChains; ++j) f[j] = Ops::fma(f[j], m, a);
            }
#pragma GCC unroll 32
            for (int j = 0; j < AddChains; ++j) s[j] = Ops::add(s[j], a);
#pragma GCC unroll 32
            for (int j = 0; j < MulChains; ++j) p[j] = Ops::mul(p[j], m);
        }
    }

    constexpr int lanes = static_cast<int>(sizeof(V) / sizeof(typename Ops::Element));
    for (int j = 0; j < FmaChains; ++j) Ops::store(out + lanes * j, f[j]);
    for (int j = 0; j < AddChains; ++j) Ops::store(out + lanes * (FmaChains + j), s[j]);
    for (int j = 0; j < MulChains; ++j) Ops::store(out + lanes * (FmaChains + AddChains + j), p[j]);
}

#undef ROOFLINE_OPAQUE

// Registers one instantiation with its metadata.
template <class Ops, int F, int A, int M, int Steps>
ComputeKernel make_compute_kernel(const char* mix, Isa isa) {
    ComputeKernel k;
    k.precision = Ops::kPrecision;
    k.isa = isa;
    k.vector_bits = static_cast<int>(sizeof(typename Ops::V) * 8);
    k.mix = mix;
    k.fma_chains = F;
    k.add_chains = A;
    k.mul_chains = M;
    k.steps_per_iteration = Steps;
    k.run = &compute_loop<Ops, F, A, M, Steps>;
    std::string chains;
    // A port-mix point names both kinds even at zero ("fma8+add0"): the
    // "fma" family's own kernels keep the short names.
    const bool both = std::string(mix) == "fma+add";
    auto part = [&chains, both](int n, const char* what) {
        if (n == 0 && !(both && what[0] != 'm')) return;
        if (!chains.empty()) chains += "+";
        chains += what + std::to_string(n);
    };
    part(F, "fma");
    part(A, "add");
    part(M, "mul");
    k.name = std::string(k.precision) + "." + isa_name(isa) + "." + std::to_string(k.vector_bits) + "." + chains;
    return k;
}

// The port-mix search space of one width: every F FMA chains next to A ADD
// chains with F + A <= MaxChains (the accumulators the register file holds
// besides the two constants) and F, A multiples of Step, all registered as
// family "fma+add". The search (bench/port_mix_search) picks among them by
// measurement, so no machine's best mix is written down here.
template <int Chains>
constexpr int steps_for_chains() {
    return Chains >= 16 ? 2 : Chains >= 8 ? 4 : 8;  // enough ops per iteration to hide the loop
}

template <class Ops, int MaxChains, int Step, int Index>
void append_port_mix_point(std::vector<ComputeKernel>& out, Isa isa) {
    constexpr int per_row = MaxChains / Step + 1;
    constexpr int F = Index / per_row * Step;
    constexpr int A = Index % per_row * Step;
    if constexpr (F + A > 0 && F + A <= MaxChains)
        out.push_back(make_compute_kernel<Ops, F, A, 0, steps_for_chains<F + A>()>("fma+add", isa));
}

template <class Ops, int MaxChains, int Step, int... Index>
void append_port_mix_points(std::vector<ComputeKernel>& out, Isa isa, std::integer_sequence<int, Index...>) {
    (append_port_mix_point<Ops, MaxChains, Step, Index>(out, isa), ...);
}

template <class Ops, int MaxChains, int Step>
void append_port_mix_grid(std::vector<ComputeKernel>& out, Isa isa) {
    constexpr int per_row = MaxChains / Step + 1;
    append_port_mix_points<Ops, MaxChains, Step>(out, isa, std::make_integer_sequence<int, per_row * per_row>{});
}
