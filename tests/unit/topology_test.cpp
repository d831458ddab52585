// Topology, CPU features, clock and environment on the machine running the tests.
// Only sanity bands for timings: the clock test must pass on any busy CI host.
#include "core/evex_code.hpp"
#include "core/microarch.hpp"
#include "core/peak.hpp"
#include "topo/clock.hpp"
#include "topo/cpu_features.hpp"
#include "topo/environment.hpp"
#include "topo/topology.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <thread>

namespace roofline {
namespace {

TEST(NominalClock, ParsesGigahertzAfterAt) {
    EXPECT_DOUBLE_EQ(nominal_clock_from_brand("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"), 2.50);
    EXPECT_DOUBLE_EQ(nominal_clock_from_brand("Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz"), 3.40);
    EXPECT_DOUBLE_EQ(nominal_clock_from_brand("Some CPU @3GHz"), 3.0);
}

TEST(NominalClock, ConvertsMegahertz) {
    EXPECT_DOUBLE_EQ(nominal_clock_from_brand("Old CPU @ 800MHz"), 0.8);
}

TEST(NominalClock, ZeroWithoutAFrequency) {
    EXPECT_EQ(nominal_clock_from_brand("AMD EPYC 7763 64-Core Processor"), 0);
    EXPECT_EQ(nominal_clock_from_brand("AMD EPYC"), 0);
    EXPECT_EQ(nominal_clock_from_brand(""), 0);
    EXPECT_EQ(nominal_clock_from_brand("Weird CPU @ fast"), 0);
    EXPECT_EQ(nominal_clock_from_brand("Ryzen 3.4GHz without the at sign"), 0);
}

// A reading no x86 core runs at (a chain that ran faster than one add a cycle) is no clock: 0,
// with why; a true reading, or none, passes as it is.
TEST(PlausibleClock, AReadingAboveAnyCoreIsNoClock) {
    std::string why;
    EXPECT_DOUBLE_EQ(plausible_clock_ghz(4.05, &why), 4.05);
    EXPECT_TRUE(why.empty());
    EXPECT_DOUBLE_EQ(plausible_clock_ghz(6.2, &why), 6.2);  // the fastest boost sold
    EXPECT_DOUBLE_EQ(plausible_clock_ghz(0, &why), 0);
    EXPECT_TRUE(why.empty());
    EXPECT_DOUBLE_EQ(plausible_clock_ghz(8.1, &why), 0);  // a 4.05 GHz core retiring two adds a cycle
    EXPECT_NE(why.find("the core clock read 8.10 GHz, above the 7.0 GHz no x86 core runs at"), std::string::npos) << why;
    EXPECT_NE(why.find("theoretical figures, which need one, are unknown"), std::string::npos) << why;
    EXPECT_DOUBLE_EQ(plausible_clock_ghz(8.1), 0);  // no reason asked for
}

TEST(CpuFeatures, ImplicationsHold) {
    const CpuFeatures f = detect_cpu_features();
#if defined(__x86_64__)
    EXPECT_FALSE(f.vendor.empty());
    EXPECT_TRUE(f.sse2) << "every x86-64 CPU has SSE2";
    EXPECT_GT(f.family, 0);
    // "a implies b" written as !a || b.
    EXPECT_TRUE(!f.avx2 || f.avx);
    EXPECT_TRUE(!f.avx || f.sse2);
    EXPECT_TRUE(!f.avx || f.os_saves_ymm);
    EXPECT_TRUE(!f.fma || f.avx);
    EXPECT_TRUE(!f.avx512f || (f.os_saves_zmm && f.avx2));
    EXPECT_TRUE(!(f.avx512vl || f.avx512dq || f.avx512bw) || f.avx512f);
    EXPECT_TRUE(!f.hypervisor || !f.hypervisor_vendor.empty());
#endif
}

// CPUID is the one CPU identity (the perf engine picks its event file by it):
// it must name the CPU as the kernel does in /proc/cpuinfo.
TEST(CpuFeatures, IdentityAgreesWithTheKernel) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    if (!cpuinfo) GTEST_SKIP() << "no /proc/cpuinfo";
    std::map<std::string, std::string> first;
    for (std::string line; std::getline(cpuinfo, line) && !line.empty();) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        auto key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        first.emplace(key, line.substr(std::min(line.size(), colon + 2)));
    }
    if (!first.count("vendor_id")) GTEST_SKIP() << "not an x86 /proc/cpuinfo";
    const auto f = roofline::detect_cpu_features();
    EXPECT_EQ(f.vendor, first["vendor_id"]);
    EXPECT_EQ(f.family, std::stoi(first["cpu family"]));
    EXPECT_EQ(f.model, std::stoi(first["model"]));
}

