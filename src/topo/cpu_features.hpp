// ISA features from CPUID (and XGETBV: the OS must also save the registers).
#pragma once

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
    bool avx512f = false, avx512dq = false, avx512cd = false, avx512bw = false, avx512vl = false,
         avx512ifma = false, avx512vbmi = false, avx512vnni = false, avx512bf16 = false, avx512fp16 = false;
    bool avxvnni = false;
    bool amx_tile = false;  // in hardware (identifies Sapphire Rapids and later), whether or not the OS enables it
    bool neon = false, sve = false;  // Arm builds
    bool os_saves_ymm = false, os_saves_zmm = false;

    // Names of the features present, lower case, in ISA order ("sse2", ..., "avx512f").
    std::vector<std::string> names() const;
    bool has(const std::string& name) const;
};

// Reads this CPU. On x86 uses CPUID/XGETBV; elsewhere fills what it can.
CpuFeatures detect_cpu_features();

} // namespace roofline
