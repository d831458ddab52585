#include "topo/cpu_features.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace roofline {

namespace {

// One table drives both names() and has(), so the two cannot disagree.
// Names follow GCC's -m flags; the order is the order ISAs appeared.
using FeatureFlag = bool CpuFeatures::*;
constexpr std::array<std::pair<const char*, FeatureFlag>, 36> kFeatureTable{{
    {"sse", &CpuFeatures::sse},
    {"sse2", &CpuFeatures::sse2},
    {"sse3", &CpuFeatures::sse3},
    {"ssse3", &CpuFeatures::ssse3},
    {"sse4.1", &CpuFeatures::sse41},
    {"sse4.2", &CpuFeatures::sse42},
    {"avx", &CpuFeatures::avx},
    {"f16c", &CpuFeatures::f16c},
    {"fma", &CpuFeatures::fma},
    {"avx2", &CpuFeatures::avx2},
    {"avx512f", &CpuFeatures::avx512f},
    {"avx512dq", &CpuFeatures::avx512dq},
    {"avx512cd", &CpuFeatures::avx512cd},
    {"avx512bw", &CpuFeatures::avx512bw},
    {"avx512vl", &CpuFeatures::avx512vl},
    {"avx512er", &CpuFeatures::avx512er},
    {"avx512pf", &CpuFeatures::avx512pf},
    {"avx5124vnniw", &CpuFeatures::avx5124vnniw},
    {"avx5124fmaps", &CpuFeatures::avx5124fmaps},
    {"avx512ifma", &CpuFeatures::avx512ifma},
    {"avx512vbmi", &CpuFeatures::avx512vbmi},
    {"avx512vnni", &CpuFeatures::avx512vnni},
    {"avx512vbmi2", &CpuFeatures::avx512vbmi2},
    {"avx512bitalg", &CpuFeatures::avx512bitalg},
    {"avx512vpopcntdq", &CpuFeatures::avx512vpopcntdq},
    {"avx512vp2intersect", &CpuFeatures::avx512vp2intersect},
    {"avx512bf16", &CpuFeatures::avx512bf16},
    {"avx512fp16", &CpuFeatures::avx512fp16},
    {"avxvnni", &CpuFeatures::avxvnni},
    {"amx-tile", &CpuFeatures::amx_tile},
    {"avx10.1-256", &CpuFeatures::avx10_1_256},
    {"avx10.1-512", &CpuFeatures::avx10_1_512},
    {"avx10.2-256", &CpuFeatures::avx10_2_256},
    {"avx10.2-512", &CpuFeatures::avx10_2_512},
    {"neon", &CpuFeatures::neon},
    {"sve", &CpuFeatures::sve},
}};

#if defined(__x86_64__)

std::string trim(std::string text) {
    const auto not_space = [](unsigned char c) { return c != ' ' && c != '\0' && c != '\t'; };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
    text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
    return text;
}

struct CpuidRegisters {
    std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegisters cpuid(std::uint32_t leaf, std::uint32_t subleaf = 0) {
    CpuidRegisters r;
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
    return r;
}

bool bit(std::uint32_t reg, int index) { return (reg >> index) & 1u; }

std::string registers_as_text(std::initializer_list<std::uint32_t> regs) {
    std::string text;
    for (std::uint32_t reg : regs) {
        char chars[4];
        std::memcpy(chars, &reg, sizeof reg);
        text.append(chars, sizeof chars);
    }
    return text;
}

// XCR0 (XGETBV 0): which register state the OS saves (set_isa_flags reads it).
std::uint64_t read_xcr0() {
    std::uint32_t low = 0, high = 0;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (std::uint64_t{high} << 32) | low;
}

void detect_x86(CpuFeatures& f) {
    const CpuidRegisters leaf0 = cpuid(0);
    const std::uint32_t max_leaf = leaf0.eax;
    f.vendor = registers_as_text({leaf0.ebx, leaf0.edx, leaf0.ecx});

    const CpuidRegisters leaf1 = cpuid(1);
    const unsigned base_family = (leaf1.eax >> 8) & 0xf;
    const unsigned base_model = (leaf1.eax >> 4) & 0xf;
    f.family = static_cast<int>(base_family == 0xf ? base_family + ((leaf1.eax >> 20) & 0xff) : base_family);
    f.model = static_cast<int>((base_family == 0x6 || base_family == 0xf)
                                   ? base_model + (((leaf1.eax >> 16) & 0xf) << 4)
                                   : base_model);
    f.stepping = static_cast<int>(leaf1.eax & 0xf);

    f.hypervisor = bit(leaf1.ecx, 31);
    IsaRegisters r;
    r.leaf1_ecx = leaf1.ecx;
    r.leaf1_edx = leaf1.edx;
    if (bit(leaf1.ecx, 27)) r.xcr0 = read_xcr0();  // OSXSAVE: XGETBV may be run
    if (max_leaf >= 7) {
        const CpuidRegisters leaf7 = cpuid(7, 0);
        r.leaf7_ebx = leaf7.ebx;
        r.leaf7_ecx = leaf7.ecx;
        r.leaf7_edx = leaf7.edx;
        if (leaf7.eax >= 1) {  // leaf7.eax: the highest subleaf
            const CpuidRegisters leaf7_1 = cpuid(7, 1);
            r.leaf7_1_eax = leaf7_1.eax;
            r.leaf7_1_edx = leaf7_1.edx;
        }
    }
    // Past the highest leaf an Intel CPU answers with the highest leaf's values: ask only below it.
    if (max_leaf >= 0x24) r.leaf24_ebx = cpuid(0x24, 0).ebx;
    set_isa_flags(f, r);

    const std::uint32_t max_extended = cpuid(0x80000000).eax;
    if (max_extended >= 0x80000004) {
        const CpuidRegisters a = cpuid(0x80000002), b = cpuid(0x80000003), c = cpuid(0x80000004);
        f.brand = trim(registers_as_text({a.eax, a.ebx, a.ecx, a.edx, b.eax, b.ebx, b.ecx, b.edx,
                                          c.eax, c.ebx, c.ecx, c.edx}));
    }

    // Leaf 0x40000000 is only defined when the hypervisor bit is set.
    if (f.hypervisor) {
        const CpuidRegisters hv = cpuid(0x40000000);
        f.hypervisor_vendor = trim(registers_as_text({hv.ebx, hv.ecx, hv.edx}));
    }
}

#elif defined(__aarch64__)

void detect_aarch64(CpuFeatures& f) {
    const unsigned long hwcap = getauxval(AT_HWCAP);
#ifdef HWCAP_ASIMD
    f.neon = (hwcap & HWCAP_ASIMD) != 0;
#endif
#ifdef HWCAP_SVE
    f.sve = (hwcap & HWCAP_SVE) != 0;
#endif
    (void)hwcap;
}

#endif

} // namespace

void set_isa_flags(CpuFeatures& f, const IsaRegisters& r) {
    const auto bit = [](std::uint32_t reg, int index) { return ((reg >> index) & 1u) != 0; };
    f.sse = bit(r.leaf1_edx, 25);
    f.sse2 = bit(r.leaf1_edx, 26);
    f.sse3 = bit(r.leaf1_ecx, 0);
    f.ssse3 = bit(r.leaf1_ecx, 9);
    f.sse41 = bit(r.leaf1_ecx, 19);
    f.sse42 = bit(r.leaf1_ecx, 20);

    // XCR0: which register state the OS saves on a context switch. Without it the upper
    // halves of ymm/zmm would be lost, so CPUID bits alone are not enough.
    const std::uint64_t xcr0 = r.xcr0.value_or(0);
    f.os_saves_ymm = (xcr0 & 0x6) == 0x6;                      // SSE + AVX state
    f.os_saves_zmm = f.os_saves_ymm && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM

    // AVX-family flags mean "usable": the CPU has them and the OS saves the registers.
    f.avx = bit(r.leaf1_ecx, 28) && f.os_saves_ymm;
    f.fma = bit(r.leaf1_ecx, 12) && f.avx;
    f.f16c = bit(r.leaf1_ecx, 29) && f.avx;
    f.avx2 = bit(r.leaf7_ebx, 5) && f.avx;
    f.avx512f = bit(r.leaf7_ebx, 16) && f.os_saves_zmm;
    const bool f512 = f.avx512f;  // every subset extends AVX-512 F
    f.avx512dq = bit(r.leaf7_ebx, 17) && f512;
    f.avx512ifma = bit(r.leaf7_ebx, 21) && f512;
    f.avx512pf = bit(r.leaf7_ebx, 26) && f512;
    f.avx512er = bit(r.leaf7_ebx, 27) && f512;
    f.avx512cd = bit(r.leaf7_ebx, 28) && f512;
    f.avx512bw = bit(r.leaf7_ebx, 30) && f512;
    f.avx512vl = bit(r.leaf7_ebx, 31) && f512;
    f.avx512vbmi = bit(r.leaf7_ecx, 1) && f512;
    f.avx512vbmi2 = bit(r.leaf7_ecx, 6) && f512;
    f.avx512vnni = bit(r.leaf7_ecx, 11) && f512;
    f.avx512bitalg = bit(r.leaf7_ecx, 12) && f512;
    f.avx512vpopcntdq = bit(r.leaf7_ecx, 14) && f512;
    f.avx5124vnniw = bit(r.leaf7_edx, 2) && f512;
    f.avx5124fmaps = bit(r.leaf7_edx, 3) && f512;
    f.avx512vp2intersect = bit(r.leaf7_edx, 8) && f512;
    f.avx512fp16 = bit(r.leaf7_edx, 23) && f512;
    // Present in hardware: it identifies the core (the microarchitecture
    // table); no AMX code is run, so the OS's tile state is not asked.
    f.amx_tile = bit(r.leaf7_edx, 24);
    f.avx512bf16 = bit(r.leaf7_1_eax, 5) && f512;
    f.avxvnni = bit(r.leaf7_1_eax, 4) && f.avx;

    // AVX10, as Intel's AVX10 Architecture Specification (document 355989, "Enumeration")
    // gives it: CPUID.(EAX=07H,ECX=01H):EDX[19] says AVX10 is there; CPUID.(EAX=24H,ECX=0):EBX
    // holds the version in bits 7:0 (never 0 where AVX10 is) and the vector lengths it runs in
    // bits 16 (128), 17 (256) and 18 (512). AVX10 uses AVX-512's register state (32 registers,
    // opmasks) at every length, so it needs XCR0's opmask, ZMM_Hi256 and Hi16_ZMM as AVX-512
    // does (GCC's and Xen's checks ask the same). Later revisions of the specification
    // dropped the 256-bit-only variant and report all three length bits: bit 18 decides.
    const int version = static_cast<int>(r.leaf24_ebx & 0xffu);
    if (bit(r.leaf7_1_edx, 19) && version >= 1 && f.os_saves_zmm) {
        f.avx10_version = version;
        f.avx10_vector_bits = bit(r.leaf24_ebx, 18) ? 512 : 256;  // every AVX10 runs 128 and 256 bits
    } else {
        f.avx10_version = 0;
        f.avx10_vector_bits = 0;
    }
    const bool wide = f.avx10_vector_bits == 512;
    f.avx10_1_256 = f.avx10_version >= 1;
    f.avx10_1_512 = f.avx10_1_256 && wide;
    f.avx10_2_256 = f.avx10_version >= 2;
    f.avx10_2_512 = f.avx10_2_256 && wide;
    // AVX10.1 at 512 bits is these AVX-512 subsets at every length (355989, the AVX10.1
    // feature list; VAES, GFNI and VPCLMULQDQ too, not listed here): code and kernels
    // that ask for them may run, whatever the legacy leaf 7 bits say. At 256 bits none of
    // them is set, since each would allow 512-bit code.
    if (f.avx10_1_512) {
        for (bool CpuFeatures::*subset :
             {&CpuFeatures::avx512f, &CpuFeatures::avx512cd, &CpuFeatures::avx512bw, &CpuFeatures::avx512dq,
              &CpuFeatures::avx512vl, &CpuFeatures::avx512ifma, &CpuFeatures::avx512vbmi, &CpuFeatures::avx512vnni,
              &CpuFeatures::avx512bf16, &CpuFeatures::avx512vbmi2, &CpuFeatures::avx512bitalg,
              &CpuFeatures::avx512vpopcntdq, &CpuFeatures::avx512fp16})
            f.*subset = true;
    }
}

std::vector<std::string> CpuFeatures::names() const {
    std::vector<std::string> present;
    for (const auto& [name, flag] : kFeatureTable)
        if (this->*flag) present.emplace_back(name);
    return present;
}

std::vector<std::string> CpuFeatures::known_names() {
    std::vector<std::string> all;
    for (const auto& [name, flag] : kFeatureTable) all.emplace_back(name);
    return all;
}

bool CpuFeatures::has(const std::string& name) const {
    for (const auto& [feature_name, flag] : kFeatureTable)
        if (name == feature_name) return this->*flag;
    return false;
}

CpuFeatures detect_cpu_features() {
    CpuFeatures features;
#if defined(__x86_64__)
    detect_x86(features);
#elif defined(__aarch64__)
    detect_aarch64(features);
#endif
    return features;
}

} // namespace roofline
