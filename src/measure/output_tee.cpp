#include "measure/output_tee.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <pthread.h>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace roofline::measure {

OutputTee::OutputTee(std::size_t keep) : keep_(keep) {
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
        for (ssize_t off = 0; off < n;) {
            const ssize_t w = ::write(STDOUT_FILENO, buf + off, static_cast<std::size_t>(n - off));
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
}

} // namespace roofline::measure
