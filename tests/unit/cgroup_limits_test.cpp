#include "topo/cgroup_limits.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace roofline;

namespace {
auto reader(std::map<std::string, std::string> files) {
    return [files](const std::string& path) -> std::optional<std::string> {
        const auto it = files.find(path);
        if (it == files.end()) return std::nullopt;
        return it->second;
    };
}
} // namespace

TEST(CpuQuota, CgroupV2TheTightestOfTheCgroupAndItsAncestors) {
    const auto q = cgroup_cpu_quota("0::/job/step\n", reader({{"/sys/fs/cgroup/job/step/cpu.max", "max 100000"},
                                                               {"/sys/fs/cgroup/job/cpu.max", "150000 100000"},
                                                               {"/sys/fs/cgroup/cpu.max", "400000 100000"}}));
    ASSERT_TRUE(q.has_value());
    EXPECT_DOUBLE_EQ(q->cpus, 1.5);
    EXPECT_NE(q->where.find("/sys/fs/cgroup/job/cpu.max: 150000 100000"), std::string::npos) << q->where;
    // A container's namespace: its cgroup is the root.
    const auto c = cgroup_cpu_quota("0::/\n", reader({{"/sys/fs/cgroup/cpu.max", "50000 100000"}}));
    ASSERT_TRUE(c.has_value());
    EXPECT_DOUBLE_EQ(c->cpus, 0.5);
    EXPECT_FALSE(cgroup_cpu_quota("0::/\n", reader({{"/sys/fs/cgroup/cpu.max", "max 100000"}})));
    EXPECT_FALSE(cgroup_cpu_quota("0::/\n", reader({})));
}

TEST(CpuQuota, CgroupV1FromTheCpuControllersHierarchy) {
    const std::string self = "4:memory:/x\n3:cpu,cpuacct:/docker/abc\n2:cpuset:/\n";
    const auto q = cgroup_cpu_quota(self, reader({{"/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "200000"},
                                                  {"/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000"},
                                                  {"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1"},
                                                  {"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000"}}));
    ASSERT_TRUE(q.has_value());
    EXPECT_DOUBLE_EQ(q->cpus, 2.0);
    // Mounted as plain "cpu", and no quota anywhere (-1): none.
    EXPECT_FALSE(cgroup_cpu_quota("1:cpu:/\n", reader({{"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1"},
                                                       {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000"}})));
    const auto plain = cgroup_cpu_quota("1:cpu:/rl\n", reader({{"/sys/fs/cgroup/cpu/rl/cpu.cfs_quota_us", "100000"},
                                                               {"/sys/fs/cgroup/cpu/rl/cpu.cfs_period_us", "100000"}}));
    ASSERT_TRUE(plain.has_value());
    EXPECT_DOUBLE_EQ(plain->cpus, 1.0);
    // Garbage is no quota, not a crash.
    EXPECT_FALSE(cgroup_cpu_quota("garbage\n::\n1:cpu:\n", reader({{"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "x"},
                                                                     {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "0"}})));
}

TEST(CgroupMemoryRoom, TheLimitLessUsageTightestOverTheAncestors) {
    // v2: a job's limit above a step's "max".
    const auto v2 = cgroup_memory_room("0::/job/step\n", reader({{"/sys/fs/cgroup/job/step/memory.max", "max"},
                                                                  {"/sys/fs/cgroup/job/step/memory.current", "1000"},
                                                                  {"/sys/fs/cgroup/job/memory.max", "1073741824"},
                                                                  {"/sys/fs/cgroup/job/memory.current", "73741824"}}));
    ASSERT_TRUE(v2.has_value());
    EXPECT_DOUBLE_EQ(*v2, 1e9);
    // v1: "no limit" is the largest page-aligned 64-bit count; a usage past the limit leaves 0.
    EXPECT_FALSE(cgroup_memory_room("4:memory:/p\n", reader({{"/sys/fs/cgroup/memory/p/memory.limit_in_bytes",
                                                               "9223372036854771712"},
                                                              {"/sys/fs/cgroup/memory/p/memory.usage_in_bytes", "5"}})));
    const auto v1 = cgroup_memory_room("4:memory:/p\n", reader({{"/sys/fs/cgroup/memory/p/memory.limit_in_bytes", "100"},
                                                                 {"/sys/fs/cgroup/memory/p/memory.usage_in_bytes", "150"}}));
    ASSERT_TRUE(v1.has_value());
    EXPECT_DOUBLE_EQ(*v1, 0);
    EXPECT_FALSE(cgroup_memory_room("0::/\n", reader({})));
}
