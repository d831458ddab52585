// A team of worker threads, one per core, pinned through hwloc for its whole
// life. Work is started on a barrier so all threads begin together; a timed
// run reports the slowest thread's time.
#pragma once

#include "topo/topology.hpp"

#include <barrier>
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
    // Same, timed: returns the slowest worker's seconds from its own start to end.
    double run_timed(const std::function<void(int)>& fn);

private:
    void worker_main(int index);
    void dispatch();

    const Topology& topology_;
    std::vector<std::thread> workers_;
    std::barrier<> start_;
    std::barrier<> done_;
    const std::function<void(int)>* job_ = nullptr;
    bool stopping_ = false;
    bool all_bound_ = true;
    std::vector<double> seconds_;
    std::mutex error_mutex_;
    std::exception_ptr error_;
};

} // namespace roofline
