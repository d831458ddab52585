#include "cli/stop_signal.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace roofline::cli {
namespace {

// SIGPIPE: the reader of our output left ('| head', a pager quit): the next line written would
// end the process and lose what was measured, so it stops the run as a closed terminal does.
constexpr std::array<int, 4> kStopSignals{SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr int kLeaveAfter = 5;  // Repeat::count: the fifth signal leaves even while saving hangs
constexpr const char* kLeaveText = "a fifth stop: leaving at once; what was not saved yet is lost";
// StopWatcher polls every 100 ms: a stop is seen, and its grace counted, to that step.
constexpr std::chrono::milliseconds kTick{100};

std::atomic<bool> g_stop{false};
std::atomic<int> g_count{0};
std::atomic<int> g_signal{0};
std::atomic<bool> g_count_repeats{false};

// The messages, made before the handlers are installed: the handler only writes them.
struct Message {
    char text[512];
    std::size_t size;
};
Message g_first[kStopSignals.size()];
Message g_again[kStopSignals.size()];
Message g_leave[kStopSignals.size()];  // Repeat::count's last signal: `again` promised saving, so say it did not

const char* signal_label(int signal) {
    switch (signal) {
    case SIGINT: return "SIGINT (Ctrl-C)";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP (the terminal closed)";
    case SIGPIPE: return "SIGPIPE (the reader of the output left)";
    default: return "a signal";
    }
}

void prepare(Message& m, int signal, const std::string& what, const char* again) {
    m.size = 0;
    m.text[0] = '\0';
    if (what.empty()) return;
    std::string text = std::string("\nroofline: ") + signal_label(signal) + again + ": " + what + "\n";
    if (text.size() >= sizeof m.text) text = text.substr(0, sizeof m.text - 2) + "\n";
    std::memcpy(m.text, text.data(), text.size());
    m.size = text.size();
}

int slot(int signal) {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i)
        if (kStopSignals[i] == signal) return static_cast<int>(i);
    return 0;
}

void say(const Message& m) {
    if (m.size == 0) return;
    const int saved = errno;
    ssize_t ignored = ::write(STDERR_FILENO, m.text, m.size);  // a closed terminal: EIO, nothing more
    (void)ignored;
    errno = saved;
}

extern "C" void cli_on_stop_signal(int signal) {
    // From here on, what was measured is being saved: a reader gone from a pipe (the other end
    // of `| tee` dropped with the terminal) must not end the process with SIGPIPE meanwhile.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
    const int count = g_count.fetch_add(1) + 1;
    if (count == 1) {
        g_signal = signal;
        g_stop = true;
        say(g_first[slot(signal)]);
        return;
    }
    if (!g_count_repeats.load()) _exit(128 + signal);  // leave at once
    if (count >= kLeaveAfter) {
        say(g_leave[slot(signal)]);
        _exit(128 + signal);
    }
    say(g_again[slot(signal)]);
}

struct sigaction g_old[kStopSignals.size()];
struct sigaction g_old_pipe;

} // namespace

StopSignal::StopSignal(std::string first, Repeat repeat, std::string again) {
    g_stop = false;
    g_count = 0;
    g_signal = 0;
    g_count_repeats = repeat == Repeat::count;
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
        prepare(g_first[i], kStopSignals[i], first, "");
        prepare(g_again[i], kStopSignals[i], again, " again");
        prepare(g_leave[i], kStopSignals[i], again.empty() ? std::string() : kLeaveText, " again");
    }
    ::sigaction(SIGPIPE, nullptr, &g_old_pipe);
    struct sigaction action {};
    action.sa_handler = cli_on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
        ::sigaction(kStopSignals[i], nullptr, &g_old[i]);
        // Under nohup, SIGHUP is ignored on purpose: it stays so; SIGPIPE ignored by whoever
        // started us too (writes fail with EPIPE instead). (SIGINT ignored by a shell for a
        // background job is still taken: `kill -INT` is how such a run is stopped.)
        if ((kStopSignals[i] == SIGHUP || kStopSignals[i] == SIGPIPE) && g_old[i].sa_handler == SIG_IGN) continue;
        ::sigaction(kStopSignals[i], &action, nullptr);
    }
}

StopSignal::~StopSignal() {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
        if (kStopSignals[i] == SIGPIPE) continue;  // below
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        ::sigaction(kStopSignals[i], kStopSignals[i] == SIGHUP ? &g_old[i] : &dfl, nullptr);
    }
    // After a stop, SIGPIPE stays ignored: what was measured is still being said and saved.
    if (!g_stop.load()) ::sigaction(SIGPIPE, &g_old_pipe, nullptr);
}

const std::atomic<bool>& StopSignal::flag() const { return g_stop; }

int StopSignal::signals() const { return g_count.load(); }

int StopSignal::signal() const { return g_signal.load(); }

const char* StopSignal::signal_name() const {
    switch (g_signal.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
    }
}

int StopSignal::exit_code() const {
    const int signal = g_signal.load();
    return 128 + (signal ? signal : SIGINT);
}

StopWatcher::StopWatcher(const StopSignal& stop, double grace_seconds, std::function<void(bool)> give_up) {
    const int grace_ticks = static_cast<int>(std::lround(grace_seconds / 0.1));
    thread_ = std::thread([this, &stop, grace_ticks, give_up = std::move(give_up)] {
        while (!done_ && !stop.stopped()) std::this_thread::sleep_for(kTick);
        for (int i = 0; i < grace_ticks && !done_ && stop.signals() < 2; ++i) std::this_thread::sleep_for(kTick);
        if (done_) return;
        give_up(stop.signals() >= 2);
    });
}

StopWatcher::~StopWatcher() { done(); }

void StopWatcher::done() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
}

} // namespace roofline::cli
