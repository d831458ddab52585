#include "bench/thread_team.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <ctime>

#include <algorithm>
#include <vector>

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

namespace {
// Burns `seconds` of this thread's own CPU time (not wall time: it may be descheduled).
void burn_cpu(double seconds) {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    volatile double x = 1;
    do {
        for (int i = 0; i < 1000; ++i) x = x * 1.0000001;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) + 1e-9 * (now.tv_nsec - start.tv_nsec) < seconds);
}
} // namespace

// Workers that share one CPU run one after another; each alone looks full speed when its
// work is shorter than a scheduling slice. The team's time must be the span of all of them,
// or a team of 8 on one core reads 8x one core.
TEST(ThreadTeam, WorkersSharingACpuAreTimedTogether) {
    const Topology topology = Topology::discover();
    const int n = 8;
    ThreadTeam team(topology, std::vector<int>(n, 0));
    if (!team.all_bound()) GTEST_SKIP() << "cannot bind threads to core 0 here";
    const double work = 0.0005;  // shorter than a scheduler slice (about 3 ms)
    double best = 1e9;
    for (int r = 0; r < 5; ++r) best = std::min(best, team.run_timed([&](int) { burn_cpu(work); }));
    EXPECT_GE(best, 0.9 * n * work);
}

TEST(ThreadTeam, ExceptionInAWorkerReachesTheCaller) {
    const Topology topology = Topology::discover();
    ThreadTeam team(topology, 1);
    EXPECT_THROW(team.run([](int) { throw std::runtime_error("boom"); }), std::runtime_error);
    std::atomic<int> ran{0};
    team.run([&](int) { ran++; });  // still usable afterwards
    EXPECT_EQ(ran.load(), 1);
}
