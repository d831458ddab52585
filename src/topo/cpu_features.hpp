// ISA features from CPUID (and XGETBV: the OS must also save the registers).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct CpuFeatures {
    std::string vendor;   // "AuthenticAMD", "GenuineIntel", ...
    std::string brand;    // CPUID brand string, trimmed
    int family = 0, model = 0, stepping = 0;
    bool hypervisor = false;
    std::string hypervisor_vendor;  // "KVMKVMKVM", ... when hypervisor
    bool sse = false, sse2 = false, sse3 = false, ssse3 = false, sse41 = false, sse42 = false;
    bool avx = false, avx2 = false, fma = false, f16c = false;
    // Every AVX-512 subset CPUID reports (Intel SDM vol. 2, CPUID leaf 7; Linux's flags
    // avx512_vbmi2, ... are these without the underscore): er, pf, 4vnniw and 4fmaps on Xeon Phi only.
    bool avx512f = false, avx512dq = false, avx512cd = false, avx512bw = false, avx512vl = false,
         avx512er = false, avx512pf = false, avx5124vnniw = false, avx5124fmaps = false,
         avx512ifma = false, avx512vbmi = false, avx512vnni = false, avx512vbmi2 = false, avx512bitalg = false,
         avx512vpopcntdq = false, avx512vp2intersect = false, avx512bf16 = false, avx512fp16 = false;
    bool avxvnni = false;
    bool amx_tile = false;  // in hardware (identifies Sapphire Rapids and later), whether or not the OS enables it
    // Intel AVX10 (Intel AVX10 Architecture Specification, document 355989): a versioned ISA
    // (10.1, 10.2, ...; each holds the ones before) of AVX-512's instructions in EVEX form at
    // every vector length up to the widest the CPU runs. avx10_vector_bits: 512, or 256 where
    // it stops at 256 bits (never 512-bit code there); 0 with avx10_version 0: none.
    int avx10_version = 0;
    int avx10_vector_bits = 0;
    // Usable at that version and length (names as GCC 14's -mavx10.1-256, -mavx10.1-512, ...).
    bool avx10_1_256 = false, avx10_1_512 = false, avx10_2_256 = false, avx10_2_512 = false;
    bool neon = false, sve = false;  // Arm builds
    bool os_saves_ymm = false, os_saves_zmm = false;

    // Names of the features present, lower case, in ISA order ("sse2", ..., "avx512f").
    std::vector<std::string> names() const;
    bool has(const std::string& name) const;
    // Every name names() can give, in that order.
    static std::vector<std::string> known_names();
};

// The registers the x86 ISA flags come from, as CPUID and XGETBV give them: apart, so that
// the rules can be checked with any CPU's values.
struct IsaRegisters {
    std::uint32_t leaf1_ecx = 0, leaf1_edx = 0;
    std::uint32_t leaf7_ebx = 0, leaf7_ecx = 0, leaf7_edx = 0;  // leaf 7 subleaf 0; 0 where there is none
    std::uint32_t leaf7_1_eax = 0, leaf7_1_edx = 0;             // leaf 7 subleaf 1; 0 where there is none
    std::uint32_t leaf24_ebx = 0;  // leaf 0x24 subleaf 0 (AVX10: version, vector lengths); 0 where there is none
    std::optional<std::uint64_t> xcr0;  // nullopt: OSXSAVE clear, so no XGETBV and no AVX state saved
};

// The ISA flags of `r` into `f` (the identity fields are left alone). An AVX or AVX-512 flag
// means usable: the CPU has it and the OS saves its registers (XCR0: SSE and AVX state for
// AVX; opmask, ZMM_Hi256 and Hi16_ZMM as well for every AVX-512 subset and for AVX10 at any
// length). AVX10 at 512 bits also sets the AVX-512 subsets AVX10.1 holds (F, CD, BW, DQ, VL,
// IFMA, VBMI, VNNI, BF16, VBMI2, BITALG, VPOPCNTDQ, FP16), so it chooses AVX-512 code as
// AVX-512 does; AVX10 at 256 bits sets none of them (EVEX code at 256 bits at most).
// amx-tile: in hardware.
void set_isa_flags(CpuFeatures& f, const IsaRegisters& r);

// Reads this CPU. On x86 uses CPUID/XGETBV; elsewhere fills what it can.
CpuFeatures detect_cpu_features();

} // namespace roofline
