// Per-ISA operation traits for compute_kernels.inl (x86). Included inside an
// anonymous namespace by each kernels/<isa>/compute.cpp, so every ISA gets its
// own copy compiled with its own flags (no cross-ISA ODR merging).
// fma(x, m, a) = m*a + x with x the accumulator (vfmadd231), see kernel.hpp.
// Each operation is one volatile asm instruction: the compiler may not fold,
// merge or drop any of them, whatever it can prove about the values. The VEX
// forms (with FMA) are used when the file is compiled for AVX; the SSE2 build
// has no fma() and uses the two-operand forms.

struct Dp64 {
    using V = double;
    using Element = double;
    static constexpr const char* kPrecision = "dp";
    static V set1(double x) { return x; }
#if defined(__AVX__)
    static V fma(V x, V m, V a) { asm volatile("vfmadd231sd %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddsd %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulsd %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
#else
    static V add(V x, V a) { asm volatile("addsd %1, %0" : "+x"(x) : "x"(a)); return x; }
    static V mul(V x, V m) { asm volatile("mulsd %1, %0" : "+x"(x) : "x"(m)); return x; }
#endif
    static void store(double* out, V x) { out[0] = x; }
};
struct Sp32 {
    using V = float;
    using Element = float;
    static constexpr const char* kPrecision = "sp";
    static V set1(double x) { return static_cast<float>(x); }
#if defined(__AVX__)
    static V fma(V x, V m, V a) { asm volatile("vfmadd231ss %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddss %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulss %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
#else
    static V add(V x, V a) { asm volatile("addss %1, %0" : "+x"(x) : "x"(a)); return x; }
    static V mul(V x, V m) { asm volatile("mulss %1, %0" : "+x"(x) : "x"(m)); return x; }
#endif
    static void store(double* out, V x) { out[0] = x; }
};
struct Dp128 {
    using V = __m128d;
    using Element = double;
    static constexpr const char* kPrecision = "dp";
    static V set1(double x) { return _mm_set1_pd(x); }
#if defined(__AVX__)
    static V fma(V x, V m, V a) { asm volatile("vfmadd231pd %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddpd %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulpd %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
#else
    static V add(V x, V a) { asm volatile("addpd %1, %0" : "+x"(x) : "x"(a)); return x; }
    static V mul(V x, V m) { asm volatile("mulpd %1, %0" : "+x"(x) : "x"(m)); return x; }
#endif
    static void store(double* out, V x) { _mm_storeu_pd(out, x); }
};
struct Sp128 {
    using V = __m128;
    using Element = float;
    static constexpr const char* kPrecision = "sp";
    static V set1(double x) { return _mm_set1_ps(static_cast<float>(x)); }
#if defined(__AVX__)
    static V fma(V x, V m, V a) { asm volatile("vfmadd231ps %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddps %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulps %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
#else
    static V add(V x, V a) { asm volatile("addps %1, %0" : "+x"(x) : "x"(a)); return x; }
    static V mul(V x, V m) { asm volatile("mulps %1, %0" : "+x"(x) : "x"(m)); return x; }
#endif
    static void store(double* out, V x) {
        alignas(16) float lanes[4];
        _mm_store_ps(lanes, x);
        for (int i = 0; i < 4; ++i) out[i] = lanes[i];
    }
};
#if defined(__AVX2__)
struct Dp256 {
    using V = __m256d;
    using Element = double;
    static constexpr const char* kPrecision = "dp";
    static V set1(double x) { return _mm256_set1_pd(x); }
    static V fma(V x, V m, V a) { asm volatile("vfmadd231pd %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddpd %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulpd %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
    static void store(double* out, V x) { _mm256_storeu_pd(out, x); }
};
struct Sp256 {
    using V = __m256;
    using Element = float;
    static constexpr const char* kPrecision = "sp";
    static V set1(double x) { return _mm256_set1_ps(static_cast<float>(x)); }
    static V fma(V x, V m, V a) { asm volatile("vfmadd231ps %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddps %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulps %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
    static void store(double* out, V x) {
        alignas(32) float lanes[8];
        _mm256_store_ps(lanes, x);
        for (int i = 0; i < 8; ++i) out[i] = lanes[i];
    }
};

#endif

#if defined(__AVX512F__)
struct Dp512 {
    using V = __m512d;
    using Element = double;
    static constexpr const char* kPrecision = "dp";
    static V set1(double x) { return _mm512_set1_pd(x); }
    static V fma(V x, V m, V a) { asm volatile("vfmadd231pd %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddpd %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulpd %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
    static void store(double* out, V x) { _mm512_storeu_pd(out, x); }
};
struct Sp512 {
    using V = __m512;
    using Element = float;
    static constexpr const char* kPrecision = "sp";
    static V set1(double x) { return _mm512_set1_ps(static_cast<float>(x)); }
    static V fma(V x, V m, V a) { asm volatile("vfmadd231ps %2, %1, %0" : "+v"(x) : "v"(m), "v"(a)); return x; }
    static V add(V x, V a) { asm volatile("vaddps %1, %0, %0" : "+v"(x) : "v"(a)); return x; }
    static V mul(V x, V m) { asm volatile("vmulps %1, %0, %0" : "+v"(x) : "v"(m)); return x; }
    static void store(double* out, V x) {
        alignas(64) float lanes[16];
        _mm512_store_ps(lanes, x);
        for (int i = 0; i < 16; ++i) out[i] = lanes[i];
    }
};
#endif
