// A child's output read through a pipe by a thread: passed on (to our standard output, or
// nowhere) and kept (its first `keep` bytes, its last `keep_tail` bytes, and its total size), so
// that --counts-from can compare what the timed program and the counted one printed, and a later
// run that fails can show how its standard error ended.
#pragma once

#include <atomic>
#include <optional>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>
#include <algorithm>

namespace roofline::measure {

class OutputTee {
public:
    // `pass_to`: where what the child writes is copied to as it comes (-1: nowhere, only kept).
    explicit OutputTee(std::size_t keep = std::size_t{64} << 20, int pass_to = 1, std::size_t keep_tail = 0);
    ~OutputTee();
    OutputTee(const OutputTee&) = delete;
    OutputTee& operator=(const OutputTee&) = delete;
    // The child's standard output (run_child's `child_stdout`); -1 when no pipe could be made.
    int child_fd() const { return write_fd_; }
    // After the child ended: the rest is read (a grandchild still holding the pipe is
    // waited for at most `drain_seconds`), the thread ends.
    void finish(double drain_seconds = 2);
    const std::string& kept() const { return kept_; }
    // The last `keep_tail` bytes (after finish).
    const std::string& tail() const { return tail_; }
    std::uint64_t total() const { return total_; }

private:
    void copy();
    int read_fd_ = -1, write_fd_ = -1;
    int pass_to_;
    std::size_t keep_, keep_tail_;
    std::string kept_, tail_;
    std::uint64_t total_ = 0;
    std::atomic<std::int64_t> deadline_ns_{0};  // steady_clock ticks; 0: none yet
    std::thread thread_;
};

// The output of a run after the first native one (a timed repeat, the counting run under
// Valgrind, the call-timing and sampling runs). The first run showed the program's output, so
// a later one shows none: its standard output goes to /dev/null (or, with `keep_stdout`, is
// kept unshown for --counts-from's comparison), and its standard error is kept, its last
// kStderrTail bytes, for the message should the run fail (stderr_tail_text).
class QuietOutput {
public:
    static constexpr std::size_t kStderrTail = 2048;
    explicit QuietOutput(bool keep_stdout = false);
    ~QuietOutput();
    QuietOutput(const QuietOutput&) = delete;
    QuietOutput& operator=(const QuietOutput&) = delete;
    // run_child's `child_stdout` and `child_stderr` (-1 where none could be made: the run writes ours).
    int stdout_fd() const;
    int stderr_fd() const { return err_.child_fd(); }
    // After the run: the pipes read to their end.
    void finish();
    // keep_stdout: the standard output kept (its first 64 MiB) and its size.
    const std::string& stdout_kept() const;
    std::uint64_t stdout_total() const;
    const std::string& stderr_tail() const { return err_.tail(); }

private:
    int devnull_ = -1;
    std::optional<OutputTee> out_;  // keep_stdout
    OutputTee err_;
};

// "" when `tail` is empty; else "\n  its standard error ended with:\n  | line ..." (its last
// lines, at most `max_lines`), to append to a message about a run whose output was not shown.
std::string stderr_tail_text(const std::string& tail, std::size_t max_lines = 8);

// Says once in `notes` (a run's notes) that the later runs show no output.
void note_quiet_output(std::vector<std::string>& notes);

} // namespace roofline::measure
