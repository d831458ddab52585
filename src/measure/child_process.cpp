#include "measure/child_process.hpp"

#include "core/byte_sizes.hpp"
#include "core/cut_off_point.hpp"
#include "core/message_name.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace roofline::measure {
namespace {

std::atomic<pid_t> g_child{0};      // the running child
std::atomic<pid_t> g_group{0};      // its process group, when it leads its own; else 0
std::atomic<int> g_interrupt{0};    // the first SIGINT / SIGTERM / SIGHUP (sticky)
// Whether SIGPIPE was ignored when roofline started. measure ignores it while it runs (a reader
// of its output that left must not cost the points); an ignored signal stays ignored across
// exec, so the child gets back what roofline was given.
const bool g_pipe_ignored_at_start = [] {
    struct sigaction old {};
    return ::sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
}();

// A message from the watchdog or the wait loop: fwrite, which does not throw when stderr's reader
// left (fmt::print does, and on the watchdog's thread that would abort).
void say(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}
sem_t g_wake;                       // posted by the handler while a child runs: wakes the watchdog
std::once_flag g_wake_once;

// The last stop signal taken, and who sent it (si_pid of a kill(); 0 for a terminal's or the
// kernel's), for telling one request delivered twice from a second request.
std::atomic<int> g_last_signal{0};
std::atomic<pid_t> g_last_sender{0};
std::atomic<long long> g_last_signal_ns{0};
// GNU timeout (without --foreground) sends its signal to the command and then to its own process
// group, which holds the command too: one request, two deliveries microseconds apart, which read
// as a user's second Ctrl-C and sent SIGKILL at once (`timeout -s INT 8 roofline measure ...`: "the
// command got a second SIGINT"), robbing the program of its grace to stop. A repeat from the same
// sending process within this window is that one request; no one presses Ctrl-C twice so fast.
constexpr long long kSameRequestNs = 50'000'000;

// Whether this delivery repeats the last one: the same signal from the same process (kill) within
// kSameRequestNs. Async-signal-safe (clock_gettime and lock-free atomics).
bool repeated_delivery(int sig, const siginfo_t* info) {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    const long long ns = static_cast<long long>(now.tv_sec) * 1'000'000'000LL + now.tv_nsec;
    const pid_t sender = info != nullptr && info->si_code == SI_USER ? info->si_pid : 0;
    const bool repeat = sender > 0 && g_last_signal.load() == sig && g_last_sender.load() == sender &&
                        ns - g_last_signal_ns.load() < kSameRequestNs;
    g_last_signal.store(sig);
    g_last_sender.store(sender);
    g_last_signal_ns.store(ns);
    return repeat;
}

extern "C" void on_stop_signal(int sig, siginfo_t* info, void*) {
    if (repeated_delivery(sig, info)) return;  // the child has it already; no second request
    int none = 0;
    g_interrupt.compare_exchange_strong(none, sig);
    const pid_t pid = g_child.load();
    const pid_t group = g_group.load();
    // A terminal's Ctrl-C (si_code SI_KERNEL) has already reached a child in our own process group.
    const bool from_terminal = info != nullptr && info->si_code == SI_KERNEL;
    if (group > 0)
        ::kill(-group, sig);
    else if (pid > 0 && !from_terminal)
        ::kill(pid, sig);
    if (pid > 0) ::sem_post(&g_wake);
}

struct SavedHandlers {
    struct sigaction old_int {};
    struct sigaction old_term {};
    struct sigaction old_hup {};
    SavedHandlers() {
        struct sigaction sa {};
        sa.sa_sigaction = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART | SA_SIGINFO;
        ::sigaction(SIGINT, &sa, &old_int);
        ::sigaction(SIGTERM, &sa, &old_term);
        // SIGHUP (the terminal closed, an ssh connection dropped) too, unless ignored on purpose
        // (nohup): the command is stopped as by Ctrl-C, and what was measured is kept.
        ::sigaction(SIGHUP, nullptr, &old_hup);
        if (old_hup.sa_handler != SIG_IGN) ::sigaction(SIGHUP, &sa, nullptr);
    }
    ~SavedHandlers() {
        ::sigaction(SIGINT, &old_int, nullptr);
        ::sigaction(SIGTERM, &old_term, nullptr);
        ::sigaction(SIGHUP, &old_hup, nullptr);
    }
    SavedHandlers(const SavedHandlers&) = delete;
    SavedHandlers& operator=(const SavedHandlers&) = delete;
};

// Forwarding for the lifetime of one child; the old handlers come back after.
class SignalForwarding {
public:
    SignalForwarding() = default;
    ~SignalForwarding() {
        g_child.store(0);
        g_group.store(0);
    }
    SignalForwarding(const SignalForwarding&) = delete;
    SignalForwarding& operator=(const SignalForwarding&) = delete;

private:
    SavedHandlers handlers_;
};

// Escalates a forwarded SIGINT / SIGTERM: SIGKILL when the child has not ended
// `grace` seconds later, or at once on a second signal. A thread, so that it
// works whatever waits for the child (waitpid, a tracer's event loop).
class Watchdog {
public:
    Watchdog(pid_t pid, pid_t group, double grace) : pid_(pid), group_(group), grace_(grace) {
        thread_ = std::thread([this] { watch(); });
    }
    // Call once the child is reaped.
    ~Watchdog() {
        done_.store(true);
        ::sem_post(&g_wake);
        thread_.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    bool wait_wake(const timespec* deadline) {
        for (;;) {
            const int rc = deadline ? ::sem_timedwait(&g_wake, deadline) : ::sem_wait(&g_wake);
            if (rc == 0) return true;
            if (errno != EINTR) return false;  // ETIMEDOUT
        }
    }
    void watch() {
        // Signals go to the threads that do not block them: this one only waits.
        sigset_t all;
        sigfillset(&all);
        ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
        wait_wake(nullptr);
        if (done_.load()) return;
        const int sig = g_interrupt.load();
        timespec deadline{};
        ::clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += static_cast<time_t>(grace_);
        deadline.tv_nsec += static_cast<long>((grace_ - static_cast<double>(static_cast<time_t>(grace_))) * 1e9);
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec += 1;
            deadline.tv_nsec -= 1000000000L;
        }
        const bool again = wait_wake(&deadline);  // a second signal, or the child's end
        if (done_.load()) return;
        say(fmt::format("roofline: the command {}; sending SIGKILL\n",
                        again ? fmt::format("got a second {}", signal_name(sig))
                              : fmt::format("did not end within {:g} s of {}", grace_, signal_name(sig))));
        if (group_ > 0) ::kill(-group_, SIGKILL);
        else ::kill(pid_, SIGKILL);
    }