TEST(CpuFeatures, NamesHaveNoDuplicatesAndAgreeWithHas) {
    const CpuFeatures f = detect_cpu_features();
    const std::vector<std::string> names = f.names();
    const std::set<std::string> unique(names.begin(), names.end());
    EXPECT_EQ(unique.size(), names.size());
    for (const std::string& name : names) EXPECT_TRUE(f.has(name)) << name;
    for (const char* name : {"sse2", "avx", "avx2", "fma", "avx512f", "neon", "sve"})
        EXPECT_EQ(f.has(name), unique.count(name) == 1) << name;
    EXPECT_FALSE(f.has("no-such-feature"));
}

namespace {
std::vector<std::string> avx512_names(const CpuFeatures& f) {
    std::vector<std::string> out;
    for (const auto& name : f.names())
        if (name.rfind("avx512", 0) == 0) out.push_back(name);
    return out;
}
} // namespace

// Every AVX-512 subset of CPUID leaf 7 (Intel SDM vol. 2), each only where XCR0 says the OS
// saves the opmask and ZMM state, and only beside AVX-512 F.
TEST(CpuFeatures, EveryAvx512SubsetFromItsBitWhereTheOsSavesZmm) {
    IsaRegisters r;
    r.leaf1_ecx = (1u << 28) | (1u << 12) | (1u << 29) | (1u << 27);  // avx, fma, f16c, osxsave
    r.leaf1_edx = (1u << 25) | (1u << 26);                             // sse, sse2
    r.leaf7_ebx = (1u << 5) | (1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) |
                  (1u << 30) | (1u << 31);
    r.leaf7_ecx = (1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14);
    r.leaf7_edx = (1u << 2) | (1u << 3) | (1u << 8) | (1u << 23);
    r.leaf7_1_eax = (1u << 4) | (1u << 5);
    r.xcr0 = 0xe7;  // x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
    CpuFeatures f;
    set_isa_flags(f, r);
    const std::vector<std::string> all{"avx512f",      "avx512dq",        "avx512cd",          "avx512bw",
                                       "avx512vl",     "avx512er",        "avx512pf",          "avx5124vnniw",
                                       "avx5124fmaps", "avx512ifma",      "avx512vbmi",        "avx512vnni",
                                       "avx512vbmi2",  "avx512bitalg",    "avx512vpopcntdq",   "avx512vp2intersect",
                                       "avx512bf16",   "avx512fp16"};
    EXPECT_EQ(avx512_names(f), all);
    EXPECT_TRUE(f.has("avx2") && f.has("avxvnni") && f.has("fma"));

    // One bit each: Ice Lake's trio, Tiger Lake's vp2intersect, Cooper Lake's bf16 (leaf 7.1).
    for (const auto& [reg, index, name] : std::vector<std::tuple<std::uint32_t IsaRegisters::*, int, std::string>>{
             {&IsaRegisters::leaf7_ecx, 6, "avx512vbmi2"},
             {&IsaRegisters::leaf7_ecx, 12, "avx512bitalg"},
             {&IsaRegisters::leaf7_ecx, 14, "avx512vpopcntdq"},
             {&IsaRegisters::leaf7_edx, 8, "avx512vp2intersect"},
             {&IsaRegisters::leaf7_1_eax, 5, "avx512bf16"}}) {
        IsaRegisters one;
        one.leaf1_ecx = r.leaf1_ecx;
        one.leaf7_ebx = 1u << 16;
        one.xcr0 = r.xcr0;
        one.*reg = 1u << index;
        CpuFeatures g;
        set_isa_flags(g, one);
        EXPECT_EQ(avx512_names(g), (std::vector<std::string>{"avx512f", name})) << name;
    }

    // The OS saves ymm but not zmm: AVX2 is usable, no AVX-512 subset is.
    r.xcr0 = 0x7;
    CpuFeatures no_zmm;
    set_isa_flags(no_zmm, r);
    EXPECT_TRUE(avx512_names(no_zmm).empty()) << ::testing::PrintToString(no_zmm.names());
    EXPECT_TRUE(no_zmm.has("avx2"));
    // Only part of the AVX-512 state (opmask without Hi16_ZMM): none either.
    r.xcr0 = 0x67;
    CpuFeatures part;
    set_isa_flags(part, r);
    EXPECT_TRUE(avx512_names(part).empty());
    // No OSXSAVE: nothing of AVX at all.
    r.xcr0.reset();
    CpuFeatures none;
    set_isa_flags(none, r);
    EXPECT_FALSE(none.has("avx"));
    EXPECT_TRUE(avx512_names(none).empty());
    EXPECT_TRUE(none.has("sse2"));
    // Subsets without AVX-512 F: not usable (every one extends F).
    r.xcr0 = 0xe7;
    r.leaf7_ebx &= ~(1u << 16);
    CpuFeatures no_f;
    set_isa_flags(no_f, r);
    EXPECT_TRUE(avx512_names(no_f).empty()) << ::testing::PrintToString(no_f.names());
}

