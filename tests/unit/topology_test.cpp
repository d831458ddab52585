// Topology, CPU features, clock and environment on the machine running the tests.
// Only sanity bands for timings: the clock test must pass on any busy CI host.
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
