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
    auto part = [&chains](int n, const char* what) {
        if (n == 0) return;
        if (!chains.empty()) chains += "+";
        chains += what + std::to_string(n);
    };
    part(F, "fma");
    part(A, "add");
    part(M, "mul");
    k.name = std::string(k.precision) + "." + isa_name(isa) + "." + std::to_string(k.vector_bits) + "." + chains;
    return k;
}
