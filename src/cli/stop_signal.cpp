#include "cli/stop_signal.hpp"

#include <csignal>
#include <unistd.h>

namespace roofline::cli {
namespace {

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = SIGINT;

extern "C" void cli_on_stop_signal(int signal) {
    if (g_stop.exchange(true)) _exit(128 + signal);  // a second signal: leave at once
    g_signal = signal;
}

} // namespace

StopSignal::StopSignal() {
    g_stop = false;
    struct sigaction action {};
    action.sa_handler = cli_on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

StopSignal::~StopSignal() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

const std::atomic<bool>& StopSignal::flag() const { return g_stop; }

int StopSignal::exit_code() const { return 128 + static_cast<int>(g_signal); }

} // namespace roofline::cli
