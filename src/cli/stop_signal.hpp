// Ctrl-C, SIGTERM, SIGHUP (a closed terminal, an ssh connection dropped) and SIGPIPE (the
// reader of the output left: '| head', a pager quit) during a long run
// inside this process (bench, kernels, monitor): the first sets a flag the run checks between
// its steps, so what was measured is kept, and is acknowledged on stderr at once. What a
// second signal does is the command's choice (Repeat): leave at once (the old rule), or count
// it, so that the command's own watcher writes what was measured and leaves (kernels: a point
// can last minutes). The handlers are installed for the object's lifetime; they only set flags
// and write a message prepared beforehand (write(2)), as a signal handler may.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace roofline::cli {

class StopSignal {
public:
    enum class Repeat {
        leave,   // a second signal ends the process at once (128 + it), nothing more saved
        count,   // a second one is counted (repeats()): the command's watcher saves and leaves;
                 // only a fifth leaves at once, should saving itself hang (saying so, when
                 // `again` said something)
    };
    // `first`: what the first signal's acknowledgement says after "roofline: SIGINT: " (empty:
    // nothing is said); `again`: what a repeated one's says (Repeat::count).
    explicit StopSignal(std::string first = {}, Repeat repeat = Repeat::leave, std::string again = {});
    ~StopSignal();
    StopSignal(const StopSignal&) = delete;
    StopSignal& operator=(const StopSignal&) = delete;

    // The flag the run polls (true once a signal came).
    const std::atomic<bool>& flag() const;
    bool stopped() const { return flag().load(); }
    // How many stop signals came (0, 1, 2, ...): 2 or more is "stop now" under Repeat::count.
    int signals() const;
    // The first signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE); 0 before any.
    int signal() const;
    // "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE" for the first signal; "a signal" before any.
    const char* signal_name() const;
    // 128 + the first signal (130 for Ctrl-C, 129 for SIGHUP, 143 for SIGTERM, 141 for SIGPIPE), as a
    // shell reports it.
    int exit_code() const;
};

// The command's own watcher under Repeat::count, for work that checks the stop flag only
// between steps that may each last minutes (a kernel's call): once a stop signal came, the
// step in progress has `grace_seconds` to end. When it has not, or a second signal came first,
// `give_up(second_signal)` runs on the watcher's thread; it saves what it can and must end the
// process (std::_Exit). done(), or the watcher's end, means the work ended: give_up never runs
// after it.
class StopWatcher {
public:
    StopWatcher(const StopSignal& stop, double grace_seconds, std::function<void(bool second_signal)> give_up);
    ~StopWatcher();  // done()
    StopWatcher(const StopWatcher&) = delete;
    StopWatcher& operator=(const StopWatcher&) = delete;

    // The work ended (or threw): the watcher stops watching and is joined.
    void done();

private:
    std::atomic<bool> done_{false};
    std::thread thread_;
};

} // namespace roofline::cli
