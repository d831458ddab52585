// perf_event_open plumbing: encode events (libpfm4 when built with it), probe
// whether hardware counters can be opened, and count a whole child process
// (inherit + enable_on_exec). Linux only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace roofline::measure {

struct SysfsEvent;

struct EncodedEvent {
    std::string alias;     // the event file's name for it
    std::string pfm_name;  // what was encoded
    std::uint32_t type = 0;
    std::uint64_t config = 0;
    std::uint64_t config1 = 0;
    std::uint64_t config2 = 0;
    int cpu = -1;  // >= 0: a whole-CPU counter (sysfs_pmu.hpp), one instance on that CPU
};

bool have_libpfm();

// libpfm4 for every name; without libpfm only the generic "perf::" names
// (CYCLES, INSTRUCTIONS, CACHE-MISSES, TASK-CLOCK, CONTEXT-SWITCHES).
// nullopt with `error` set when the name is unknown here.
std::optional<EncodedEvent> encode_event(const std::string& alias, const std::string& pfm_name, std::string& error);

// ROOFLINE_PERF_EVENTS value for the marker library:
// "alias=type:config[:config1[:config2]][@cpu],..." (an alias repeats for the instances of
// a whole-CPU event; the library adds them up).
std::string perf_events_env(const std::vector<EncodedEvent>& events);

struct PerfProbe {
    bool hardware = false;   // a hardware counter opened in user space
    bool software = false;   // task-clock opened
    std::string reason;      // why hardware counters are unusable
    std::string guidance;    // what to do about it, with commands
};
// Opens (and closes) an instructions counter on this process.
PerfProbe probe_perf();
// /proc/sys/kernel/perf_event_paranoid, nullopt when unreadable.
std::optional<int> perf_event_paranoid();

struct CounterValue {
    double value = 0;        // scaled for multiplexing: raw * enabled / running
    double running_share = 1;  // time_running / time_enabled (1: never multiplexed)
};

// Open perf_event file descriptors, each under an event file's alias, closed at the
// end; read() sums an alias's descriptors (each scaled for multiplexing) and keeps
// the smallest running share among them.
class CounterSet {
public:
    CounterSet() = default;
    ~CounterSet();
    CounterSet(const CounterSet&) = delete;
    CounterSet& operator=(const CounterSet&) = delete;

    // Keyed by alias; readable after the process ended.
    std::map<std::string, CounterValue> read() const;
    const std::vector<std::string>& failures() const { return failures_; }
    bool empty() const { return fds_.empty(); }

protected:
    struct Open {
        std::string alias;
        int fd;
    };
    std::vector<Open> fds_;
    std::vector<std::string> failures_;
};

// Counters on one process and its future threads and children.
class ProcessCounters : public CounterSet {
public:
    // Opens each event on `pid` (enabled at its exec); an event that does not
    // open is left out and named in failures(). Returns how many opened.
    int open(pid_t pid, const std::vector<EncodedEvent>& events, bool enable_on_exec = true);
};

// Counters on one thread only (no inherit), counting from now: a job's threads each get
// their own (job_counters.hpp), so a thread they start is not counted twice.
class ThreadCounters : public CounterSet {
public:
    // Opens each event on thread `tid`; one that does not open is named in failures().
    int open(pid_t tid, const std::vector<EncodedEvent>& events);
};

// Counters of a whole package or die (memory controller, data fabric: sysfs_pmu.hpp),
// opened system-wide on the CPUs their PMU names: they count every process's traffic
// there, not only the measured one's. Needs perf_event_paranoid <= 0 or CAP_PERFMON.
class SystemCounters : public CounterSet {
public:
    // Opens, disabled, each instance of the event on each of its CPUs under `alias`;
    // false with a reason in failures() when any of them does not open (the alias is
    // then dropped: a part of the instances would undercount).
    bool open(const std::string& alias, const std::string& spec, const std::vector<SysfsEvent>& instances);
    // What was opened, one entry per instance and CPU, for the marker library to open too.
    const std::vector<EncodedEvent>& opened() const { return opened_; }
    void enable();
    void disable();

private:
    std::vector<EncodedEvent> opened_;
};

} // namespace roofline::measure
