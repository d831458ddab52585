#include "bench/thread_team.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

namespace roofline {

namespace {
std::vector<int> first_cores(int n) {
    std::vector<int> cores;
    for (int i = 0; i < n; ++i) cores.push_back(i);
    return cores;
}
} // namespace

ThreadTeam::ThreadTeam(const Topology& topology, int threads) : ThreadTeam(topology, first_cores(threads)) {}

ThreadTeam::ThreadTeam(const Topology& topology, const std::vector<int>& cores)
    : topology_(topology), start_(static_cast<std::ptrdiff_t>(cores.size()) + 1),
      done_(static_cast<std::ptrdiff_t>(cores.size()) + 1), seconds_(cores.size()) {
    const int threads = static_cast<int>(cores.size());
    std::atomic<bool> bound_ok{true};
    std::barrier<> ready(threads + 1);
    for (int i = 0; i < threads; ++i) {
        const int core = cores[static_cast<std::size_t>(i)];
        workers_.emplace_back([this, i, core, &bound_ok, &ready] {
            if (!topology_.bind_current_thread_to_core(core)) bound_ok = false;
            ready.arrive_and_wait();
            worker_main(i);
        });
    }
    ready.arrive_and_wait();
    all_bound_ = bound_ok;
}

ThreadTeam::~ThreadTeam() {
    stopping_ = true;
    start_.arrive_and_wait();
    for (auto& t : workers_) t.join();
}

void ThreadTeam::worker_main(int index) {
    for (;;) {
        start_.arrive_and_wait();
        if (stopping_) return;
        const auto t0 = std::chrono::steady_clock::now();
        try {
            (*job_)(index);
        } catch (...) {
            std::lock_guard lock(error_mutex_);
            if (!error_) error_ = std::current_exception();
        }
        const auto t1 = std::chrono::steady_clock::now();
        seconds_[static_cast<std::size_t>(index)] = std::chrono::duration<double>(t1 - t0).count();
        done_.arrive_and_wait();
    }
}

void ThreadTeam::dispatch() {
    start_.arrive_and_wait();
    done_.arrive_and_wait();
    if (error_) {
        auto e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

void ThreadTeam::run(const std::function<void(int)>& fn) {
    job_ = &fn;
    dispatch();
}

double ThreadTeam::run_timed(const std::function<void(int)>& fn) {
    job_ = &fn;
    dispatch();
    return *std::max_element(seconds_.begin(), seconds_.end());
}

} // namespace roofline
