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
void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
} // namespace

ThreadTeam::ThreadTeam(const Topology& topology, int threads) : ThreadTeam(topology, first_cores(threads)) {}

ThreadTeam::ThreadTeam(const Topology& topology, const std::vector<int>& cores)
    : topology_(topology), starts_(cores.size()), ends_(cores.size()) {
    const int threads = static_cast<int>(cores.size());
    std::vector<char> bound(cores.size(), 1);
    std::unique_lock lock(mutex_);
    pending_ = threads;  // round 0: binding to the cores
    for (int i = 0; i < threads; ++i) {
        const int core = cores[static_cast<std::size_t>(i)];
        workers_.emplace_back([this, i, core, &bound] {
            bound[static_cast<std::size_t>(i)] = topology_.bind_current_thread_to_core(core);
            {
                std::lock_guard done(mutex_);
                if (--pending_ == 0) finished_.notify_one();
            }
            worker_main(i);
        });
    }
    wait_until_done(lock);
    all_bound_ = std::all_of(bound.begin(), bound.end(), [](char b) { return b != 0; });
}

ThreadTeam::~ThreadTeam() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        ++round_;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadTeam::wait_until_done(std::unique_lock<std::mutex>& lock) {
    finished_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadTeam::worker_main(int index) {
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return round_ != seen; });
            seen = round_;
            if (stopping_) return;
        }
        // Start together: wait (spinning, microseconds) for the others to wake.
        const std::uint64_t everyone = seen * static_cast<std::uint64_t>(size());
        arrived_.fetch_add(1, std::memory_order_acq_rel);
        while (arrived_.load(std::memory_order_acquire) < everyone) cpu_relax();
        const auto t0 = std::chrono::steady_clock::now();
        starts_[static_cast<std::size_t>(index)] = t0;
        try {
            (*job_)(index);
        } catch (...) {
            std::lock_guard lock(error_mutex_);
            if (!error_) error_ = std::current_exception();
        }
        ends_[static_cast<std::size_t>(index)] = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        if (--pending_ == 0) finished_.notify_one();
    }
}

void ThreadTeam::dispatch() {
    std::unique_lock lock(mutex_);
    pending_ = size();
    ++round_;
    wake_.notify_all();
    wait_until_done(lock);
    lock.unlock();
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
    // The team's span, from the first start to the last end. Each worker's own start-to-end
    // would do on cores of their own, but where workers share a CPU (more threads than the
    // CPUs the process may use, a CPU quota, a busy host) the scheduler runs them one after
    // another, and each alone looks full speed: 16 threads on 2 vCPUs read 8x the machine.
    const auto first = *std::min_element(starts_.begin(), starts_.end());
    const auto last = *std::max_element(ends_.begin(), ends_.end());
    return std::chrono::duration<double>(last - first).count();
}

} // namespace roofline
