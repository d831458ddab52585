#include "bench/thread_team.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

using namespace roofline;

TEST(ThreadTeam, RunsOnEveryThreadAndTimesTheSlowest) {
    const Topology topology = Topology::discover();
    const int n = static_cast<int>(topology.cores().size());
    ThreadTeam team(topology, n);
    EXPECT_EQ(team.size(), n);
    std::vector<int> seen(static_cast<std::size_t>(n), 0);
    team.run([&](int t) { seen[static_cast<std::size_t>(t)]++; });
    for (int s : seen) EXPECT_EQ(s, 1);
    const double seconds = team.run_timed([](int t) {
        volatile double x = 0;
        for (int i = 0; i < 100000 * (t + 1); ++i) x = x + 1;
    });
    EXPECT_GT(seconds, 0);
}

TEST(ThreadTeam, ExceptionInAWorkerReachesTheCaller) {
    const Topology topology = Topology::discover();
    ThreadTeam team(topology, 1);
    EXPECT_THROW(team.run([](int) { throw std::runtime_error("boom"); }), std::runtime_error);
    std::atomic<int> ran{0};
    team.run([&](int) { ran++; });  // still usable afterwards
    EXPECT_EQ(ran.load(), 1);
}
