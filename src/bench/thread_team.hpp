// A team of worker threads, one per core, pinned through hwloc for its whole
// life. Idle workers sleep; a job wakes them and they start together from a
// short spin on a start line (all are awake by then); a timed
// run reports the team's span, from the first worker's start to the last one's end.
#pragma once

#include "topo/topology.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace roofline {

class ThreadTeam {
public:
    // Starts `threads` workers, worker i bound to logical core i.
    ThreadTeam(const Topology& topology, int threads);
    // Starts one worker per listed logical core, worker i bound to cores[i].
    ThreadTeam(const Topology& topology, const std::vector<int>& cores);
    ~ThreadTeam();
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    int size() const { return static_cast<int>(workers_.size()); }
    bool all_bound() const { return all_bound_; }

    // Runs fn(thread_index) on every worker; rethrows a worker's exception.
    void run(const std::function<void(int)>& fn);
    // Same, timed: returns the seconds from the first worker's start to the last worker's end
    // (not the slowest worker's own time: workers that share a CPU run one after another).
    double run_timed(const std::function<void(int)>& fn);

private:
    void worker_main(int index);
    void dispatch();
    // Blocks until every worker has finished the current round.
    void wait_until_done(std::unique_lock<std::mutex>& lock);

    const Topology& topology_;
    std::vector<std::thread> workers_;
    // Idle workers sleep on a condition variable (a futex), never spin: an idle
    // team must not take cycles from the one being measured on the same cores.
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable finished_;
    std::uint64_t round_ = 0;   // bumped to start a job
    int pending_ = 0;           // workers still running the current round
    std::atomic<std::uint64_t> arrived_{0};  // start line: woken workers spin only until all are awake
    const std::function<void(int)>* job_ = nullptr;
    bool stopping_ = false;
    bool all_bound_ = true;
    std::vector<std::chrono::steady_clock::time_point> starts_, ends_;
    std::mutex error_mutex_;
    std::exception_ptr error_;
};

} // namespace roofline