namespace {
// A CPU with AVX2 and XCR0 saving every AVX-512 state component, and the AVX10 bit
// (CPUID leaf 7 subleaf 1, EDX bit 19) and leaf 0x24's EBX as given; no legacy AVX-512 bit.
IsaRegisters avx10_registers(std::uint32_t leaf24_ebx, bool avx10_bit = true, std::uint64_t xcr0 = 0xe7) {
    IsaRegisters r;
    r.leaf1_ecx = (1u << 28) | (1u << 12) | (1u << 27);  // avx, fma, osxsave
    r.leaf1_edx = (1u << 25) | (1u << 26);               // sse, sse2
    r.leaf7_ebx = 1u << 5;                               // avx2
    r.leaf7_1_edx = avx10_bit ? 1u << 19 : 0u;
    r.leaf24_ebx = leaf24_ebx;
    r.xcr0 = xcr0;
    return r;
}
std::vector<std::string> avx10_names(const CpuFeatures& f) {
    std::vector<std::string> out;
    for (const auto& name : f.names())
        if (name.rfind("avx10", 0) == 0) out.push_back(name);
    return out;
}
} // namespace

// Intel AVX10 (Intel AVX10 Architecture Specification, 355989): leaf 0x24's EBX gives the version
// (bits 7:0) and the vector lengths (bit 16: 128, 17: 256, 18: 512). At 512 bits it is AVX-512
// for choosing code (the AVX-512 subsets AVX10.1 holds are set even with no legacy bit, as
// the bench's AVX-512 kernels ask for F, DQ and VL); stopping at 256 bits, no AVX-512 subset.
TEST(CpuFeatures, Avx10DecodedFromLeaf24) {
    const std::vector<std::string> avx10_1_subsets{"avx512f",    "avx512dq",   "avx512cd",     "avx512bw",
                                                   "avx512vl",   "avx512ifma", "avx512vbmi",   "avx512vnni",
                                                   "avx512vbmi2", "avx512bitalg", "avx512vpopcntdq",
                                                   "avx512bf16", "avx512fp16"};
    // Granite Rapids' AVX10.1 at 128, 256 and 512 bits.
    CpuFeatures gnr;
    set_isa_flags(gnr, avx10_registers(0x00070001));
    EXPECT_EQ(gnr.avx10_version, 1);
    EXPECT_EQ(gnr.avx10_vector_bits, 512);
    EXPECT_EQ(avx10_names(gnr), (std::vector<std::string>{"avx10.1-256", "avx10.1-512"}));
    EXPECT_EQ(avx512_names(gnr), avx10_1_subsets);
    EXPECT_TRUE(gnr.avx512f && gnr.avx512dq && gnr.avx512vl && gnr.os_saves_zmm);  // bench's AVX-512 kernels run
    EXPECT_FALSE(gnr.avx512er || gnr.avx512pf || gnr.avx512vp2intersect);          // not in AVX10.1
    EXPECT_EQ(isa_level(gnr.names()), "avx512");

    // AVX10.2 at 512 bits holds AVX10.1; a later version holds both.
    CpuFeatures v2;
    set_isa_flags(v2, avx10_registers(0x00070002));
    EXPECT_EQ(avx10_names(v2), (std::vector<std::string>{"avx10.1-256", "avx10.1-512", "avx10.2-256", "avx10.2-512"}));
    CpuFeatures v3;
    set_isa_flags(v3, avx10_registers(0x00070003));
    EXPECT_EQ(v3.avx10_version, 3);
    EXPECT_EQ(avx10_names(v3), avx10_names(v2));

    // AVX10 limited to 256 bits (128 and 256 only): EVEX code at 256 bits, never 512-bit code.
    CpuFeatures narrow;
    set_isa_flags(narrow, avx10_registers(0x00030002));
    EXPECT_EQ(narrow.avx10_vector_bits, 256);
    EXPECT_EQ(avx10_names(narrow), (std::vector<std::string>{"avx10.1-256", "avx10.2-256"}));
    EXPECT_TRUE(avx512_names(narrow).empty()) << ::testing::PrintToString(narrow.names());
    EXPECT_TRUE(narrow.has("avx2"));
    EXPECT_EQ(isa_level(narrow.names()), "avx10/256");
    // Length bits all clear: still the 256 bits every AVX10 runs, not 512.
    CpuFeatures no_lengths;
    set_isa_flags(no_lengths, avx10_registers(0x00000001));
    EXPECT_EQ(no_lengths.avx10_vector_bits, 256);
    EXPECT_TRUE(avx512_names(no_lengths).empty());

    // The microarchitecture table takes AVX10/512 as AVX-512 (Granite Rapids' 512-bit FMA
    // units) and AVX10/256 as not (its 256-bit figures).
    const auto gnr_arch = identify_microarch({"GenuineIntel", 6, 0xAD, gnr.names()}).arch;
    ASSERT_TRUE(gnr_arch.has_value());
    EXPECT_DOUBLE_EQ(best_flops_per_cycle(gnr_arch->fp, true, true, false, 512, 64), 32);
    const auto narrow_arch = identify_microarch({"GenuineIntel", 6, 0xAD, narrow.names()}).arch;
    ASSERT_TRUE(narrow_arch.has_value());
    EXPECT_EQ(narrow_arch->ports.load_vector_bits, 256);

    // What is not AVX10: leaf 0x24 without the leaf 7 bit; the bit with version 0 (no leaf
    // 0x24); an OS that saves ymm but not the opmask and ZMM state (nor part of it).
    for (const auto& [r, why] : std::vector<std::pair<IsaRegisters, std::string>>{
             {avx10_registers(0x00070001, false), "no CPUID.7.1:EDX[19]"},
             {avx10_registers(0x00070000), "version 0"},
             {avx10_registers(0x00070001, true, 0x7), "XCR0 without AVX-512 state"},
             {avx10_registers(0x00070001, true, 0x67), "XCR0 without Hi16_ZMM"}}) {
        CpuFeatures f;
        set_isa_flags(f, r);
        EXPECT_EQ(f.avx10_version, 0) << why;
        EXPECT_EQ(f.avx10_vector_bits, 0) << why;
        EXPECT_TRUE(avx10_names(f).empty()) << why;
        EXPECT_TRUE(avx512_names(f).empty()) << why;
        EXPECT_TRUE(f.has("avx2")) << why;
    }
    // No OSXSAVE at all: nothing of AVX10 (nor AVX).
    IsaRegisters no_xsave = avx10_registers(0x00070001);
    no_xsave.xcr0.reset();
    CpuFeatures none;
    set_isa_flags(none, no_xsave);
    EXPECT_TRUE(avx10_names(none).empty());
    EXPECT_FALSE(none.has("avx"));

    // A CPU with both the legacy AVX-512 bits and AVX10/512 (as Granite Rapids reports): the
    // legacy subsets outside AVX10.1 stay as their bits say.
    IsaRegisters both = avx10_registers(0x00070001);
    both.leaf7_ebx |= 1u << 16;
    both.leaf7_edx |= 1u << 8;  // vp2intersect
    CpuFeatures b;
    set_isa_flags(b, both);
    EXPECT_TRUE(b.avx512vp2intersect);
    EXPECT_TRUE(b.has("avx10.1-512"));
}

