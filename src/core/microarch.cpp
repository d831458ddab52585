#include "core/microarch.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace roofline {
namespace {

// One way a core runs: its FP pipes and L1/L2 ports at the widest vector width
// the code can use. A core with AVX-512 has two: with it usable, and without
// (fused off, disabled in firmware, or hidden by a hypervisor), where 256-bit
// code is what runs; the datapath stays the hardware's in both. `what` follows
// the core's name in the printed description.
struct Variant {
    int fma_pipes, add_pipes, fp_pipes, datapath_bits;
    int fma_latency, add_latency, mul_latency;
    double l1_load, l1_store, l2_to_l1;  // bytes per cycle
    int load_bits;
    const char* what;
    const Variant* narrow = nullptr;  // ops of at most 256 bits run on these pipes instead (nullptr: the same)
};

struct Core {
    const char* name;
    const char* source;
    Variant avx2;                      // AVX-512 not usable (or not there)
    const Variant* avx512 = nullptr;   // AVX-512 usable; nullptr on cores without it
    // Features (CpuFeatures::names()) this core does not have but later cores do: a
    // CPU that shows one is not this core, whatever its CPUID model says (a
    // hypervisor may present an older model number than the hardware's).
    const char* lacks = "";
};

// ---------------------------------------------------------------- AMD ----
// Columns: FMA/MUL pipes, ADD pipes, FP pipes (union), datapath bits; FMA, ADD,
// MUL latency; L1 load, L1 store, L2->L1 bytes per cycle; load width; text.
//
// Every Zen core: FP0/FP1 execute FMA and MUL, FP2/FP3 execute FADD, so four FP
// pipes, two of each kind. L2->L1 fills are 32 B/cycle until Zen 5 doubles them.

// Zen 1 / Zen+: 128-bit pipes, a 256-bit op is split in two. FMA 5, FADD 3,
// FMUL 3 cycles. L1: two 128-bit loads and one 128-bit store per cycle.
// Source: AMD SOG for Family 17h (55723), FP unit and load-store unit sections;
// Agner Fog's microarchitecture guide, Zen chapter.
constexpr Core kZen1{"AMD Zen 1", "AMD SOG Fam 17h (55723); Agner Fog microarchitecture guide",
                     {2, 2, 4, 128, 5, 3, 3, 32, 16, 32, 128,
                      "2 FMA/MUL pipes + 2 ADD pipes, 128-bit datapath (256-bit ops take two passes)"}, nullptr, "avx512f avxvnni amx-tile"};

// Zen 2: pipes widened to 256 bits, latencies as Zen 1 (FMA 5, FADD 3, FMUL 3).
// L1: two 256-bit loads and one 256-bit store per cycle.
// Source: AMD SOG for Family 17h Models 30h and later (56305); uops.info (Zen 2).
constexpr Core kZen2{"AMD Zen 2", "AMD SOG Fam 17h 30h+ (56305); uops.info",
                     {2, 2, 4, 256, 5, 3, 3, 64, 32, 32, 256, "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath"}, nullptr, "avx512f avxvnni amx-tile"};

// Zen 3: FMA latency down to 4 (FADD 3, FMUL 3). Three memory ops per cycle, of
// which two can be 256-bit loads; FP stores are limited to one per cycle (SOG
// 19h as quoted in LLVM's X86ScheduleZnver3.td). DESIGN.md's measurements agree
// (8 FMA + 4 ADD ymm chains: two FMA and two FADD pipes).
// Source: AMD SOG for Family 19h (56665), FP unit and load-store unit sections.
constexpr Core kZen3{"AMD Zen 3", "AMD SOG Fam 19h (56665); uops.info",
                     {2, 2, 4, 256, 4, 3, 3, 64, 32, 32, 256, "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath"}, nullptr, "avx512f avxvnni amx-tile"};

// Zen 4: Zen 3's 256-bit pipes and latencies; a 512-bit op occupies its pipe for
// two passes, a 512-bit load takes both vector load slots (64 B/cycle either
// way), a 512-bit store two cycles (one FP store per cycle: AMD's GCC model
// zn4zn5.md). L2->L1 32 B/cycle (AIDA64 on a Ryzen 5 7600X: about 1030 GB/s over
// 6 cores at about 5.3 GHz, i.e. 32 B/cycle per core).
// Source: AMD SOG for Family 19h (56665); GCC config/i386/zn4zn5.md; Chips and
// Cheese "AMD's Zen 4" parts 1-2; numberworld.org Zen 4 AVX-512 teardown.
constexpr Variant kZen4Avx512{2, 2, 4, 256, 4, 3, 3, 64, 32, 32, 256,
                              "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath (512-bit ops take two passes)"};
constexpr Core kZen4{"AMD Zen 4", "AMD SOG Fam 19h (56665); GCC zn4zn5.md; Chips and Cheese",
                     {2, 2, 4, 256, 4, 3, 3, 64, 32, 32, 256,
                      "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath (AVX-512 not usable)"},
                     &kZen4Avx512, "avxvnni avx512fp16 amx-tile"};

// Zen 5 (server Turin and Turin Dense, desktop Granite Ridge, Strix Halo): the
// FP pipes are 512 bits wide. FMA 4, FADD 2, FMUL 3 cycles (FADD 2 as in AMD's
// GCC model for 512-bit adds; that model keeps Zen 4's 3 for 256-bit adds,
// which looks inherited rather than measured: unsure, 2 used for both). L1: two
// 512-bit loads per cycle; two FP store pipes, a 512-bit store taking both
// (64 B/cycle, also as two 256-bit stores); two vector loads per cycle at most,
// so 256-bit code reaches 64 B of loads. L2->L1 64 B/cycle, twice Zen 4 (AMD;
// AIDA64 on a Ryzen 5 9600X: about 1870 GB/s over 6 cores at 5.4 GHz). DESIGN.md
// measured 2 x 64 B L1 loads and 64 B/cycle from L2 on family 1Ah model 2.
// Source: AMD SOG for Family 1Ah (58455); GCC zn4zn5.md; numberworld.org Zen 5
// AVX-512 teardown; Chips and Cheese "AMD's Ryzen 9950X: Zen 5 on desktop".
constexpr Variant kZen5Avx512{2, 2, 4, 512, 4, 2, 3, 128, 64, 64, 512,
                              "2 FMA/MUL pipes + 2 ADD pipes, 512-bit datapath"};
constexpr Core kZen5{"AMD Zen 5", "AMD SOG Fam 1Ah (58455); GCC zn4zn5.md; numberworld.org Zen 5 teardown",
                     {2, 2, 4, 512, 4, 2, 3, 64, 64, 64, 256,
                      "2 FMA/MUL pipes + 2 ADD pipes used at 256 bits of the 512-bit datapath (AVX-512 not usable)"},
                     &kZen5Avx512, "avx512fp16 amx-tile"};

// Zen 5 in the monolithic mobile APUs (Strix Point, Krackan Point): the FPU is
// 256 bits wide and 512-bit ops take two passes, as on Zen 4 (Chips and Cheese,
// "Strix Point: Zen 5 hits mobile" and "Ryzen 9950X": desktop Zen 5 "gets a
// beefed up FPU"; D. Huang's Strix Point tests: halved SIMD throughput and L1
// load bandwidth). Unsure: FADD latency (assumed desktop Zen 5's 2), stores
// (assumed one 256-bit store per cycle, as Zen 4) and L2->L1 (no source: 0).
constexpr Variant kZen5MobileAvx512{
    2, 2, 4, 256, 4, 2, 3, 64, 32, 0, 256,
    "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath (512-bit ops take two passes)"};
constexpr Core kZen5Mobile{"AMD Zen 5 (mobile)", "Chips and Cheese (Strix Point; Ryzen 9950X); D. Huang; GCC zn4zn5.md",
                           {2, 2, 4, 256, 4, 2, 3, 64, 32, 0, 256,
                            "2 FMA/MUL pipes + 2 ADD pipes, 256-bit datapath (AVX-512 not usable)"},
                           &kZen5MobileAvx512, "avx512fp16 amx-tile"};

// Hygon Dhyana (family 18h model 1): AMD's licensed Zen 1 core, figures as Zen 1.
// Later Hygon parts (C86-4G, models 4 and up; GCC and LLVM tune them as their own
// cores) are not described.
constexpr Core kDhyana{"Hygon Dhyana", "AMD SOG Fam 17h (55723) (licensed Zen 1 core)",
                       {2, 2, 4, 128, 5, 3, 3, 32, 16, 32, 128,
                        "Zen 1 core: 2 FMA/MUL pipes + 2 ADD pipes, 128-bit datapath (256-bit ops take two passes)"}, nullptr, "avx512f avxvnni amx-tile"};

// -------------------------------------------------------------- Intel ----
// Skylake and its client successors through Comet Lake: ports 0 and 1 each run
// FMA, MUL and ADD on 256 bits, latency 4 for all three. L1: two 32 B loads and
// one 32 B store per cycle; L2 64 B/cycle peak (the manual gives ~29 sustained).
// Source: Intel 64 and IA-32 Architectures Optimization Reference Manual
// (248966), Skylake client microarchitecture and its cache-parameter table;
// uops.info (SKL: VFMADD231PD, VADDPD, VMULPD on p01, latency 4).
constexpr Core kSkylake{"Intel Skylake", "Intel Optimization Reference Manual (248966); uops.info",
                        {2, 2, 2, 256, 4, 4, 4, 64, 32, 64, 256,
                         "2 FMA ports (p0, p1) that also do ADD and MUL, 256-bit"}, nullptr, "avx512f avxvnni amx-tile"};

// Skylake-SP / Cascade Lake / Cooper Lake (and Skylake-X): for 512-bit ops p0
// and p1 fuse into one 512-bit FMA unit and p5 has a second: two 512-bit
// FMA/ADD/MUL pipes, latency 4. L1: two 64 B loads and one 64 B store per cycle;
// L2 64 B/cycle peak (~52 sustained). Some SKUs (Xeon Bronze/Silver, some Gold
// 5xxx, some Core-X) have only the fused unit: half the 512-bit FLOPs.
// Source: Intel Optimization Reference Manual (248966), Skylake server chapter;
// Tom's Hardware and AnandTech Skylake-SP core/cache articles; uops.info (SKX).
constexpr Variant kSkylakeSpAvx512{
    2, 2, 2, 512, 4, 4, 4, 128, 64, 64, 512,
    "2 FMA units of 512 bits (p0+p1 fused, p5) that also do ADD and MUL (assumed; some SKUs have only one)"};
constexpr Core kSkylakeSp{"Intel Skylake-SP", "Intel Optimization Reference Manual (248966); uops.info",
                          {2, 2, 2, 512, 4, 4, 4, 64, 32, 64, 256,
                           "2 FMA ports (p0, p1) that also do ADD and MUL, used at 256 bits (AVX-512 not usable)"},
                          &kSkylakeSpAvx512, "avx512vbmi avx512fp16 avxvnni amx-tile"};

// Sunny Cove server (Ice Lake-SP/D): FP back end as Skylake-SP, latency 4. L1
// grows to 48 KB with two store ports: two 64 B loads and 64 B of stores per
// cycle (also as two 32 B stores); L2 64 B/cycle peak.
// Source: Intel Optimization Reference Manual (248966), Ice Lake chapter;
// Chips and Cheese "Popping the Hood on Golden Cove" (Sunny Cove, Xeon 8370C).
constexpr Variant kIceLakeSpAvx512{
    2, 2, 2, 512, 4, 4, 4, 128, 64, 64, 512,
    "2 FMA units of 512 bits (p0+p1 fused, p5) that also do ADD and MUL (assumed; some SKUs have only one)"};
constexpr Core kIceLakeSp{"Intel Ice Lake-SP", "Intel Optimization Reference Manual (248966); Chips and Cheese",
                          {2, 2, 2, 512, 4, 4, 4, 64, 64, 64, 256,
                           "2 FMA ports (p0, p1) that also do ADD and MUL, used at 256 bits (AVX-512 not usable)"},
                          &kIceLakeSpAvx512, "avx512bf16 avx512fp16 avxvnni amx-tile"};

// Sunny/Willow/Cypress Cove client (Ice Lake, Tiger Lake, Rocket Lake): only the
// fused p0+p1 unit runs 512-bit ops, so p0/p1 are two 256-bit FMA/ADD/MUL pipes
// and a 512-bit op occupies both: datapath 256. L1 and L2 as Ice Lake server.
// Source: Intel Optimization Reference Manual (248966), Ice Lake client;
// uops.info (ICL, TGL, RKL: 512-bit FMA on p0 only).
constexpr Variant kSunnyCoveClientAvx512{
    2, 2, 2, 256, 4, 4, 4, 128, 64, 64, 512,
    "2 FMA ports (p0, p1) of 256 bits that also do ADD and MUL; a 512-bit op takes both (one 512-bit FMA per cycle)"};
constexpr Variant kSunnyCoveClientAvx2{2, 2, 2, 256, 4, 4, 4, 64, 64, 64, 256,
                                       "2 FMA ports (p0, p1) that also do ADD and MUL, 256-bit (AVX-512 not usable)"};
constexpr const char* kIntelManual = "Intel Optimization Reference Manual (248966); uops.info";
constexpr Core kIceLakeClient{"Intel Ice Lake (client)", kIntelManual, kSunnyCoveClientAvx2, &kSunnyCoveClientAvx512, "avx512bf16 avx512fp16 avxvnni amx-tile"};
constexpr Core kTigerLake{"Intel Tiger Lake", kIntelManual, kSunnyCoveClientAvx2, &kSunnyCoveClientAvx512, "avx512bf16 avx512fp16 avxvnni amx-tile"};
constexpr Core kRocketLake{"Intel Rocket Lake", kIntelManual, kSunnyCoveClientAvx2, &kSunnyCoveClientAvx512, "avx512bf16 avx512fp16 avxvnni amx-tile"};

// Golden Cove / Raptor Cove / Redwood Cove P-cores in client parts (Alder,
// Raptor, Bartlett, Meteor Lake): FMA and MUL on p0/p1 (latency 4); new fast FP
// adders on p1 and p5 (latency 3 in LLVM's AlderlakeP model, built from Intel's
// data), so three FP ports at 256 bits. L1: three 256-bit loads (or two 512-bit)
// and two 256-bit stores (or one 512-bit) per cycle; L2 64 B/cycle. AVX-512 is
// fused off; where early firmware enabled it, a 512-bit op uses p0+p1 fused
// (modelled as two passes on the 256-bit pipes). E-cores are not described.
// Source: Intel Optimization Reference Manual (248966), Golden Cove chapter;
// LLVM X86SchedAlderlakeP.td; Chips and Cheese "Popping the Hood on Golden Cove".
constexpr Variant kGoldenCoveClientAvx512{
    2, 2, 3, 256, 4, 3, 4, 128, 64, 64, 512,
    "2 FMA/MUL ports (p0, p1) + ADD on p1 and p5, 256-bit; a 512-bit op takes two passes (E-cores not described)"};
constexpr Variant kGoldenCoveClientAvx2{
    2, 2, 3, 256, 4, 3, 4, 96, 64, 64, 256,
    "2 FMA/MUL ports (p0, p1) + ADD on p1 and p5 (3 FP ports), 256-bit (E-cores not described)"};
constexpr const char* kGoldenCoveSource = "Intel Optimization Reference Manual (248966); LLVM X86SchedAlderlakeP.td";
constexpr Core kAlderLake{"Intel Alder Lake P-core (Golden Cove)", kGoldenCoveSource, kGoldenCoveClientAvx2,
                          &kGoldenCoveClientAvx512, "amx-tile"};
constexpr Core kRaptorLake{"Intel Raptor Lake P-core (Raptor Cove)", kGoldenCoveSource, kGoldenCoveClientAvx2,
                           &kGoldenCoveClientAvx512, "amx-tile"};
constexpr Core kMeteorLake{"Intel Meteor Lake P-core (Redwood Cove)", kGoldenCoveSource, kGoldenCoveClientAvx2,
                           &kGoldenCoveClientAvx512, "amx-tile"};

// Golden Cove / Redwood Cove server (Sapphire, Emerald, Granite Rapids): the
// client core plus a 512-bit FMA unit on p5. At 512 bits FMA/MUL and ADD run on
// p0 (p0+p1 fused) and p5, ADD latency 4 (LLVM's SapphireRapids model: 512-bit
// FADD on p05, latency 4); at 256 bits ADDs also use the p1/p5 fast adders
// (three FP ports, latency 3). L1: two 64 B loads and one 64 B store per cycle
// at 512 bits, as the client core at 256; L2 64 B/cycle.
// Source: Intel Optimization Reference Manual (248966), Golden Cove and Sapphire
// Rapids sections; LLVM X86SchedSapphireRapids.td; uops.info (EMR).
constexpr Variant kGoldenCoveServerAvx2{
    2, 2, 3, 512, 4, 3, 4, 96, 64, 64, 256,
    "2 FMA/MUL ports (p0, p1) + ADD on p1 and p5 (3 FP ports), used at 256 bits (AVX-512 not usable)"};
constexpr Variant kGoldenCoveServerAvx512{
    2, 2, 2, 512, 4, 4, 4, 128, 64, 64, 512,
    "2 FMA units of 512 bits (p0+p1 fused, p5) that also do ADD and MUL; at 256 bits ADDs also use the p1/p5 "
    "fast adders",
    &kGoldenCoveServerAvx2};
constexpr const char* kRapidsSource = "Intel Optimization Reference Manual (248966); LLVM X86SchedSapphireRapids.td";
constexpr Core kSapphireRapids{"Intel Sapphire Rapids", kRapidsSource, kGoldenCoveServerAvx2,
                               &kGoldenCoveServerAvx512};
constexpr Core kEmeraldRapids{"Intel Emerald Rapids", kRapidsSource, kGoldenCoveServerAvx2, &kGoldenCoveServerAvx512};
constexpr Core kGraniteRapids{"Intel Granite Rapids", kRapidsSource, kGoldenCoveServerAvx2, &kGoldenCoveServerAvx512};

// --------------------------------------------------------- cache sizes ----
// The data caches of each core's products, per instance: L1d and L2 per core,
// L3 per CCX/CCD (AMD) or per socket/die (Intel), the range and the sizes the
// products ship with. Used only to doubt what a machine reports (a guest may
// say anything), never as its size when a measurement says otherwise.
// Sources: AMD SOGs 55723, 56305, 56665, 58455 (cache chapters) and AMD's
// product pages (X3D parts: 96 MiB per CCD); Intel Optimization Reference
// Manual 248966 (cache-parameter tables) and Intel ARK (L3 per SKU: 1.375
// MiB/core Skylake-SP, 1.5 Ice Lake-SP, 1.875 Sapphire Rapids, up to 320 MiB
// Emerald Rapids and 504 MiB Granite Rapids per socket).
constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
struct CoreCaches {
    const Core* core;
    std::uint64_t l1d, l2_min, l2_max, l3_min, l3_max;
    std::array<std::uint64_t, 4> l3_known;  // the commonest first; 0: unused slot
};
constexpr std::array kCoreCaches{
    CoreCaches{&kZen1, 32 * KiB, 512 * KiB, 512 * KiB, 2 * MiB, 8 * MiB, {8 * MiB, 4 * MiB}},
    CoreCaches{&kDhyana, 32 * KiB, 512 * KiB, 512 * KiB, 2 * MiB, 8 * MiB, {8 * MiB}},
    CoreCaches{&kZen2, 32 * KiB, 512 * KiB, 512 * KiB, 2 * MiB, 16 * MiB, {16 * MiB, 4 * MiB, 8 * MiB}},
    CoreCaches{&kZen3, 32 * KiB, 512 * KiB, 512 * KiB, 8 * MiB, 96 * MiB, {32 * MiB, 16 * MiB, 96 * MiB}},
    CoreCaches{&kZen4, 32 * KiB, 1 * MiB, 1 * MiB, 8 * MiB, 96 * MiB, {32 * MiB, 16 * MiB, 96 * MiB}},
    CoreCaches{&kZen5, 48 * KiB, 1 * MiB, 1 * MiB, 16 * MiB, 96 * MiB, {32 * MiB, 96 * MiB}},
    CoreCaches{&kZen5Mobile, 48 * KiB, 1 * MiB, 1 * MiB, 8 * MiB, 16 * MiB, {16 * MiB, 8 * MiB}},
    CoreCaches{&kSkylake, 32 * KiB, 256 * KiB, 256 * KiB, 2 * MiB, 20 * MiB, {}},
    CoreCaches{&kSkylakeSp, 32 * KiB, 1 * MiB, 1 * MiB, 8 * MiB, 40 * MiB, {}},
    CoreCaches{&kIceLakeSp, 48 * KiB, 1280 * KiB, 1280 * KiB, 8 * MiB, 60 * MiB, {}},
    CoreCaches{&kIceLakeClient, 48 * KiB, 512 * KiB, 512 * KiB, 4 * MiB, 12 * MiB, {}},
    CoreCaches{&kTigerLake, 48 * KiB, 1280 * KiB, 1280 * KiB, 4 * MiB, 24 * MiB, {}},
    CoreCaches{&kRocketLake, 48 * KiB, 512 * KiB, 512 * KiB, 8 * MiB, 16 * MiB, {}},
    CoreCaches{&kAlderLake, 48 * KiB, 1280 * KiB, 1280 * KiB, 4 * MiB, 30 * MiB, {}},
    CoreCaches{&kRaptorLake, 48 * KiB, 1280 * KiB, 2 * MiB, 4 * MiB, 36 * MiB, {}},
    CoreCaches{&kMeteorLake, 48 * KiB, 2 * MiB, 2 * MiB, 4 * MiB, 24 * MiB, {}},
    // Identified by AMX, a Sapphire Rapids class core may be any of the three.
    CoreCaches{&kSapphireRapids, 48 * KiB, 2 * MiB, 2 * MiB, 8 * MiB, 504 * MiB, {}},
    CoreCaches{&kEmeraldRapids, 48 * KiB, 2 * MiB, 2 * MiB, 8 * MiB, 320 * MiB, {}},
    CoreCaches{&kGraniteRapids, 48 * KiB, 2 * MiB, 2 * MiB, 8 * MiB, 504 * MiB, {}},
};

std::optional<CacheSizes> cache_sizes_of(const Core& core) {
    for (const CoreCaches& row : kCoreCaches) {
        if (row.core != &core) continue;
        CacheSizes sizes{row.l1d, row.l2_min, row.l2_max, row.l3_min, row.l3_max, {}};
        for (const std::uint64_t bytes : row.l3_known)
            if (bytes) sizes.l3_known.push_back(bytes);
        return sizes;
    }
    return std::nullopt;
}

// ------------------------------------------------------------ lookup ----
enum class Vendor { amd, hygon, intel };

struct ModelRange {
    Vendor vendor;
    int family;
    int first_model, last_model;
    const Core* core;
};

// Model ranges: AMD from Linux arch/x86/kernel/cpu/amd.c (bsp_init_amd, the
// X86_FEATURE_ZEN1..ZEN6 split); Zen 5's mobile APUs are models 20h-2Fh (Strix
// Point) and 60h-6Fh (Krackan Point), Strix Halo is 70h-7Fh. Family 1Ah models
// 50h-5Fh, 80h-AFh and C0h-CFh are Zen 6: not described. Intel from Linux
// arch/x86/include/asm/intel-family.h.
constexpr std::array kRanges{
    ModelRange{Vendor::amd, 0x17, 0x00, 0x2F, &kZen1},
    ModelRange{Vendor::amd, 0x17, 0x50, 0x5F, &kZen1},
    ModelRange{Vendor::amd, 0x17, 0x30, 0x4F, &kZen2},
    ModelRange{Vendor::amd, 0x17, 0x60, 0x7F, &kZen2},
    ModelRange{Vendor::amd, 0x17, 0x90, 0x91, &kZen2},
    ModelRange{Vendor::amd, 0x17, 0xA0, 0xAF, &kZen2},
    ModelRange{Vendor::amd, 0x19, 0x00, 0x0F, &kZen3},
    ModelRange{Vendor::amd, 0x19, 0x20, 0x5F, &kZen3},
    ModelRange{Vendor::amd, 0x19, 0x10, 0x1F, &kZen4},
    ModelRange{Vendor::amd, 0x19, 0x60, 0xAF, &kZen4},
    ModelRange{Vendor::amd, 0x1A, 0x00, 0x1F, &kZen5},
    ModelRange{Vendor::amd, 0x1A, 0x20, 0x2F, &kZen5Mobile},
    ModelRange{Vendor::amd, 0x1A, 0x40, 0x4F, &kZen5},
    ModelRange{Vendor::amd, 0x1A, 0x60, 0x6F, &kZen5Mobile},
    ModelRange{Vendor::amd, 0x1A, 0x70, 0x7F, &kZen5},
    ModelRange{Vendor::hygon, 0x18, 0x01, 0x01, &kDhyana},
    ModelRange{Vendor::intel, 6, 0x4E, 0x4E, &kSkylake},
    ModelRange{Vendor::intel, 6, 0x5E, 0x5E, &kSkylake},
    ModelRange{Vendor::intel, 6, 0x8E, 0x8E, &kSkylake},  // Kaby/Coffee/Whiskey/Amber/Comet Lake mobile
    ModelRange{Vendor::intel, 6, 0x9E, 0x9E, &kSkylake},  // Kaby/Coffee Lake desktop
    ModelRange{Vendor::intel, 6, 0xA5, 0xA6, &kSkylake},  // Comet Lake
    ModelRange{Vendor::intel, 6, 0x55, 0x55, &kSkylakeSp},
    ModelRange{Vendor::intel, 6, 0x6A, 0x6A, &kIceLakeSp},
    ModelRange{Vendor::intel, 6, 0x6C, 0x6C, &kIceLakeSp},
    ModelRange{Vendor::intel, 6, 0x7D, 0x7E, &kIceLakeClient},
    ModelRange{Vendor::intel, 6, 0x8C, 0x8D, &kTigerLake},
    ModelRange{Vendor::intel, 6, 0xA7, 0xA7, &kRocketLake},
    ModelRange{Vendor::intel, 6, 0x8F, 0x8F, &kSapphireRapids},
    ModelRange{Vendor::intel, 6, 0xCF, 0xCF, &kEmeraldRapids},
    ModelRange{Vendor::intel, 6, 0xAD, 0xAE, &kGraniteRapids},
    ModelRange{Vendor::intel, 6, 0x97, 0x97, &kAlderLake},
    ModelRange{Vendor::intel, 6, 0x9A, 0x9A, &kAlderLake},
    ModelRange{Vendor::intel, 6, 0xB7, 0xB7, &kRaptorLake},
    ModelRange{Vendor::intel, 6, 0xBA, 0xBA, &kRaptorLake},
    ModelRange{Vendor::intel, 6, 0xBF, 0xBF, &kRaptorLake},
    ModelRange{Vendor::intel, 6, 0xD7, 0xD7, &kRaptorLake},  // Bartlett Lake: Raptor Cove only
    ModelRange{Vendor::intel, 6, 0xAA, 0xAA, &kMeteorLake},
    ModelRange{Vendor::intel, 6, 0xAC, 0xAC, &kMeteorLake},
};

std::optional<Vendor> vendor_of(const std::string& cpuid_vendor) {
    if (cpuid_vendor == "AuthenticAMD") return Vendor::amd;
    if (cpuid_vendor == "HygonGenuine") return Vendor::hygon;
    if (cpuid_vendor == "GenuineIntel") return Vendor::intel;
    return std::nullopt;
}

// Hygon parts share AMD's family numbering, so AMD's rows apply to them too.
bool matches(const ModelRange& range, Vendor vendor) {
    return range.vendor == vendor || (vendor == Vendor::hygon && range.vendor == Vendor::amd);
}

} // namespace

