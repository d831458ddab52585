// measure/job_counters: finding a job's processes and counting each of their threads. The
// counting is checked with the task clock, a software event every Linux has (no PMU needed).
#include "measure/job_counters.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <chrono>
#include <string>
#include <csignal>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace roofline::measure;
using namespace std::string_literals;

TEST(JobCounters, TheJobComesFromTheEnvironment) {
    EXPECT_EQ(job_of_environment("PATH=/bin\0SLURM_JOB_ID=123\0HOME=/root\0"s), "123");
    // Ours wins over Slurm's, as in the marker library's snapshots.
    EXPECT_EQ(job_of_environment("ROOFLINE_JOB_ID=mine\0SLURM_JOB_ID=123\0"s), "mine");
    EXPECT_EQ(job_of_environment("SLURM_JOB_ID=123\0ROOFLINE_JOB_ID=mine"s), "mine");  // no final NUL
    EXPECT_EQ(job_of_environment("SLURM_JOB_IDX=9\0MY_SLURM_JOB_ID=8\0"s), "");
    EXPECT_EQ(job_of_environment(""), "");
    EXPECT_EQ(job_of_environment("SLURM_JOB_ID=\0"s), "");
}

namespace {

std::vector<EncodedEvent> task_clock() {
    std::string error;
    auto e = encode_event("clock", "perf::TASK-CLOCK", error);
    EXPECT_TRUE(e) << error;
    return e ? std::vector<EncodedEvent>{*e} : std::vector<EncodedEvent>{};
}

double thread_cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

void spin_for(std::chrono::milliseconds d) {
    const auto end = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < end) {
    }
}

} // namespace

TEST(JobCounters, EveryThreadIsCountedAndAnEndedOnesCountsAreKept) {
    const auto events = task_clock();
    ASSERT_FALSE(events.empty());
    {  // Where software events cannot be opened on this process (a locked-down container): skip.
        ThreadCounters probe;
        if (probe.open(::gettid(), events) == 0) GTEST_SKIP() << "task-clock does not open here";
    }
    // The worker waits asleep (no CPU) until told, spins 200 ms of wall time, and says how much
    // CPU time it had in all; this thread spins 50 ms. Under load the CPU time is less than the
    // wall time: the counts are checked against the CPU time the threads themselves saw.
    std::mutex m;
    std::condition_variable cv;
    bool go = false;
    std::atomic<bool> stop{false};
    std::atomic<double> worker_cpu{0};
    std::thread worker([&] {
        {
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return go; });
        }
        spin_for(std::chrono::milliseconds(200));
        worker_cpu = thread_cpu_seconds();
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    });
    JobCounters job(events);
    const double main_cpu_at_open = thread_cpu_seconds();
    job.update({::getpid()});
    EXPECT_GE(job.live_threads(), 2);  // this thread and the worker, which existed before the first look
    const double at_start = job.totals()["clock"];
    {
        std::lock_guard<std::mutex> lock(m);
        go = true;
    }
    cv.notify_one();
    spin_for(std::chrono::milliseconds(50));
    while (worker_cpu.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const double main_cpu = thread_cpu_seconds() - main_cpu_at_open;
    const double while_alive = job.totals()["clock"];
    stop = true;
    worker.join();
    const int before = job.live_threads();
    // Most of both threads' CPU time, and not much more: a worker left out would leave a quarter.
    const double expected_ns = (worker_cpu.load() + main_cpu) * 1e9;
    EXPECT_GT(while_alive - at_start, 0.6 * expected_ns) << "worker " << worker_cpu.load() << " s, main " << main_cpu << " s";
    EXPECT_LT(while_alive - at_start, 1.4 * expected_ns + 20e6);
    job.update({::getpid()});  // the worker has ended: retired, its counts kept
    EXPECT_EQ(job.live_threads(), before - 1);
    EXPECT_GE(job.totals()["clock"], while_alive);
    EXPECT_TRUE(job.failures().empty());
    // Nothing of the job left: every thread retired, the totals stay.
    job.update({});
    EXPECT_EQ(job.live_threads(), 0);
    EXPECT_GE(job.totals()["clock"], while_alive);
}

TEST(JobCounters, FindsTheProcessesOfAJob) {
    // A child with the job in its environment is found; this process (no such job) is not.
    const std::string job = "roofline-test-" + std::to_string(::getpid());
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::setenv("ROOFLINE_JOB_ID", job.c_str(), 1);
        ::execlp("sleep", "sleep", "5", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    std::vector<pid_t> found;
    for (int i = 0; i < 100 && found.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const auto jobs = job_processes(job);
        if (const auto it = jobs.find(job); it != jobs.end()) found = it->second;
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_EQ(found, std::vector<pid_t>{child});
    EXPECT_TRUE(job_processes("no-such-job-" + job).empty());
}