// What CPUID and XCR0 say here agrees with the kernel's flags (which it clears too where the
// OS does not save a feature's state): Linux spells them with underscores (avx512_vbmi2,
// avx_vnni, sse4_1). sse3 (the kernel's "pni"), amx-tile (ours is the hardware's bit, the
// kernel's also needs the OS to enable the tiles) and AVX10 (the kernel shows no flag for it:
// its X86_FEATURE_AVX10 is KVM's own, arch/x86/kvm/reverse_cpuid.h) are left out.
TEST(CpuFeatures, FlagsAgreeWithProcCpuinfo) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    if (!cpuinfo) GTEST_SKIP() << "no /proc/cpuinfo";
    std::set<std::string> flags;
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        for (std::string w; words >> w;) {
            w.erase(std::remove(w.begin(), w.end(), '_'), w.end());
            flags.insert(w);
        }
        break;  // the first CPU's
    }
    if (flags.empty()) GTEST_SKIP() << "no flags line (not x86)";
    const CpuFeatures f = detect_cpu_features();
    int compared = 0;
    for (std::string name : CpuFeatures::known_names()) {
        if (name == "sse3" || name == "amx-tile" || name == "neon" || name == "sve") continue;
        if (name.rfind("avx10", 0) == 0) continue;  // Linux keeps its AVX10 bit for KVM, no flag
        std::string spelled = name;
        std::erase_if(spelled, [](char c) { return c == '.' || c == '-'; });
        EXPECT_EQ(f.has(name), flags.count(spelled) == 1) << name << " (/proc/cpuinfo: " << spelled << ")";
        ++compared;
    }
    EXPECT_GE(compared, 25);
    // And none the kernel names is missing from ours: the list is complete for AVX-512.
    const auto known = CpuFeatures::known_names();
    for (const auto& flag : flags) {
        if (flag.rfind("avx512", 0) != 0) continue;
        EXPECT_NE(std::find(known.begin(), known.end(), flag), known.end()) << flag << " is not in our ISA list";
    }
}

