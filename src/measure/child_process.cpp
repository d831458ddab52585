#include "measure/child_process.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace roofline::measure {
namespace {

std::atomic<pid_t> g_child{0};

extern "C" void forward_signal(int sig) {
    const pid_t pid = g_child.load();
    if (pid > 0) ::kill(pid, sig);
}

// Installs forwarding for the lifetime of one child, restores the old handlers after.
class SignalForwarding {
public:
    SignalForwarding() {
        struct sigaction sa {};
        sa.sa_handler = forward_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        ::sigaction(SIGINT, &sa, &old_int_);
        ::sigaction(SIGTERM, &sa, &old_term_);
    }
    ~SignalForwarding() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
        g_child.store(0);
    }
    SignalForwarding(const SignalForwarding&) = delete;
    SignalForwarding& operator=(const SignalForwarding&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

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

} // namespace

std::string signal_name(int sig) {
    switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    default: return fmt::format("signal {}", sig);
    }
}

std::string ChildStatus::describe() const {
    if (!started) return "not started";
    if (exited) return fmt::format("exited with status {}", exit_code);
    return fmt::format("killed by signal {} ({})", signal, signal_name(signal));
}

int ChildStatus::pass_through_code() const {
    if (!started) return 127;
    return exited ? exit_code : 128 + signal;
}

std::string find_executable(const std::string& name) {
    namespace fs = std::filesystem;
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : std::string{};
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

ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                   const std::function<void(pid_t)>& before_exec, const std::function<int(pid_t)>& wait_for_exit) {
    if (argv.empty()) throw CommandNotFound("no command given: put it after '--', e.g. roofline measure -- ./app");
    const std::string exe = find_executable(argv[0]);
    if (exe.empty()) {
        if (argv[0].find('/') != std::string::npos && ::access(argv[0].c_str(), F_OK) == 0)
            throw CommandNotFound(fmt::format("cannot execute {}: permission denied", argv[0]));
        throw CommandNotFound(fmt::format("command not found: {}", argv[0]));
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

    std::fflush(stdout);
    std::fflush(stderr);
    SignalForwarding forwarding;
    const pid_t pid = ::fork();
    if (pid < 0) throw MeasureError(fmt::format("cannot fork: {}", std::strerror(errno)));
    if (pid == 0) {
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
        ::execve(exe.c_str(), args.data(), envp.data());
        const int e = errno;
        write_all(err[1], &e, sizeof e);
        ::_exit(127);
    }
    g_child.store(pid);
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
        while (::waitpid(pid, &wstatus, 0) < 0) {
            if (errno != EINTR) break;
        }
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (hook_error) std::rethrow_exception(hook_error);
    if (n == static_cast<ssize_t>(sizeof exec_errno))
        throw CommandNotFound(fmt::format("cannot execute {}: {}", argv[0], std::strerror(exec_errno)));

    ChildRun run;
    run.status.started = true;
    run.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
    if (WIFEXITED(wstatus)) {
        run.status.exited = true;
        run.status.exit_code = WEXITSTATUS(wstatus);
    } else if (WIFSIGNALED(wstatus)) {
        run.status.signal = WTERMSIG(wstatus);
    }
    return run;
}

} // namespace roofline::measure