namespace {

const ModelRange* table_row(Vendor vendor, int family, int model) {
    for (const ModelRange& range : kRanges)
        if (matches(range, vendor) && range.family == family && model >= range.first_model &&
            model <= range.last_model)
            return &range;
    return nullptr;
}

Microarch describe(const Core& core, bool has_avx512, const std::string& name) {
    const Variant& x = (has_avx512 && core.avx512) ? *core.avx512 : core.avx2;
    Microarch m;
    m.name = name;
    m.source = core.source;
    m.fp = FpPipes{x.fma_pipes, x.add_pipes, x.fp_pipes, x.datapath_bits, x.fma_latency, x.add_latency,
                   x.mul_latency, m.name + ": " + x.what};
    m.ports = CorePorts{x.l1_load, x.l1_store, x.l2_to_l1, x.load_bits};
    m.caches = cache_sizes_of(core);
    if (x.narrow) {
        const Variant& n = *x.narrow;
        m.fp_256 = FpPipes{n.fma_pipes, n.add_pipes, n.fp_pipes, n.datapath_bits, n.fma_latency, n.add_latency,
                           n.mul_latency, m.name + " at 256 bits and below: " + n.what};
    }
    return m;
}

bool has_feature(const CpuIdentity& cpu, std::string_view name) {
    return std::find(cpu.features.begin(), cpu.features.end(), name) != cpu.features.end();
}

// The first feature in `core.lacks` that the CPU has, or "".
std::string contradicting_feature(const Core& core, const CpuIdentity& cpu) {
    std::string_view lacks = core.lacks;
    while (!lacks.empty()) {
        const auto space = lacks.find(' ');
        const std::string_view name = lacks.substr(0, space);
        if (has_feature(cpu, name)) return std::string(name);
        lacks = space == std::string_view::npos ? std::string_view{} : lacks.substr(space + 1);
    }
    return {};
}

} // namespace