TEST(CpuFeatures, NamesFollowTheFlags) {
    CpuFeatures f;
    EXPECT_TRUE(f.names().empty());
    f.sse2 = true;
    f.avx2 = true;
    EXPECT_EQ(f.names(), (std::vector<std::string>{"sse2", "avx2"}));
    EXPECT_TRUE(f.has("avx2"));
    EXPECT_FALSE(f.has("avx"));
}

class TopologyTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { topology_ = new Topology(Topology::discover()); }
    static void TearDownTestSuite() {
        delete topology_;
        topology_ = nullptr;
    }
    static Topology* topology_;
};
Topology* TopologyTest::topology_ = nullptr;

TEST_F(TopologyTest, CountsAreSane) {
    const CpuDescription& cpu = topology_->cpu();
    EXPECT_GE(cpu.cores, 1);
    EXPECT_GE(cpu.threads, cpu.cores);
    EXPECT_GE(cpu.sockets, 1);
    EXPECT_GE(cpu.numa_nodes, 1);
    EXPECT_LE(cpu.sockets, cpu.cores);
    EXPECT_EQ(static_cast<int>(topology_->cores().size()), cpu.cores);
    EXPECT_EQ(cpu.clock_ghz, 0) << "discover() leaves the measured clock to the caller";
    EXPECT_EQ(cpu.isa, detect_cpu_features().names());
    int threads = 0;
    for (const CoreDetail& core : topology_->cores()) {
        EXPECT_FALSE(core.pu_os_indices.empty());
        threads += static_cast<int>(core.pu_os_indices.size());
    }
    EXPECT_EQ(threads, cpu.threads);
}

TEST_F(TopologyTest, NumaNodesCoverEveryCore) {
    std::set<int> covered;
    for (const NumaDetail& node : topology_->numa_nodes()) covered.insert(node.cores.begin(), node.cores.end());
    if (!topology_->numa_nodes().empty()) {
        EXPECT_EQ(static_cast<int>(covered.size()), topology_->cpu().cores);
        std::uint64_t memory = 0;
        for (const NumaDetail& node : topology_->numa_nodes()) memory += node.memory_bytes;
        EXPECT_GT(memory, 0u);
    }
}

TEST_F(TopologyTest, DataCacheSizesGrowWithLevel) {
    const std::vector<CacheLevel> levels = topology_->data_caches();
    for (std::size_t i = 0; i < levels.size(); ++i) {
        EXPECT_GT(levels[i].line_bytes, 0);
        EXPECT_GT(levels[i].size_bytes, 0u);
        EXPECT_GE(levels[i].shared_by_cores, 1);
        EXPECT_GE(levels[i].instances, 1);
        if (i > 0) {
            EXPECT_GT(levels[i].level, levels[i - 1].level);
            EXPECT_GT(levels[i].size_bytes, levels[i - 1].size_bytes) << "L" << levels[i].level;
        }
    }
}

