// topo/cpus_allowed: the CPUs a program started now may use at once, from its affinity mask and
// its cgroup's CPU quota.
#include "topo/cpus_allowed.hpp"

#include <gtest/gtest.h>

#include <sched.h>

using namespace roofline;

TEST(CpusAllowed, TheMaskAtMostTheQuotaRoundedUp) {
    EXPECT_EQ(cpus_allowed_from(8, std::nullopt), 8);  // taskset-free, no quota: the mask
    EXPECT_EQ(cpus_allowed_from(1, std::nullopt), 1);  // taskset -c 0
    EXPECT_EQ(cpus_allowed_from(8, 1.0), 1);           // docker --cpus=1
    EXPECT_EQ(cpus_allowed_from(8, 1.5), 2);           // 1.5 CPUs of time: 2 threads run at once, in bursts
    EXPECT_EQ(cpus_allowed_from(8, 2.0000001), 2);     // quota / period's rounding is not a third CPU
    EXPECT_EQ(cpus_allowed_from(2, 4.0), 2);           // a quota over the mask adds no CPU
    EXPECT_EQ(cpus_allowed_from(8, 0.25), 1);          // a quarter of a CPU still runs one thread
    EXPECT_EQ(cpus_allowed_from(0, 3.0), 3);           // no mask read: the quota alone
    EXPECT_EQ(cpus_allowed_from(0, std::nullopt), 0);  // neither: unknown
}

TEST(CpusAllowed, NowIsThisProcesssMaskAtMostItsQuota) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) GTEST_SKIP() << "sched_getaffinity failed";
    const auto now = cpus_allowed_now();
    EXPECT_EQ(now.affinity_cpus, CPU_COUNT(&set));
    EXPECT_GE(now.cpus, 1);
    EXPECT_LE(now.cpus, now.affinity_cpus);
    EXPECT_EQ(now.cpus, cpus_allowed_from(now.affinity_cpus, now.quota_cpus));
}