std::optional<Microarch> microarch_for(const std::string& vendor, int family, int model, bool has_avx512) {
    const std::optional<Vendor> v = vendor_of(vendor);
    if (!v) return std::nullopt;
    const ModelRange* row = table_row(*v, family, model);
    if (!row) return std::nullopt;
    return describe(*row->core, has_avx512, row->core->name);
}

std::optional<Microarch> microarch_named(const std::string& name, bool has_avx512) {
    if (name.empty()) return std::nullopt;
    for (const Core* core : {&kSapphireRapids}) {  // identified by a feature, not by a row
        if (name.rfind(core->name, 0) == 0) return describe(*core, has_avx512, name);
    }
    for (const ModelRange& range : kRanges)
        if (name == range.core->name) return describe(*range.core, has_avx512, name);
    return std::nullopt;
}

MicroarchLookup identify_microarch(const CpuIdentity& cpu) {
    MicroarchLookup out;
    const std::optional<Vendor> v = vendor_of(cpu.vendor);
    if (!v) return out;
    const bool avx512 = has_feature(cpu, "avx512f");
    const ModelRange* row = table_row(*v, cpu.family, cpu.model);
    std::string contradiction;
    if (row) {
        contradiction = contradicting_feature(*row->core, cpu);
        if (contradiction.empty()) {
            out.arch = describe(*row->core, avx512, row->core->name);
            return out;
        }
    }
    // AMX exists only on Intel's server cores from Sapphire Rapids on (Intel
    // ISA Extensions Reference 319433, AMX chapter; Linux intel-family.h): a
    // family-6 CPU with it has the Golden Cove server back end, whatever model
    // number a hypervisor shows. The figures of Sapphire, Emerald and Granite
    // Rapids are the same row in this table.
    const bool rapids_by_amx = *v == Vendor::intel && cpu.family == 6 && has_feature(cpu, "amx-tile");
    const std::string cpuid = fmt::format("CPUID family {:#x} model {:#x}", cpu.family, cpu.model);
    if (rapids_by_amx) {
        out.arch = describe(kSapphireRapids, avx512, "Intel Sapphire Rapids class (identified by AMX)");
        out.note = row ? fmt::format("{} names {}, which has no {}: the model number is not the hardware's (a "
                                     "hypervisor's CPU model); identified by its AMX as a Sapphire Rapids class "
                                     "server core (Sapphire, Emerald or Granite Rapids share these figures)",
                                     cpuid, row->core->name, contradiction)
                       : fmt::format("{} is not in the table; identified by its AMX as a Sapphire Rapids class "
                                     "server core (Sapphire, Emerald or Granite Rapids share these figures)",
                                     cpuid);
        return out;
    }
    if (row)
        out.note = fmt::format("{} names {}, but this CPU has {}, which {} lacks: the model number is not the "
                               "hardware's (a hypervisor's CPU model?), so the table is not used",
                               cpuid, row->core->name, contradiction, row->core->name);
    return out;
}

} // namespace roofline
