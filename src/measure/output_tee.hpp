// A child's standard output passed through to ours and kept (its first `keep`
// bytes, and its total size), so that --counts-from can compare what the timed
// program and the counted one printed. The copy runs in a thread reading a pipe.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <algorithm>

namespace roofline::measure {

class OutputTee {
public:
    explicit OutputTee(std::size_t keep = std::size_t{64} << 20);
    ~OutputTee();
    OutputTee(const OutputTee&) = delete;
    OutputTee& operator=(const OutputTee&) = delete;
    // The child's standard output (run_child's `child_stdout`); -1 when no pipe could be made.
    int child_fd() const { return write_fd_; }
    // After the child ended: the rest is read (a grandchild still holding the pipe is
    // waited for at most `drain_seconds`), the thread ends.
    void finish(double drain_seconds = 2);
    const std::string& kept() const { return kept_; }
    std::uint64_t total() const { return total_; }

private:
    void copy();
    int read_fd_ = -1, write_fd_ = -1;
    std::size_t keep_;
    std::string kept_;
    std::uint64_t total_ = 0;
    std::atomic<std::int64_t> deadline_ns_{0};  // steady_clock ticks; 0: none yet
    std::thread thread_;
};

} // namespace roofline::measure
