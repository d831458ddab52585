#include "measure/output_tee.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <pthread.h>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <string_view>
#include <vector>
#include <unistd.h>

namespace roofline::measure {

OutputTee::OutputTee(std::size_t keep, int pass_to, std::size_t keep_tail)
    : pass_to_(pass_to), keep_(keep), keep_tail_(keep_tail) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    thread_ = std::thread([this] { copy(); });
}

OutputTee::~OutputTee() { finish(0); }

void OutputTee::copy() {
    // Our standard output closed (measure ... | head): write() fails with EPIPE in this thread
    // instead of SIGPIPE ending roofline; the child goes on writing into the pipe we drain.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    char buf[65536];
    auto past_deadline = [this] {
        const auto d = deadline_ns_.load();
        return d != 0 && std::chrono::steady_clock::now().time_since_epoch().count() > d;
    };
    for (;;) {
        pollfd p{read_fd_, POLLIN, 0};
        const int r = ::poll(&p, 1, 100);
        if (r < 0 && errno == EINTR) continue;
        if (past_deadline()) return;
        if (r == 0) continue;
        const ssize_t n = ::read(read_fd_, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // every writer closed it
        total_ += static_cast<std::uint64_t>(n);
        if (kept_.size() < keep_)
            kept_.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), keep_ - kept_.size()));
        if (keep_tail_ > 0) {
            tail_.append(buf, static_cast<std::size_t>(n));
            if (tail_.size() > 2 * keep_tail_) tail_.erase(0, tail_.size() - keep_tail_);  // amortized
        }
        for (ssize_t off = 0; pass_to_ >= 0 && off < n;) {
            const ssize_t w = ::write(pass_to_, buf + off, static_cast<std::size_t>(n - off));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;  // our standard output is gone: keep reading, so the child is not blocked
            off += w;
        }
    }
}

void OutputTee::finish(double drain_seconds) {
    if (write_fd_ >= 0) {
        ::close(write_fd_);
        write_fd_ = -1;
    }
    if (thread_.joinable()) {
        // The thread ends at end of file; a grandchild that keeps the pipe open is given drain_seconds.
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(drain_seconds);
        deadline_ns_.store(std::max<std::int64_t>(1, until.time_since_epoch().count()));
        thread_.join();
    }
    if (read_fd_ >= 0) {
        ::close(read_fd_);
        read_fd_ = -1;
    }
    if (tail_.size() > keep_tail_) tail_.erase(0, tail_.size() - keep_tail_);
}

QuietOutput::QuietOutput(bool keep_stdout) : err_(0, -1, kStderrTail) {
    if (keep_stdout) out_.emplace(std::size_t{64} << 20, -1);
    else devnull_ = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
}

QuietOutput::~QuietOutput() {
    if (devnull_ >= 0) ::close(devnull_);
}

int QuietOutput::stdout_fd() const { return out_ ? out_->child_fd() : devnull_; }

void QuietOutput::finish() {
    if (out_) out_->finish();
    // A grandchild left running with our pipe as its standard error is waited for briefly only.
    err_.finish(1);
}

const std::string& QuietOutput::stdout_kept() const {
    static const std::string none;
    return out_ ? out_->kept() : none;
}

std::uint64_t QuietOutput::stdout_total() const { return out_ ? out_->total() : 0; }

std::string stderr_tail_text(const std::string& tail, std::size_t max_lines) {
    std::string_view t = tail;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.remove_suffix(1);
    if (t.empty()) return {};
    std::vector<std::string_view> lines;  // the first may be cut: the tail starts mid-line
    for (std::size_t at = 0; at <= t.size();) {
        const auto nl = std::min(t.find('\n', at), t.size());
        lines.push_back(t.substr(at, nl - at));
        at = nl + 1;
    }
    std::string out = "\n  its standard error (not shown as it ran) ended with:";
    for (std::size_t i = lines.size() > max_lines ? lines.size() - max_lines : 0; i < lines.size(); ++i) {
        out += "\n  | ";
        out += lines[i];
    }
    return out;
}

void note_quiet_output(std::vector<std::string>& notes) {
    static const std::string note =
        "the program's output (standard output and error) is shown for its first native run only: the later "
        "runs (timed repeats, the counting run under Valgrind, call timing, sampling) show none; a later run "
        "that fails has the end of its standard error quoted";
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
}

} // namespace roofline::measure