    pid_t pid_, group_;
    double grace_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// Where each run's standard input comes from (replay_stdin_for_every_run).
enum class StdinMode { inherit, rewind, temp_file, temp_then_stdin };
struct StdinState {
    StdinMode mode = StdinMode::inherit;
    off_t offset = 0;   // rewind: where fd 0 started
    int temp_fd = -1;   // temp_file, temp_then_stdin: what was read from the pipe
    bool first_run_done = false;
};
StdinState g_stdin;

void write_all(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        p += n;
        size -= static_cast<size_t>(n);
    }
}

// Copies what was captured of a pipe, then the rest of roofline's standard
// input, into `out` (the first run's stdin when the input was longer than the
// capture limit). Stops when the child closes its end or `stop` is set;
// closes `out` (the child sees the end of its input).
void feed_stdin(int temp_fd, int out, const std::atomic<bool>& stop) {
    struct Close {
        int fd;
        ~Close() { ::close(fd); }
    } close_out{out};
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, nullptr);  // SIGPIPE: EPIPE instead; SIGINT: for the main thread
    char buf[65536];
    auto put = [&](const char* p, size_t n) {
        while (n > 0) {
            pollfd w{out, POLLOUT, 0};
            if (::poll(&w, 1, 100) <= 0) {
                if (stop.load()) return false;
                continue;
            }
            const ssize_t k = ::write(out, p, n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return false;
            p += k;
            n -= static_cast<size_t>(k);
        }
        return true;
    };
    ::lseek(temp_fd, 0, SEEK_SET);
    for (;;) {
        const ssize_t n = ::read(temp_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (!put(buf, static_cast<size_t>(n))) return;
    }
    while (!stop.load()) {
        pollfd r{0, POLLIN, 0};
        if (::poll(&r, 1, 100) <= 0) continue;
        const ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        if (!put(buf, static_cast<size_t>(n))) return;
    }
}

// A program reading a terminal must be in the terminal's foreground process
// group (else SIGTTIN stops it), and a shell's job control (Ctrl-Z, fg) acts
// on our group: with a terminal on stdin the child stays in our group, where
// the terminal's Ctrl-C reaches it and every process it starts by itself.
// Otherwise (scripts, CI, `timeout`, kill) nothing signals the job as a whole,
// so the child leads its own group and a forwarded signal goes to all of it:
// a shell's children included.
bool child_gets_own_group() { return ::isatty(STDIN_FILENO) == 0; }

} // namespace

int interrupt_signal() { return g_interrupt.load(); }
// A request cleared is over: the same signal from the same sender after it is a new one, however
// soon (a test's or a script's second kill right after the first run ended).
void clear_interrupt() {
    g_interrupt.store(0);
    g_last_signal.store(0);
}

struct InterruptScope::Saved : SavedHandlers {};
InterruptScope::InterruptScope() : saved_(new Saved) {}
InterruptScope::~InterruptScope() { delete saved_; }

StdinReplay replay_stdin_for_every_run(std::size_t limit) {
    stop_stdin_replay();
    StdinReplay out;
    struct stat st {};
    if (::isatty(STDIN_FILENO) || ::fstat(STDIN_FILENO, &st) != 0) return out;
    if (S_ISREG(st.st_mode)) {
        const off_t at = ::lseek(STDIN_FILENO, 0, SEEK_CUR);
        if (at < 0) return out;
        g_stdin.mode = StdinMode::rewind;
        g_stdin.offset = at;
        out.note = "standard input is a file: every run reads it from the same place";
        return out;
    }
    if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) return out;  // /dev/null, other devices
    const char* dir = std::getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/roofline-stdin-XXXXXX";
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    const std::string where = dir && *dir ? dir : "/tmp";
    if (fd < 0)
        throw MeasureError(fmt::format("standard input is a pipe, and every run must read all of it, but no temporary "
                                       "file could be made to keep it ({}: {}): set TMPDIR to a writable directory "
                                       "with room for the input, or give the input as a file (< FILE)",
                                       tmpl, std::strerror(errno)));
    ::unlink(tmpl.c_str());  // the open descriptor keeps it; nothing to clean up
    // 0: the default, the whole input up to 4 GiB and never past what leaves the disk room
    // (1 GiB or a tenth of it, the larger): a pipe that never ends (`yes |`) must not fill the
    // disk or hold measure forever; past the limit the warning below says what the points describe.
    std::string limit_why;
    if (limit == 0) {
        limit = std::size_t{4} << 30;
        limit_why = "at most 4 GiB are kept";
        struct statvfs vfs {};
        if (::fstatvfs(fd, &vfs) == 0) {
            const double free_bytes = static_cast<double>(vfs.f_bavail) * static_cast<double>(vfs.f_frsize);
            const double whole = static_cast<double>(vfs.f_blocks) * static_cast<double>(vfs.f_frsize);
            const double room = free_bytes - std::max(double(std::size_t{1} << 30), whole / 10);
            if (room < static_cast<double>(limit)) {
                limit = static_cast<std::size_t>(std::max(room, double(std::size_t{64} << 20)));
                limit_why = fmt::format("{} leaves room on its disk ({} bytes free)", where,
                                        static_cast<std::uint64_t>(free_bytes));
            }
        }
    }
    std::size_t total = 0;
    bool more = false;
    std::vector<char> buf(65536);
    for (;;) {
        // One byte past the limit tells a longer input from one of exactly `limit` bytes.
        if (total > limit) {
            more = true;
            break;
        }
        const std::size_t want = std::min(buf.size(), limit + 1 - total);
        const ssize_t n = ::read(STDIN_FILENO, buf.data(), want);
        if (n < 0 && errno == EINTR) {
            if (g_interrupt.load()) break;
            continue;
        }
        if (n <= 0) break;
        size_t done = 0;
        while (done < static_cast<size_t>(n)) {
            const ssize_t w = ::write(fd, buf.data() + done, static_cast<size_t>(n) - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                const int err = w < 0 ? errno : ENOSPC;
                ::close(fd);
                // Runs reading different input would give counts of one input and the time of another.
                throw MeasureError(fmt::format(
                    "standard input is a pipe, and every run must read all of it, but keeping it in a temporary "
                    "file in {} failed after {} bytes ({}): make room there or set TMPDIR to a directory with room "
                    "for the whole input, or give the input as a file (< FILE)",
                    where, total + done, std::strerror(err)));
            }
            done += static_cast<size_t>(w);
        }
        total += static_cast<size_t>(n);
    }
    g_stdin.temp_fd = fd;
    g_stdin.mode = more ? StdinMode::temp_then_stdin : StdinMode::temp_file;
    const std::string kept = fmt::format("{} bytes ({})", limit, format_bytes(static_cast<std::uint64_t>(limit)));
    if (more)
        out.warning = fmt::format("standard input is longer than the {} kept of it: the first run (a warm-up "
                                  "where the runs repeat) reads all of it, every later run (the timed runs, the "
                                  "counting run) only its first {}, so the points describe the first {} "
                                  "of the input{}; give the input as a file (< FILE) for every run to read all of it",
                                  kept, kept, kept, limit_why.empty() ? "" : " (" + limit_why + ")");
    else
        out.note = fmt::format("standard input is a pipe: its {} bytes were kept so that every run reads the same", total);
    return out;
}

