#include "bench/thread_team.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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
    // Thread t sleeps (t + 1) x 20 ms: the slowest sleeps n x 20 ms, and a sleep
    // never ends early, so the team's time is at least that.
    const double seconds = team.run_timed(
        [](int t) { std::this_thread::sleep_for(std::chrono::milliseconds(20 * (t + 1))); });
    EXPECT_GE(seconds, 0.020 * n - 1e-4);
    EXPECT_LT(seconds, 0.020 * n + 2.0);  // and not some other clock's time
}

TEST(ThreadTeam, ExceptionInAWorkerReachesTheCaller) {
    const Topology topology = Topology::discover();
    ThreadTeam team(topology, 1);
    EXPECT_THROW(team.run([](int) { throw std::runtime_error("boom"); }), std::runtime_error);
    std::atomic<int> ran{0};
    team.run([&](int) { ran++; });  // still usable afterwards
    EXPECT_EQ(ran.load(), 1);
}
