// Runs the measured command: fork + exec with extra environment, waits, and
// reports how it ended. SIGINT / SIGTERM / SIGHUP received meanwhile are forwarded to it
// (to its whole process group when it has one: see run_child), escalated to
// SIGKILL when it does not end within a grace period, and remembered: after an
// interruption no further child starts (Interrupted).
#pragma once

#include "measure/engine.hpp"
#include "topo/cpu_activity.hpp"

#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace roofline::measure {

struct ChildRun {
    ChildStatus status;
    double wall_seconds = 0;  // from just before exec to the end of wait
    // CPU time of the child and the descendants it waited for (getrusage RUSAGE_CHILDREN, before
    // and after): in user code, and in the kernel for it (page faults, system calls, I/O).
    double user_seconds = 0;
    double system_seconds = 0;
    // What else ran on this process's CPUs meanwhile (hypervisor steal, other processes); nullopt
    // when /proc/stat could not be read.
    std::optional<CpuActivity> activity;
};

// A SIGINT / SIGTERM / SIGHUP arrived: no further run may start.
struct Interrupted : MeasureError {
    using MeasureError::MeasureError;
};

// Looks argv[0] up like execvp does; empty when not found or not executable (a directory is not).
std::string find_executable(const std::string& name);
// Why `name`, a path that exists but find_executable refused, cannot be run: "is a directory" or
// "permission denied" (exec's EACCES says the second of both).
std::string not_executable_reason(const std::string& name);

// How long a child may take to end after a forwarded SIGINT / SIGTERM before it gets SIGKILL.
inline constexpr double kStopGraceSeconds = 3;
inline constexpr double kStopGraceSecondsValgrind = 5;  // the tool writes its counts on the way out

// `before_exec(pid)` runs in the parent after fork and before the child execs
// (the child waits for it): perf counters attach there with enable_on_exec.
// `wait_for_exit(pid)`, when given, replaces the plain waitpid and returns the
// child's wait status (a tracer runs its event loop there).
// The child dies with roofline (PR_SET_PDEATHSIG), and reads the standard
// input set by replay_stdin_for_every_run, if any.
// `child_stdout` >= 0: the child's standard output (an OutputTee's pipe, /dev/null), else ours;
// `child_stderr` likewise its standard error (a QuietOutput's).
// Throws CommandNotFound ("command not found: X" / "cannot execute X: reason"),
// Interrupted when a signal already stopped the measurement.
ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
                   const std::function<void(pid_t)>& before_exec = {},
                   const std::function<int(pid_t)>& wait_for_exit = {},
                   double stop_grace_seconds = kStopGraceSeconds, int child_stdout = -1,
                   int child_stderr = -1);

// The next run_child only (one shot): while its child runs, say on stderr that it goes on, at
// 10 s, 30 s, 60 s and then every minute: "roofline: WHAT: N s so far (HINT)". A run under
// Valgrind can take minutes (FMA-heavy code 1000x native) and would look hung otherwise.
void announce_next_long_run(const std::string& what, const std::string& hint);
// Whether announced runs are said (measure -q, and every MPI rank but 0: not); default true.
void set_long_run_progress(bool enabled);

// The next run_child only (one shot): its standard output goes to `fd` (an OutputTee's pipe),
// when run_child is not given `child_stdout` itself. -1 clears it.
void capture_next_run_stdout(int fd);

// A time limit for a child run: pass wait_within(limit) as run_child's `wait_for_exit`. When the
// child has not ended after `seconds`, its process group (its own unless standard input is a
// terminal: see run_child; else the child alone) gets SIGTERM, and SIGKILL `kill_after` seconds
// later. A child that does not end even then (stuck in a driver: SIGKILL waits until the
// kernel lets it go) is left behind after `give_up_after` more seconds, and dies with roofline
// (PR_SET_PDEATHSIG); its status then reads as killed by SIGKILL. `expired`, `sent_sigkill` and
// `left_behind` say what happened, for the caller's message.
struct TimeLimit {
    double seconds = 0;
    double kill_after = 5;
    double give_up_after = 10;
    bool expired = false;
    bool sent_sigkill = false;  // SIGTERM did not end it
    bool left_behind = false;
};
std::function<int(pid_t)> wait_within(TimeLimit& limit);

// The first SIGINT / SIGTERM / SIGHUP received while an InterruptScope or a child was
// active; 0 when none. Sticky until clear_interrupt().
int interrupt_signal();
void clear_interrupt();

// For the whole measurement: SIGINT / SIGTERM / SIGHUP between runs are remembered
// (interrupt_signal) instead of ending roofline, so that what finished is kept.
class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    struct Saved;
    Saved* saved_;
};

// Standard input for several runs of one command. A regular file is rewound
// to where it started before each run; a pipe or socket is read to its end into a
// temporary file (on disk, in TMPDIR or /tmp) that every run reads from its start:
// MeasureError, saying what to do, when that file cannot be made or written (a full
// disk). A terminal, /dev/null or another device is left as it is (each run reads it
// itself). Returns what was done, for a note. `limit` keeps at most that many bytes (0:
// 4 GiB, less where the disk has less room to spare, so that an endless pipe neither
// fills the disk nor holds measure forever): past it `warning` says that the first run
// gets all of the input, the later ones its first `limit` bytes.
struct StdinReplay {
    std::string note;     // empty: nothing to do
    std::string warning;  // empty: every run gets the same input
};
StdinReplay replay_stdin_for_every_run(std::size_t limit = 0);
// Back to inheriting roofline's standard input (tests).
void stop_stdin_replay();

// "SIGSEGV" for 11; "signal N" when unknown.
std::string signal_name(int sig);

} // namespace roofline::measure