void stop_stdin_replay() {
    if (g_stdin.temp_fd >= 0) ::close(g_stdin.temp_fd);
    g_stdin = StdinState{};
}

std::string signal_name(int sig) { return signal_text(sig); }

std::string ChildStatus::describe() const {
    if (!started) return "not started";
    if (exited) return fmt::format("exited with status {}", exit_code);
    return fmt::format("killed by signal {} ({})", signal, signal_name(signal));
}

int ChildStatus::pass_through_code() const {
    if (!started) return 127;
    return exited ? exit_code : 128 + signal;
}

namespace {
std::atomic<int> g_next_stdout{-1};  // capture_next_run_stdout

// announce_next_long_run / set_long_run_progress.
std::atomic<bool> g_progress{true};
std::mutex g_announce_mutex;
std::optional<std::pair<std::string, std::string>> g_announce;  // what, hint

// Says that a long run goes on: at 10 s, 30 s, 60 s, then every minute, until the child ends.
class Heartbeat {
public:
    Heartbeat(std::string what, std::string hint) : what_(std::move(what)), hint_(std::move(hint)) {
        thread_ = std::thread([this] { beat(); });
    }
    ~Heartbeat() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    Heartbeat(const Heartbeat&) = delete;
    Heartbeat& operator=(const Heartbeat&) = delete;

private:
    void beat() {
        sigset_t all;
        sigfillset(&all);
        ::pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals are the main thread's to take
        const auto start = std::chrono::steady_clock::now();
        int next = 10;
        std::unique_lock lock(mutex_);
        for (;;) {
            if (wake_.wait_until(lock, start + std::chrono::seconds(next), [this] { return done_; })) return;
            say(fmt::format("roofline: {}: {} s so far{}\n", what_, next, hint_.empty() ? "" : " (" + hint_ + ")"));
            next = next < 30 ? 30 : next < 60 ? 60 : next + 60;
        }
    }

