// Kernel PMU events from a sysfs tree (measure/sysfs_pmu.hpp): a fake one here, with
// the shapes Linux gives an Intel server's memory controllers and AMD's data fabric.
#include "measure/sysfs_pmu.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace roofline::measure {
namespace {

namespace fs = std::filesystem;

class FakeSysfs : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/roofline-sysfs-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        root_ = tmpl;
        for (int i = 0; i < 2; ++i) {
            const std::string imc = "uncore_imc_" + std::to_string(i);
            put(imc + "/type", std::to_string(14 + i) + "\n");
            put(imc + "/cpumask", "0,8\n");
            put(imc + "/format/event", "config:0-7\n");
            put(imc + "/format/umask", "config:8-15\n");
            put(imc + "/events/cas_count_read", "event=0x04,umask=0x03\n");
        }
        put("uncore_imc_free_running_0/type", "20\n");
        put("uncore_imc_free_running_0/events/data_read", "event=0xff,umask=0x20\n");
        put("amd_df/type", "12\n");
        put("amd_df/cpumask", "0-1\n");
        put("amd_df/format/event", "config:0-7,32-35\n");
        put("amd_df/format/umask", "config:8-15\n");
    }
    void TearDown() override { fs::remove_all(root_); }
    void put(const std::string& rel, const std::string& text) {
        const auto p = fs::path(root_) / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
    }
    std::string root_;
};

TEST_F(FakeSysfs, NamedEventOnEveryInstanceOfAPrefix) {
    const auto events = resolve_sysfs_event("uncore_imc_*/cas_count_read/", root_);
    ASSERT_EQ(events.size(), 2u) << "the free-running PMU lacks the event: left out";
    EXPECT_EQ(events[0].pmu, "uncore_imc_0");
    EXPECT_EQ(events[1].type, 15u);
    EXPECT_EQ(events[0].config, 0x0304u);
    EXPECT_EQ(events[0].cpus, (std::vector<int>{0, 8}));
}

TEST_F(FakeSysfs, TermsSplitOverTheirFormatsBitRanges) {
    const auto events = resolve_sysfs_event("amd_df/event=0x107,umask=0x38/", root_);
    ASSERT_EQ(events.size(), 1u);
    // event bits 0-7 take 0x07, bits 32-35 take the 0x1 above them; umask in 8-15
    EXPECT_EQ(events[0].config, 0x07u | (0x38u << 8) | (std::uint64_t{1} << 32));
    EXPECT_EQ(events[0].type, 12u);
    EXPECT_EQ(events[0].cpus, (std::vector<int>{0, 1}));
}

TEST_F(FakeSysfs, WhatIsMissingOrDoesNotFitIsAnError) {
    EXPECT_THROW(resolve_sysfs_event("amd_df/event=0x1007/", root_), std::runtime_error);  // 13 bits into 12
    EXPECT_THROW(resolve_sysfs_event("amd_df/edge=1/", root_), std::runtime_error);        // no such term
    EXPECT_THROW(resolve_sysfs_event("amd_df/cas_count_read/", root_), std::runtime_error);
    EXPECT_THROW(resolve_sysfs_event("amd_umc_*/event=1/", root_), std::runtime_error);
    EXPECT_THROW(resolve_sysfs_event("uncore_imc_*/data_write/", root_), std::runtime_error);
    EXPECT_THROW(resolve_sysfs_event("amd_df", root_), std::runtime_error);
    EXPECT_THROW(resolve_sysfs_event("amd_df/event=zz/", root_), std::runtime_error);
    try {
        resolve_sysfs_event("amd_umc_*/event=1/", root_);
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no PMU amd_umc_*"), std::string::npos) << e.what();
    }
}

TEST(SysfsPmu, CpuLists) {
    EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
    EXPECT_EQ(parse_cpu_list(""), std::vector<int>{});
    EXPECT_THROW(parse_cpu_list("3-1"), std::runtime_error);
    EXPECT_THROW(parse_cpu_list("a"), std::runtime_error);
}

} // namespace
} // namespace roofline::measure