TEST_F(TopologyTest, EveryCoreSitsInOneInstanceOfEachDataLevel) {
    const int cores = topology_->cpu().cores;
    std::map<int, std::vector<int>> instances_per_core;  // level -> count per core
    for (const CacheDetail& cache : topology_->caches()) {
        EXPECT_EQ(static_cast<int>(cache.core_groups.size()), cache.cache.instances);
        EXPECT_GT(cache.cache.line_bytes, 0);
        EXPECT_TRUE(cache.type == "data" || cache.type == "unified" || cache.type == "instruction") << cache.type;
        if (cache.type == "instruction") continue;
        auto& counts = instances_per_core[cache.cache.level];
        counts.resize(static_cast<std::size_t>(cores));
        for (const std::vector<int>& group : cache.core_groups) {
            EXPECT_LE(static_cast<int>(group.size()), cache.cache.shared_by_cores);
            for (int core : group) {
                ASSERT_GE(core, 0);
                ASSERT_LT(core, cores);
                ++counts[static_cast<std::size_t>(core)];
            }
        }
    }
    for (const auto& [level, counts] : instances_per_core)
        for (int core = 0; core < cores; ++core)
            EXPECT_EQ(counts[static_cast<std::size_t>(core)], 1) << "core " << core << " at L" << level;
}

TEST_F(TopologyTest, BindsCurrentThreadToCoreZero) {
    // A fresh thread, so the test runner's own thread keeps its affinity.
    bool bound = false;
    std::thread worker([&] { bound = topology_->bind_current_thread_to_core(0); });
    worker.join();
    EXPECT_TRUE(bound);
    EXPECT_FALSE(topology_->bind_current_thread_to_core(-1));
    EXPECT_FALSE(topology_->bind_current_thread_to_core(topology_->cpu().cores));
}

TEST_F(TopologyTest, AllocatesWritableMemoryOnNodeZero) {
    constexpr std::size_t kBytes = 1 << 20;
    auto* memory = static_cast<unsigned char*>(topology_->alloc_on_node(kBytes, 0));
    ASSERT_NE(memory, nullptr);
    std::fill(memory, memory + kBytes, 0xab);
    EXPECT_EQ(memory[kBytes - 1], 0xab);
    topology_->free_on_node(memory, kBytes);
    EXPECT_EQ(topology_->alloc_on_node(kBytes, topology_->cpu().numa_nodes + 5), nullptr);
}

TEST_F(TopologyTest, MeasuredCoreClockIsPlausible) {
    ClockMeasurement clock;
    std::thread worker([&] {
        topology_->bind_current_thread_to_core(0);
        clock = measure_core_clock(0.05);
    });
    worker.join();
    EXPECT_GE(clock.samples, 5);
    EXPECT_GT(clock.ghz, 0.2);
    EXPECT_LT(clock.ghz, 10.0);
    EXPECT_LE(clock.min_ghz, clock.ghz);
    EXPECT_GE(clock.max_ghz, clock.ghz);
}

TEST(Environment, HasTimestampVersionAndCompiler) {
    const Environment env = collect_environment(detect_cpu_features(), 1);
    EXPECT_TRUE(std::regex_match(env.timestamp, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")))
        << env.timestamp;
    EXPECT_FALSE(env.tool_version.empty());
    EXPECT_FALSE(env.compiler.empty());
    EXPECT_GE(env.load_average, 0);
    EXPECT_TRUE(env.turbo.empty() || env.turbo == "on" || env.turbo == "off") << env.turbo;
}

TEST(Environment, WarnsUnderAHypervisor) {
    CpuFeatures features = detect_cpu_features();
    features.hypervisor = true;
    features.hypervisor_vendor = "KVMKVMKVM";
    const Environment env = collect_environment(features, 1);
    EXPECT_EQ(env.hypervisor, "KVM");
    const bool warned = std::any_of(env.warnings.begin(), env.warnings.end(),
                                    [](const std::string& w) { return w.find("hypervisor") != std::string::npos; });
    EXPECT_TRUE(warned);
}

TEST(Environment, ClockDriftWarnsAboveThreePercent) {
    EXPECT_TRUE(clock_drift_warning(3.00, 3.05).empty());
    EXPECT_TRUE(clock_drift_warning(3.00, 2.95).empty());
    EXPECT_EQ(clock_drift_warning(3.00, 3.20).size(), 1u);
    EXPECT_EQ(clock_drift_warning(3.00, 2.80).size(), 1u);
    EXPECT_TRUE(clock_drift_warning(0, 3.0).empty()) << "an unmeasured clock is no drift";
}

} // namespace
} // namespace roofline