    std::string what_, hint_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};
} // namespace

void capture_next_run_stdout(int fd) { g_next_stdout.store(fd); }

void set_long_run_progress(bool enabled) { g_progress.store(enabled); }

void announce_next_long_run(const std::string& what, const std::string& hint) {
    std::lock_guard lock(g_announce_mutex);
    g_announce.emplace(what, hint);
}

std::string find_executable(const std::string& name) {
    namespace fs = std::filesystem;
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) {
        std::error_code ec;
        return !fs::is_directory(name, ec) && ::access(name.c_str(), X_OK) == 0 ? name : std::string{};
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        std::string dir = dirs.substr(start, end - start);
        if (dir.empty()) dir = ".";
        const auto candidate = (fs::path(dir) / name).string();
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

std::string not_executable_reason(const std::string& name) {
    std::error_code ec;
    return std::filesystem::is_directory(name, ec) ? "is a directory" : "permission denied";
}

std::function<int(pid_t)> wait_within(TimeLimit& limit) {
    return [&limit](pid_t pid) {
        using Clock = std::chrono::steady_clock;
        const auto seconds = [](double s) {
            return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
        };
        // The child's status once it ends before `until`; nullopt when it has not.
        const auto wait_until = [&](Clock::time_point until) -> std::optional<int> {
            for (;;) {
                int status = 0;
                const pid_t r = ::waitpid(pid, &status, WNOHANG);
                if (r == pid) return status;
                if (r < 0 && errno != EINTR) return 0;  // not ours to wait for any more
                if (Clock::now() >= until) return std::nullopt;
                std::this_thread::sleep_for(std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(50)));
            }
        };
        auto deadline = Clock::now() + seconds(limit.seconds);
        if (const auto status = wait_until(deadline)) return *status;
        limit.expired = true;
        const pid_t group = g_group.load();
        const auto signal_child = [&](int sig) {
            if (group > 0) ::kill(-group, sig);
            ::kill(pid, sig);
        };
        signal_child(SIGTERM);
        deadline = Clock::now() + seconds(limit.kill_after);
        if (const auto status = wait_until(deadline)) return *status;
        signal_child(SIGKILL);
        limit.sent_sigkill = true;
        deadline = Clock::now() + seconds(limit.give_up_after);
        if (const auto status = wait_until(deadline)) return *status;
        limit.left_behind = true;
        return SIGKILL;  // a wait status: killed by SIGKILL
    };
}

ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                   const std::function<void(pid_t)>& before_exec, const std::function<int(pid_t)>& wait_for_exit,
                   double stop_grace_seconds, int child_stdout, int child_stderr) {
    std::call_once(g_wake_once, [] { ::sem_init(&g_wake, 0, 0); });
    // This run takes the announcement (announce_next_long_run), whether or not it starts.
    std::optional<std::pair<std::string, std::string>> announced;
    {
        std::lock_guard lock(g_announce_mutex);
        announced.swap(g_announce);
    }
    if (const int sig = g_interrupt.load())
        throw Interrupted(fmt::format("interrupted by {}: no further run of the command", signal_name(sig)));
    if (argv.empty()) throw CommandNotFound("no command given: put it after '--', e.g. roofline measure -- ./app");
    const std::string exe = find_executable(argv[0]);
    if (exe.empty()) {
        if (argv[0].find('/') != std::string::npos && ::access(argv[0].c_str(), F_OK) == 0)
            throw CommandNotFound(
                fmt::format("cannot execute {}: {}", message_name(argv[0]), not_executable_reason(argv[0])), 126);
        throw CommandNotFound(fmt::format("command not found: {}", message_name(argv[0])));
    }

    // go: parent -> child "exec now"; err: child -> parent errno of a failed exec (closed on success).
    int go[2], err[2];
    if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        throw MeasureError(fmt::format("cannot create a pipe: {}", std::strerror(errno)));

    // The child's environment is built here: after fork only async-signal-safe calls.
    std::vector<std::string> env_strings;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const auto key = entry.substr(0, entry.find('='));
        const bool overridden =
            std::any_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == key; });
        if (!overridden) env_strings.push_back(entry);
    }
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A script without "#!" is run by the shell, as execvp(3) and every shell do (made here: no
    // allocation between fork and exec).
    std::vector<char*> shell_args{const_cast<char*>("/bin/sh"), const_cast<char*>(exe.c_str())};
    shell_args.insert(shell_args.end(), args.begin() + 1, args.end());

    if (const int next = g_next_stdout.exchange(-1); child_stdout < 0) child_stdout = next;
    // This run's standard input (replay_stdin_for_every_run): a file descriptor for the child's fd 0, or -1.
    int child_stdin = -1;
    int feed[2] = {-1, -1};
    switch (g_stdin.mode) {
    case StdinMode::inherit: break;
    case StdinMode::rewind: ::lseek(STDIN_FILENO, g_stdin.offset, SEEK_SET); break;
    case StdinMode::temp_then_stdin:
        if (!g_stdin.first_run_done && ::pipe2(feed, O_CLOEXEC) == 0) {
            child_stdin = feed[0];
            break;
        }
        [[fallthrough]];
    case StdinMode::temp_file:
        ::lseek(g_stdin.temp_fd, 0, SEEK_SET);
        child_stdin = g_stdin.temp_fd;
        break;
    }
    g_stdin.first_run_done = true;

    const bool own_group = child_gets_own_group();
    const pid_t parent = ::getpid();
    std::fflush(stdout);
    std::fflush(stderr);
    SignalForwarding forwarding;
    // Blocked across fork: a signal now stays pending until the parent knows whom to forward it to, and
    // one forwarded before exec is taken by the child with the default action, not by our handler.
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGHUP);
    ::pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);
    if (const int sig = g_interrupt.load()) {
        ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
        throw Interrupted(fmt::format("interrupted by {}: no further run of the command", signal_name(sig)));
    }
    while (::sem_trywait(&g_wake) == 0) {  // posts left from an earlier child
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
        throw MeasureError(fmt::format("cannot fork: {}", std::strerror(errno)));
    }
    if (pid == 0) {
        // Dies with roofline, even by SIGKILL; the check closes the race with a parent that died before prctl.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        if (own_group) ::setpgid(0, 0);
        if (child_stdin >= 0) ::dup2(child_stdin, STDIN_FILENO);
        if (child_stdout >= 0) ::dup2(child_stdout, STDOUT_FILENO);
        if (child_stderr >= 0) ::dup2(child_stderr, STDERR_FILENO);
        ::close(go[1]);
        ::close(err[0]);
        char byte = 0;
        while (::read(go[0], &byte, 1) < 0 && errno == EINTR) {
        }
        if (byte != 'g') ::_exit(127);  // the parent gave up before exec
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGINT, &dfl, nullptr);
        ::sigaction(SIGTERM, &dfl, nullptr);
        struct sigaction hup {};
        ::sigaction(SIGHUP, nullptr, &hup);
        if (hup.sa_handler != SIG_IGN) ::sigaction(SIGHUP, &dfl, nullptr);  // ignored under nohup: stays so
        if (!g_pipe_ignored_at_start) ::sigaction(SIGPIPE, &dfl, nullptr);
        ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
        ::execve(exe.c_str(), args.data(), envp.data());
        if (errno == ENOEXEC) {
            ::execve("/bin/sh", shell_args.data(), envp.data());
            errno = ENOEXEC;
        }
        const int e = errno;
        write_all(err[1], &e, sizeof e);
        ::_exit(127);
    }
    // Both sides set the group, so that it exists before either goes on.
    if (own_group) ::setpgid(pid, pid);
    g_group.store(own_group ? pid : 0);
    g_child.store(pid);
    std::atomic<bool> stop_feeding{false};
    std::thread feeder;
    if (feed[0] >= 0) {
        ::close(feed[0]);
        feeder = std::thread(feed_stdin, g_stdin.temp_fd, feed[1], std::cref(stop_feeding));
    }
    struct FeederEnd {  // the child has ended, or run_child throws: stop feeding it
        std::atomic<bool>& stop;
        std::thread& thread;
        ~FeederEnd() {
            stop.store(true);
            if (thread.joinable()) thread.join();
        }
    } feeder_end{stop_feeding, feeder};
    std::optional<Watchdog> watchdog;
    watchdog.emplace(pid, own_group ? pid : 0, stop_grace_seconds);
    std::optional<Heartbeat> heartbeat;
    if (announced && g_progress.load()) heartbeat.emplace(announced->first, announced->second);
    ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);  // a signal pending meanwhile is forwarded now
    ::close(go[0]);
    ::close(err[1]);
    bool go_ahead = true;
    std::exception_ptr hook_error;
    if (before_exec) {
        try {
            before_exec(pid);
        } catch (...) {
            hook_error = std::current_exception();
            go_ahead = false;
        }
    }
    // The CPU time of the children reaped from here to the end: this child and the descendants it
    // waited for (a shell's command, mpirun's ranks), whoever waits for it.
    struct rusage children_before {};
    ::getrusage(RUSAGE_CHILDREN, &children_before);
    const auto activity_before = take_cpu_activity_snapshot();
    const auto t0 = std::chrono::steady_clock::now();
    write_all(go[1], go_ahead ? "g" : "x", 1);
    ::close(go[1]);

    int exec_errno = 0;
    ssize_t n;
    while ((n = ::read(err[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
    }
    ::close(err[0]);

    int wstatus = 0;
    if (wait_for_exit && n != static_cast<ssize_t>(sizeof exec_errno)) {
        wstatus = wait_for_exit(pid);
    } else {
        // A command that stops itself (raise(SIGSTOP), or SIGTSTP/SIGTTIN/SIGTTOU) waits for a job-control
        // shell to continue it; here nothing would, and measure would wait forever. It is continued, and
        // stopped for good if it keeps stopping (a read from a terminal it does not own stops it each time).
        int stops = 0;
        for (;;) {
            if (::waitpid(pid, &wstatus, WUNTRACED) < 0) {
                if (errno == EINTR) continue;
                break;
            }
            if (!WIFSTOPPED(wstatus)) break;
            // Sharing our process group (stdin is a terminal), the command is stopped with us by Ctrl-Z
            // (SIGTSTP), and the shell continues us both: only a SIGSTOP is its own doing then.
            if (!own_group && WSTOPSIG(wstatus) != SIGSTOP) continue;
            if (++stops == 1)
                say(fmt::format("roofline: the command stopped itself ({}); continuing it (nothing else will "
                                "under measure)\n", signal_name(WSTOPSIG(wstatus))));
            if (stops > 1000) {
                say(fmt::format("roofline: the command stopped itself {} times ({} last); sending SIGKILL\n",
                                stops, signal_name(WSTOPSIG(wstatus))));
                if (own_group) ::kill(-pid, SIGKILL);
                ::kill(pid, SIGKILL);
            }
            if (own_group) ::kill(-pid, SIGCONT);
            ::kill(pid, SIGCONT);
        }
    }
    const auto t1 = std::chrono::steady_clock::now();
    const auto activity_after = activity_before ? take_cpu_activity_snapshot(*activity_before) : std::nullopt;
    heartbeat.reset();
    watchdog.reset();
    if (hook_error) std::rethrow_exception(hook_error);
    if (n == static_cast<ssize_t>(sizeof exec_errno))
        throw CommandNotFound(fmt::format("cannot execute {}: {}", message_name(argv[0]), std::strerror(exec_errno)),
                              exec_errno == ENOENT ? 127 : 126);

    ChildRun run;
    run.status.started = true;
    run.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
    struct rusage children_after {};
    if (::getrusage(RUSAGE_CHILDREN, &children_after) == 0) {
        const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
        run.user_seconds = std::max(0.0, seconds(children_after.ru_utime) - seconds(children_before.ru_utime));
        run.system_seconds = std::max(0.0, seconds(children_after.ru_stime) - seconds(children_before.ru_stime));
    }
    if (activity_before && activity_after) run.activity = cpu_activity_between(*activity_before, *activity_after);
    if (WIFEXITED(wstatus)) {
        run.status.exited = true;
        run.status.exit_code = WEXITSTATUS(wstatus);
    } else if (WIFSIGNALED(wstatus)) {
        run.status.signal = WTERMSIG(wstatus);
    }
    return run;
}

} // namespace roofline::measure
