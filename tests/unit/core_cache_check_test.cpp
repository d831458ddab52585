// The cache hierarchy check (core/cache_check.hpp): reported sizes against the
// table, the limits of any CPU and the measured load curve; a truthful host, a
// lying one (508 MiB of L3 per core), an L2 larger than the L3, a zero-size level.
#include "core/cache_check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

namespace roofline {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

CacheLevel level(int n, std::uint64_t bytes, int shared = 1, int instances = 2) {
    CacheLevel c;
    c.level = n;
    c.size_bytes = bytes;
    c.line_bytes = 64;
    c.associativity = 8;
    c.shared_by_cores = shared;
    c.instances = instances;
    return c;
}

Microarch arch_of(const std::string& vendor, int family, int model, bool avx512 = true) {
    auto arch = microarch_for(vendor, family, model, avx512);
    EXPECT_TRUE(arch.has_value());
    return *arch;
}

// One thread's load curve over a hierarchy of `ends` (bytes) with plateaus
// `rates` (GB/s; one more than ends: the last is DRAM): three sizes per octave
// from 8 KiB, each level's rate holding up to its end and falling to the next
// plateau over the following half octave, as LRU-like caches do; `wobble`
// scales alternate points (noise).
std::vector<std::pair<std::uint64_t, double>> curve_of(const std::vector<std::uint64_t>& ends,
                                                       const std::vector<double>& rates, std::uint64_t reach,
                                                       double wobble = 0) {
    std::vector<std::pair<std::uint64_t, double>> out;
    for (int i = 0;; ++i) {
        const auto bytes = static_cast<std::uint64_t>(8.0 * KiB * std::pow(2.0, i / 3.0));
        if (bytes > reach) break;
        std::size_t lvl = 0;
        while (lvl < ends.size() && bytes > ends[lvl]) ++lvl;
        double gbs = rates[lvl];
        // Just past an end: half way to the next plateau (geometric).
        if (lvl > 0 && static_cast<double>(bytes) < 1.3 * static_cast<double>(ends[lvl - 1]))
            gbs = std::sqrt(rates[lvl - 1] * rates[lvl]);
        if (i % 2) gbs *= 1 - wobble;
        out.emplace_back(bytes, gbs);
    }
    return out;
}

TEST(CacheCheck, TruthfulZen4IsBelievedAndConfirmedByTheCurve) {
    const auto zen4 = arch_of("AuthenticAMD", 0x19, 0x11);
    const std::vector<CacheLevel> reported{level(1, 32 * KiB), level(2, 1 * MiB), level(3, 32 * MiB, 2, 1)};
    const auto curve = curve_of({32 * KiB, 1 * MiB, 32 * MiB}, {180, 90, 55, 22}, 256 * MiB, 0.03);
    const auto checked = check_cache_hierarchy(reported, zen4, curve);
    ASSERT_EQ(checked.size(), 3u);
    for (const auto& c : checked) {
        EXPECT_EQ(c.size_source, "reported") << "L" << c.level << ": " << c.finding;
        EXPECT_EQ(c.size_bytes, c.reported_size_bytes);
        EXPECT_TRUE(c.finding.empty()) << c.finding;
        EXPECT_FALSE(c.doubtful);
        // Each end is found near the real one.
        ASSERT_GT(c.measured_size_bytes, 0u) << "L" << c.level;
        EXPECT_LT(std::abs(std::log2(double(c.measured_size_bytes) / double(c.reported_size_bytes))), 0.6)
            << "L" << c.level << " measured " << c.measured_size_bytes;
    }
}

TEST(CacheCheck, LyingZen5GuestIsCorrectedByTheTableAlone) {
    // The bhyve guest: 508 MiB of L3 per core (two instances, one per vCPU).
    const auto zen5 = arch_of("AuthenticAMD", 0x1A, 0x02);
    const std::vector<CacheLevel> reported{level(1, 48 * KiB), level(2, 1 * MiB), level(3, 508 * MiB, 1, 2)};
    const auto checked = check_cache_hierarchy(reported, zen5);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_EQ(checked[2].size_bytes, 32 * MiB);
    EXPECT_EQ(checked[2].size_source, "table");
    EXPECT_EQ(checked[2].reported_size_bytes, 508 * MiB);
    EXPECT_NE(checked[2].finding.find("508 MiB"), std::string::npos) << checked[2].finding;
    EXPECT_NE(checked[2].finding.find("AMD Zen 5"), std::string::npos) << checked[2].finding;
    EXPECT_FALSE(cache_sizes_doubtful(checked));
    // The probe sees past the L3 used: four times it.
    EXPECT_EQ(cache_probe_reach(checked), 128 * MiB);
}

TEST(CacheCheck, LyingZen5GuestWithItsCurveKeepsTheMeasuredSize) {
    const auto zen5 = arch_of("AuthenticAMD", 0x1A, 0x02);
    const std::vector<CacheLevel> reported{level(1, 48 * KiB), level(2, 1 * MiB), level(3, 508 * MiB, 1, 2)};
    const auto curve = curve_of({48 * KiB, 1 * MiB, 32 * MiB}, {300, 120, 70, 26}, 384 * MiB, 0.04);
    const auto checked = check_cache_hierarchy(reported, zen5, curve);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_EQ(checked[2].size_bytes, 32 * MiB);
    EXPECT_GT(checked[2].measured_size_bytes, 24 * MiB);
    EXPECT_LT(checked[2].measured_size_bytes, 48 * MiB);
    EXPECT_EQ(checked[0].size_bytes, 48 * KiB);
    EXPECT_EQ(checked[1].size_bytes, 1 * MiB);
}

TEST(CacheCheck, UnknownCpuWithAnImplausibleL3IsDoubtedUntilMeasured) {
    const std::vector<CacheLevel> reported{level(1, 48 * KiB), level(2, 1 * MiB), level(3, 508 * MiB, 1, 2)};
    const auto doubted = check_cache_hierarchy(reported, std::nullopt);
    ASSERT_EQ(doubted.size(), 3u);
    EXPECT_TRUE(doubted[2].doubtful);
    EXPECT_TRUE(cache_sizes_doubtful(doubted));
    EXPECT_NE(doubted[2].finding.find("per core"), std::string::npos) << doubted[2].finding;
    // The probe goes to 4 x 64 MiB (the largest share of one core anyone ships), not gigabytes.
    EXPECT_EQ(cache_probe_reach(doubted), 256 * MiB);

    const auto curve = curve_of({48 * KiB, 1 * MiB, 32 * MiB}, {300, 120, 70, 26}, 256 * MiB);
    const auto checked = check_cache_hierarchy(reported, std::nullopt, curve);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_FALSE(checked[2].doubtful);
    EXPECT_EQ(checked[2].size_source, "measured");
    EXPECT_GT(checked[2].size_bytes, 24 * MiB);
    EXPECT_LT(checked[2].size_bytes, 48 * MiB);
    EXPECT_NE(checked[2].finding.find("load curve"), std::string::npos) << checked[2].finding;
}

TEST(CacheCheck, AnL2LargerThanTheL3IsFlagged) {
    // Both within what some CPU has, but not in this order.
    const std::vector<CacheLevel> reported{level(1, 32 * KiB), level(2, 16 * MiB), level(3, 8 * MiB, 2, 1)};
    const auto doubted = check_cache_hierarchy(reported, std::nullopt);
    ASSERT_EQ(doubted.size(), 3u);
    EXPECT_TRUE(doubted[1].doubtful);
    EXPECT_TRUE(doubted[2].doubtful);
    EXPECT_NE(doubted[2].finding.find("no larger than L2"), std::string::npos) << doubted[2].finding;
    // The curve settles it: L2 ends at 512 KiB, L3 at 8 MiB.
    const auto curve = curve_of({32 * KiB, 512 * KiB, 8 * MiB}, {180, 90, 55, 22}, 64 * MiB);
    const auto checked = check_cache_hierarchy(reported, std::nullopt, curve);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_FALSE(cache_sizes_doubtful(checked));
    EXPECT_LT(checked[1].size_bytes, checked[2].size_bytes);
}

TEST(CacheCheck, AnL2LargerThanTheTableAllowsTakesTheTableSize) {
    const auto zen4 = arch_of("AuthenticAMD", 0x19, 0x11);
    const std::vector<CacheLevel> reported{level(1, 32 * KiB), level(2, 64 * MiB), level(3, 32 * MiB, 2, 1)};
    const auto checked = check_cache_hierarchy(reported, zen4);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_EQ(checked[1].size_bytes, 1 * MiB);
    EXPECT_EQ(checked[1].size_source, "table");
    EXPECT_EQ(checked[2].size_bytes, 32 * MiB);
}

TEST(CacheCheck, AZeroSizeLevelTakesTheTableSizeOrIsDropped) {
    const auto zen4 = arch_of("AuthenticAMD", 0x19, 0x11);
    const std::vector<CacheLevel> reported{level(1, 32 * KiB), level(2, 0), level(3, 32 * MiB, 2, 1)};
    const auto known = check_cache_hierarchy(reported, zen4);
    ASSERT_EQ(known.size(), 3u);
    EXPECT_EQ(known[1].size_bytes, 1 * MiB);
    EXPECT_NE(known[1].finding.find("no size"), std::string::npos) << known[1].finding;

    const auto unknown = check_cache_hierarchy(reported, std::nullopt);
    ASSERT_EQ(unknown.size(), 2u);  // L2 dropped; the L3 is now the second level
    EXPECT_EQ(unknown[1].level, 2);
    EXPECT_EQ(unknown[1].size_bytes, 32 * MiB);
    EXPECT_EQ(unknown[1].reported_size_bytes, 32 * MiB);
}

TEST(CacheCheck, NoiseThatRecoversIsNoLevelEnd) {
    auto curve = curve_of({32 * KiB, 1 * MiB, 32 * MiB}, {180, 90, 55, 22}, 256 * MiB);
    // One sample in the middle of L2 caught by interference: 40% low.
    for (auto& [bytes, gbs] : curve)
        if (bytes > 200 * KiB && bytes < 300 * KiB) {
            gbs *= 0.6;
            break;
        }
    const auto ends = measured_level_ends(curve);
    ASSERT_EQ(ends.size(), 3u);
    EXPECT_GT(ends[0], 28 * KiB);
    EXPECT_LT(ends[0], 64 * KiB);
    EXPECT_GT(ends[1], 0.9 * MiB);
    EXPECT_LT(ends[1], 2 * MiB);
    EXPECT_GT(ends[2], 28 * MiB);
    EXPECT_LT(ends[2], 64 * MiB);
}

TEST(CacheCheck, ACurveTooShortOrWithHolesSaysNothing) {
    EXPECT_TRUE(measured_level_ends({}).empty());
    EXPECT_TRUE(measured_level_ends({{8192, 100.0}, {16384, 0.0}, {32768, 50.0}, {65536, 20.0}}).empty());
    // A flat curve: one level, no end seen.
    std::vector<std::pair<std::uint64_t, double>> flat;
    for (int i = 0; i < 20; ++i) flat.emplace_back(8192u << i, 50.0);
    EXPECT_TRUE(measured_level_ends(flat).empty());
}

TEST(CacheCheck, ACurveThatNeverReachesTheLastLevelsEndLeavesItAlone) {
    // The probe stopped at 4 MiB: L1 and L2 ends seen, the L3 one not.
    const auto zen4 = arch_of("AuthenticAMD", 0x19, 0x11);
    const std::vector<CacheLevel> reported{level(1, 32 * KiB), level(2, 1 * MiB), level(3, 32 * MiB, 2, 1)};
    const auto curve = curve_of({32 * KiB, 1 * MiB, 32 * MiB}, {180, 90, 55, 22}, 4 * MiB);
    const auto checked = check_cache_hierarchy(reported, zen4, curve);
    ASSERT_EQ(checked.size(), 3u);
    EXPECT_EQ(checked[2].measured_size_bytes, 0u);
    EXPECT_EQ(checked[2].size_bytes, 32 * MiB);
    EXPECT_EQ(checked[2].size_source, "reported");
}

// Curves the probe recorded on real hosts (tests/data/cache-probe-*.json: the
// machine model's cache_probe and the caches it reported).
TEST(CacheCheck, RecordedCurves) {
    for (const char* name : {"cache-probe-zen4-kvm.json"}) {
        std::ifstream in(std::string(ROOFLINE_TEST_DATA_DIR) + "/" + name);
        ASSERT_TRUE(in) << name;
        const auto j = nlohmann::json::parse(in);
        std::vector<CacheLevel> reported;
        for (const auto& c : j["caches"])
            reported.push_back(level(c["level"], c["reported_size_bytes"], c["shared_by_cores"], c["instances"]));
        std::vector<std::pair<std::uint64_t, double>> curve;
        for (const auto& p : j["cache_probe"]["points"]) curve.emplace_back(p[0], p[1]);
        const auto arch = microarch_for(j["vendor"], j["family"], j["model"], true);
        const auto checked = check_cache_hierarchy(reported, arch, curve);
        ASSERT_EQ(checked.size(), reported.size()) << name;
        for (std::size_t i = 0; i < checked.size(); ++i) {
            EXPECT_EQ(checked[i].size_bytes, j["expect_bytes"][i].get<std::uint64_t>()) << name << " L" << i + 1;
            EXPECT_GT(checked[i].measured_size_bytes, 0u) << name << " L" << i + 1;
        }
        // The same curve with the last level reported as 508 MiB per core: corrected.
        reported.back().size_bytes = 508 * MiB;
        reported.back().shared_by_cores = 1;
        const auto lied = check_cache_hierarchy(reported, std::nullopt, curve);
        EXPECT_EQ(lied.back().size_source, "measured") << name;
        EXPECT_LT(lied.back().size_bytes, 96 * MiB) << name;
    }
}

} // namespace
} // namespace roofline
