#include "topo/cpu_activity.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {

// proc(5)'s layout: cpuN user nice system idle iowait irq softirq steal guest guest_nice.
const char* kStat =
    "cpu  300 0 60 900 10 0 5 40 0 0\n"
    "cpu0 100 0 20 300 5 0 5 30 0 0\n"
    "cpu1 200 0 40 600 5 0 0 10 0 0\n"
    "intr 12345\n"
    "ctxt 99\n";

CpuActivitySnapshot snapshot(double busy, double steal, double own, double wall, int cpus = 2) {
    CpuActivitySnapshot s;
    s.cpus.busy_seconds = busy;
    s.cpus.steal_seconds = steal;
    s.cpus.cpus = cpus;
    s.own_cpu_seconds = own;
    s.wall_seconds = wall;
    return s;
}

} // namespace

TEST(CpuActivity, ProcStatSumsTheWatchedCpusOnly) {
    const auto all = parse_proc_stat(kStat, {}, 100);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->cpus, 2);  // the summary line "cpu " is not counted again
    EXPECT_DOUBLE_EQ(all->busy_seconds, (125 + 240) / 100.0);
    EXPECT_DOUBLE_EQ(all->steal_seconds, 0.40);
    EXPECT_DOUBLE_EQ(all->idle_seconds, (305 + 605) / 100.0);

    const auto one = parse_proc_stat(kStat, {1}, 100);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->cpus, 1);
    EXPECT_DOUBLE_EQ(one->busy_seconds, 2.40);
    EXPECT_DOUBLE_EQ(one->steal_seconds, 0.10);

    EXPECT_FALSE(parse_proc_stat(kStat, {7}, 100));  // a CPU /proc/stat does not list
    EXPECT_FALSE(parse_proc_stat("garbage\ncpuX 1 2 3 4\n", {}, 100));
    EXPECT_FALSE(parse_proc_stat(kStat, {}, 0));
}

TEST(CpuActivity, OldKernelsWithoutStealReadAsNoSteal) {
    // Kernels before 2.6.11 wrote four fields: no steal column, nothing stolen.
    const auto t = parse_proc_stat("cpu0 10 0 10 80\n", {}, 100);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->steal_seconds, 0);
    EXPECT_DOUBLE_EQ(t->busy_seconds, 0.20);
}

TEST(CpuActivity, OthersAreTheBusyTimeLessOurOwn) {
    // 2 CPUs for 4 s: 6 s busy of which 5 s ours, 0.8 s stolen.
    const auto a = cpu_activity_between(snapshot(10, 1, 3, 100), snapshot(16, 1.8, 8, 104));
    EXPECT_EQ(a.cpus, 2);
    EXPECT_DOUBLE_EQ(a.wall_seconds, 4);
    EXPECT_DOUBLE_EQ(a.others_cpus, 0.25);
    EXPECT_DOUBLE_EQ(a.steal_cpus, 0.2);
    EXPECT_DOUBLE_EQ(a.steal_share(), 0.1);
    // Our CPU time counted more finely than the ticks: never below zero.
    const auto rounding = cpu_activity_between(snapshot(10, 0, 3, 100), snapshot(12, 0, 5.05, 101));
    EXPECT_DOUBLE_EQ(rounding.others_cpus, 0);
    // Over 2 ms, two ticks of another process (20 ms) would read as 10 CPUs of 2: never more than
    // the CPUs watched.
    const auto ticks = cpu_activity_between(snapshot(10, 0, 3, 100), snapshot(10.02, 0, 3, 100.002));
    EXPECT_DOUBLE_EQ(ticks.others_cpus, 2);
    // A CPU came online meanwhile: the sums are not comparable, nothing is judged.
    const auto changed = cpu_activity_between(snapshot(10, 0, 3, 100, 2), snapshot(20, 5, 4, 101, 3));
    EXPECT_EQ(changed.cpus, 0);
    EXPECT_TRUE(cpu_activity_warnings(changed, "the run", "so").empty());
    // Snapshots of other CPUs (a thread bound to one core between them) are not compared either.
    auto one_cpu = snapshot(20, 5, 4, 101, 1);
    one_cpu.watched = {0};
    EXPECT_EQ(cpu_activity_between(snapshot(10, 0, 3, 100, 1), one_cpu).cpus, 0);
}

TEST(CpuActivity, WarnsOnlyPastTheThresholds) {
    // 10% stolen and a quarter CPU of others over 4 s on 2 CPUs: both said, with the figures.
    const auto busy = cpu_activity_between(snapshot(10, 1, 3, 100), snapshot(16, 1.8, 8, 104));
    const auto warnings = cpu_activity_warnings(busy, "the run", "figures are low");
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_NE(warnings[0].find("10.0%"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("0.80 s stolen over 2 CPUs"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("figures are low"), std::string::npos);
    EXPECT_NE(warnings[1].find("0.25 of this process's 2 CPUs"), std::string::npos) << warnings[1];

    // 1% stolen, others at 0.1 CPUs: quiet.
    const auto quiet = cpu_activity_between(snapshot(10, 1, 3, 100), snapshot(15.4, 1.08, 8, 104));
    EXPECT_TRUE(cpu_activity_warnings(quiet, "the run", "x").empty());

    // A share past the threshold but a few ticks in all (a 0.1 s run): tick rounding, not said.
    const auto short_run = cpu_activity_between(snapshot(10, 1, 3, 100), snapshot(10.2, 1.02, 3.2, 100.1));
    EXPECT_GE(short_run.steal_share(), kStealShareWarning);
    EXPECT_TRUE(cpu_activity_warnings(short_run, "the run", "x").empty());
}

TEST(CpuActivity, ThisMachineCanBeRead) {
    const auto before = take_cpu_activity_snapshot();
    if (!before) GTEST_SKIP() << "/proc/stat is not readable here";
    EXPECT_GE(before->cpus.cpus, 1);
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i) sink = sink + 1e-9 * i;
    const auto after = take_cpu_activity_snapshot();
    ASSERT_TRUE(after);
    EXPECT_GT(after->own_cpu_seconds, before->own_cpu_seconds);  // the loop above was ours
    const auto a = cpu_activity_between(*before, *after);
    EXPECT_EQ(a.cpus, before->cpus.cpus);
    EXPECT_GE(a.others_cpus, 0);
    EXPECT_GE(a.steal_share(), 0);
}
