// libroofline_marker: the region marker library linked into measured programs.
// Contract with `roofline measure` and the Valgrind tool: src/measure/PROTOCOL.md.
//
// Design: a global mode word is read with one relaxed load on every call; when it
// says "off" the call returns. Otherwise each thread owns a ThreadState (region
// stack, per-region totals, perf fds), reached through a thread_local pointer and
// never freed, so results of threads that already exited are still there at exit.
// A per-thread spin lock is only ever contended by finalize and, with
// ROOFLINE_MONITOR_DIR set, by the snapshot thread once per period.
#include "roofline/roofline.h"

#ifdef ROOFLINE_HAVE_VALGRIND
#include "roofline/roofline_vg_requests.h"
#endif
// Not inside the Valgrind block: the perf counters' scaling is needed without valgrind.h too.
#include "core/multiplexed_count.hpp"

#include <algorithm>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

enum : int { kUninit = -1, kOff = 0, kTiming = 1, kValgrind = 2 };

std::atomic<int> g_mode{kUninit};

// The library's locks this thread holds now, and a stop signal that came while it held one (SIGINT,
// SIGTERM, SIGHUP: write_before_dying). The writer at a signal would wait for such a lock for ever
// (the thread holding it is the one stopped in the handler), so the signal is handled when the
// thread lets its last lock go, microseconds later (inside a region's begin or end, mostly).
// Initial-exec TLS: read in a signal handler, it must not allocate as a lazily made block would.
thread_local int t_locks_held __attribute__((tls_model("initial-exec"))) = 0;
thread_local volatile sig_atomic_t t_deferred_signal __attribute__((tls_model("initial-exec"))) = 0;
void run_deferred_signal();

inline void took_lock() noexcept {
    ++t_locks_held;
    std::atomic_signal_fence(std::memory_order_seq_cst);  // counted before the lock is tried
}
inline void let_lock_go() noexcept {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (--t_locks_held == 0 && __builtin_expect(t_deferred_signal != 0, 0)) run_deferred_signal();
}

class SpinLock {
public:
    void lock() noexcept {
        took_lock();
        while (flag_.exchange(true, std::memory_order_acquire)) {
            while (flag_.load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            }
        }
    }
    void unlock() noexcept {
        flag_.store(false, std::memory_order_release);
        let_lock_go();
    }

private:
    std::atomic<bool> flag_{false};
};

// std::mutex, counted as SpinLock is.
class Mutex {
public:
    void lock() {
        took_lock();
        mu_.lock();
    }
    void unlock() {
        mu_.unlock();
        let_lock_go();
    }

private:
    std::mutex mu_;
};

struct EventSpec {
    std::string name;
    uint32_t type = 0;
    uint64_t config = 0;
    uint64_t config1 = 0;
    uint64_t config2 = 0;
    // >= 0: a counter of the whole CPU (a memory controller, the data fabric), opened
    // once for the process and read by every thread; a region keeps the largest count
    // any of its threads saw, not their sum (each saw the same traffic).
    int cpu = -1;
    int system_fd = -1;
};

struct Sample {
    uint64_t value = 0, enabled = 0, running = 0;
};

// A thread started inside a region, counting for it (perf engine, "Threads started inside
// regions" below): its counters from `s0` (its start, or the end of its own instance of the
// region) until it exits or the region closes. Under the region's wall lock; owned by the
// thread (Spawn), which frees it at its exit.
struct SpawnCount {
    const std::vector<int>* fds = nullptr;  // the thread's (ThreadState::fds: never freed nor resized)
    std::vector<Sample> s0;
    bool active = false;  // in its wall's `counting`: the thread alive, the region open
    bool paused = false;  // the thread has the region open itself: that instance counts (close_frame)
};

// A region's wall time, shared by its threads: the union of the intervals during which at
// least one thread had it open (its outermost instance), so threads that run one after
// another add up and threads that overlap count once. Allocated with the region's name
// and never freed; its lock is taken only when a thread enters or leaves the region's
// outermost instance, after the thread's own lock.
struct RegionWall {
    SpinLock lock;
    int open = 0;        // threads inside the region now
    // The most threads inside it at once (under `lock`): threads that open it one after another
    // ran it one at a time, as a point on the roofline must say.
    std::atomic<int> open_peak{0};
    uint64_t since = 0;  // when `open` last went from 0 to 1
    uint64_t ns = 0;     // closed intervals
    // The most threads that ran one OpenMP team forked while the region was open (team_body).
    std::atomic<int> team{0};
    // Threads started (pthread_create) while the region was open that have not exited yet, under
    // `lock`, and the most of them at once (thread_wrappers.c, roofline_marker_thread_created).
    int spawned = 0;
    std::atomic<int> spawned_peak{0};
    uint64_t opened = 0;  // times `open` went from 0 to 1: which instance a thread was started in
    // Perf engine, under `lock`: the started threads counting for the region now, and per event
    // what those that stopped counted (sized when the first one starts: stopping allocates nothing).
    std::vector<SpawnCount*> counting;
    std::vector<double> spawn_counters;
    std::vector<bool> spawn_counted, spawn_uncounted;
};

void add_spawn_count(const SpawnCount& c, const Sample* now, std::vector<double>& counters,
                     std::vector<bool>& counted, std::vector<bool>& uncounted) noexcept;

void wall_enter(RegionWall* w, uint64_t t) noexcept {
    if (!w) return;
    w->lock.lock();
    if (w->open++ == 0) {
        w->since = t;
        ++w->opened;
    }
    if (w->open > w->open_peak.load(std::memory_order_relaxed)) w->open_peak.store(w->open, std::memory_order_relaxed);
    w->lock.unlock();
}

// The last thread with the region open leaves it: the threads started inside it stop counting for
// it (read here, from this thread: a perf fd of another thread of the process can be read from
// any, and one of a thread that exited gives its final count).
void wall_leave(RegionWall* w, uint64_t t) noexcept {
    if (!w) return;
    w->lock.lock();
    if (w->open > 0 && --w->open == 0) {
        if (t > w->since) w->ns += t - w->since;
        for (SpawnCount* c : w->counting) {
            if (!c->paused) add_spawn_count(*c, nullptr, w->spawn_counters, w->spawn_counted, w->spawn_uncounted);
            c->active = false;
        }
        w->counting.clear();
    }
    w->lock.unlock();
}

// Closed intervals, and the one still open up to `now` when `now` is not 0.
uint64_t wall_ns(RegionWall* w, uint64_t now) noexcept {
    if (!w) return 0;
    w->lock.lock();
    uint64_t ns = w->ns;
    if (now && w->open > 0 && now > w->since) ns += now - w->since;
    w->lock.unlock();
    return ns;
}

struct ThreadRegion {
    std::string_view name;  // points into Global::names (stable)
    RegionWall* wall = nullptr;  // the region's, shared by every thread (Global::walls)
    uint64_t calls = 0;
    uint64_t outer_calls = 0;  // calls that were the thread's outermost instance (not a recursion's inner)
    uint64_t inner_calls = 0;  // begin calls of any region made while its outermost instance was open
    uint64_t ns = 0;       // inclusive: only the outermost instance of a recursion counts
    int depth = 0;         // open instances of this region on the thread
    uint64_t unclosed = 0; // instances closed by finalize
    bool nested = false;   // ever opened inside another region (its work is in that one's too)
    // OpenMP team bodies this thread ran for the region without opening it (team_body): their
    // counters are in `counters`; while one runs (team_depth > 0) its own instances add none.
    bool team_work = false;
    int team_depth = 0;
    std::vector<double> counters;
    std::vector<bool> uncounted;  // per event: enabled but never scheduled in some instance
};

struct Frame {
    int id;
    uint64_t t0;
    uint64_t begins;  // the thread's begin calls so far, this one included
};

// A thread started inside regions ("Threads started inside regions" below), made by its creator.
struct Spawn {
    std::vector<int> ids;  // the regions the thread counts for (and the threads it starts inherit)
    std::vector<uint64_t> opened;  // per id: its wall's `opened` when the thread was made
    std::vector<SpawnCount*> counts;  // per id, perf engine: its counters' part (nullptr: none)
    bool counters = true;  // false: an OpenMP runtime's own thread, made for a team (its bodies count)
};

struct ThreadState {
    SpinLock lock;
    Spawn* spawn = nullptr;  // set while the thread, started inside regions, counts for them (perf engine)
    std::unordered_map<std::string_view, int> ids;  // owner thread only
    std::vector<ThreadRegion> regions;               // indexed by global region id
    std::vector<Frame> stack;
    std::vector<Sample> frame_samples;               // stack.size() * events
    std::vector<int> fds;                            // per event, -1 when not open
    uint64_t begins = 0;                             // begin calls recorded on this thread
};

// What one begin/end pair costs in this process (calibrate_native), per batch of `pairs` pairs:
// the part of an empty region's calls inside its own time ("region"), of which the part no
// work in the region can overlap ("begin"), what a region holding work adds to a region around
// it ("nested") and an empty pair's whole time ("pair"); per event (the perf engine's
// counters) the empty region's part and whole pair. `roofline measure` subtracts them
// (PROTOCOL.md).
struct Calibration {
    bool done = false;
    uint64_t pairs = 0;
    std::vector<double> region_ns, begin_ns, nested_ns, pair_ns;  // per batch: per pair
    std::vector<std::vector<double>> region_events, pair_events;  // per event: per batch, per pair
    std::vector<bool> event_ok;                                   // per event: counted in every batch
    std::vector<double> event_total;                              // per event: the whole calibration's
    double seconds = 0;                                           // the calibration's whole span
};

struct Global {
    Mutex mu;
    std::string out_path;           // empty: nothing written (not the process measure started)
    // "<file>.forked": where a forked child, or a program the measured one started, names the
    // regions it opens (their regions are not written: see started_by_owner).
    std::string noted_path;
    std::string program;            // this program's name, in those lines
    bool other_program = false;     // started by the process that writes <file>: names only
    std::vector<EventSpec> events;
    std::deque<std::string> names;  // deque: stable element addresses
    std::deque<RegionWall> walls;   // by region id, like names
    pid_t pid = 0;                  // the process these regions are of (a forked child's are its parent's)
    std::unordered_map<std::string_view, int> ids;
    std::vector<ThreadState*> threads;
    std::vector<std::pair<std::string, uint64_t>> errors;
    bool written = false;
    // Live snapshots for `roofline monitor` (ROOFLINE_MONITOR_DIR): empty when off.
    std::string monitor_dir;
    std::string job;
    uint64_t start_ns = 0;
    uint64_t period_ms = 1000;
    Mutex snapshot_mu;        // one writer at a time: the thread or the exit
    bool snapshot_final = false;   // the finished snapshot is written: no more
    Calibration calibration;
};

// Reserved region names the calibration runs under (never written as regions: their calls are
// reset). Under the Valgrind tool they are the tool's regions, which measure reads and drops.
constexpr const char* kCalibrationRegion = "(roofline marker calls)";
constexpr const char* kCalibrationWhole = "(roofline marker calls, whole)";

// Allocated once and never destroyed: the atexit writer may run after static
// destructors of other objects, and threads may still be running.
Global* g = nullptr;
thread_local ThreadState* t_state = nullptr;

uint64_t now_ns() noexcept {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void add_error(const std::string& message, bool once = false) {
    std::lock_guard<Mutex> lk(g->mu);
    for (auto& e : g->errors) {
        if (e.first == message) {
            if (!once) ++e.second;
            return;
        }
    }
    g->errors.emplace_back(message, 1);
}

// "<name>=<type>:<config>[:<config1>[:<config2>]][@<cpu>],..." ; numbers in C syntax
// (decimal or 0x..). A name may repeat (the instances of one event): counts add up.
void parse_events(const char* text) {
    std::string_view rest(text);
    while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string item(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (item.empty()) continue;
        size_t eq = item.find('=');
        EventSpec spec;
        bool ok = eq != std::string::npos && eq > 0;
        if (ok) {
            spec.name = item.substr(0, eq);
            const char* p = item.c_str() + eq + 1;
            char* endp = nullptr;
            errno = 0;
            unsigned long long v = std::strtoull(p, &endp, 0);
            ok = endp != p && *endp == ':' && errno == 0 && v <= 0xffffffffull;
            spec.type = uint32_t(v);
            if (ok) {
                p = endp + 1;
                spec.config = std::strtoull(p, &endp, 0);
                ok = endp != p && (*endp == '\0' || *endp == ':' || *endp == '@');
                if (ok && *endp == ':') {
                    p = endp + 1;
                    spec.config1 = std::strtoull(p, &endp, 0);
                    ok = endp != p && (*endp == '\0' || *endp == ':' || *endp == '@');
                    if (ok && *endp == ':') {
                        p = endp + 1;
                        spec.config2 = std::strtoull(p, &endp, 0);
                        ok = endp != p && (*endp == '\0' || *endp == '@');
                    }
                }
                if (ok && *endp == '@') {
                    p = endp + 1;
                    const unsigned long long cpu = std::strtoull(p, &endp, 10);
                    ok = endp != p && *endp == '\0' && cpu < 65536;
                    spec.cpu = int(cpu);
                } else if (ok) {
                    ok = *endp == '\0';
                }
            }
        }
        if (ok)
            g->events.push_back(std::move(spec));
        else
            g->errors.emplace_back("ROOFLINE_PERF_EVENTS: cannot parse '" + item +
                                       "' (expected name=type:config[:config1[:config2]][@cpu])",
                                   1);
    }
}

perf_event_attr counting_attr(const EventSpec& ev) {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = ev.type;
    attr.config = ev.config;
    attr.config1 = ev.config1;
    attr.config2 = ev.config2;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return attr;
}

void report_unopened(const EventSpec& ev) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "perf event %s (%u:%llu%s) could not be opened: %s", ev.name.c_str(), ev.type,
                  (unsigned long long)ev.config, ev.cpu >= 0 ? ", system-wide" : "", std::strerror(errno));
    add_error(msg, true);
}

// Whole-CPU counters: once for the process, counting from now on (uncore PMUs take no
// exclude_* flags).
void open_system_events() {
    for (auto& ev : g->events) {
        if (ev.cpu < 0) continue;
        perf_event_attr attr = counting_attr(ev);
        const long fd = syscall(SYS_perf_event_open, &attr, -1, ev.cpu, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) report_unopened(ev);
        else ev.system_fd = int(fd);
    }
}

// A forked child's regions are not the process's measure started (its results file is the
// parent's, written at the parent's exit): each region a forked child opens is named, once per
// thread, in "<out>.forked" ("pid<TAB>name" lines, appended), so that measure can say which
// regions it has no points for. Set in the child by pthread_atfork (when measure asked for a file).
std::atomic<bool> g_forked_child{false};
void mark_forked_child() { g_forked_child.store(true, std::memory_order_relaxed); }

// A program that the measured process started (system(), popen, posix_spawn, fork and exec)
// inherits its ROOFLINE_MARKER_OUT and, loading the library too, would write the same file: at
// its exit it replaced the parent's regions (when the parent had written them already:
// roofline_finalize, LIKWID_MARKER_CLOSE) or put its own in a parent that opened none, without a
// word. The process that writes <file> says so to every process it starts, in
// ROOFLINE_MARKER_OWNER=<pid>:<file>; a process that finds its own <file> there under another
// pid writes nothing and names its regions in "<file>.forked", as a forked child does. An exec
// keeps the pid, and the exec wrappers hand the new image the next file: the measured program's
// exec'd images write theirs as before, and so does a process that loads the library first
// (`sh -c ./app`: the shell does not load it).
constexpr const char* kOwnerVar = "ROOFLINE_MARKER_OWNER";

bool started_by_owner(const char* out) {
    const char* owner = std::getenv(kOwnerVar);
    if (!owner || !*owner) return false;
    char* end = nullptr;
    const long pid = std::strtol(owner, &end, 10);
    return end != owner && *end == ':' && std::strcmp(end + 1, out) == 0 && pid != long(::getpid());
}

// "<file>.exec<N>" (an exec'd image's file) -> "<file>": every image's children name their regions
// in the one file measure reads.
std::string base_out_path(const std::string& path) {
    const size_t dot = path.rfind(".exec");
    if (dot != std::string::npos && dot + 5 < path.size() &&
        path.find_first_not_of("0123456789", dot + 5) == std::string::npos)
        return path.substr(0, dot);
    return path;
}

void write_results(bool at_exec = false);

void at_exit_write() { write_results(); }

// The thread (its tid) writing the file at exit or roofline_finalize(); 0: none. A stop signal then ended
// the process mid-write (its handler's writer found the file written already): no file, and
// `<file>.tmp.<pid>` left behind. The stop signals wait on the writing thread (ExitWriteGuard),
// and a handler run on another thread waits for the write (write_before_dying).
std::atomic<long> g_exit_writer{0};

// Why the regions are written before the program ends (open regions are named with it).
const char* g_early_write_cause = "the program exec'd another";

// The file written at a signal: "<file>.tmp.<pid>" until it is renamed into place (write_results).
std::string temporary_path() { return g->out_path + ".tmp." + std::to_string(::getpid()); }

// `text` as the whole of a new file `path`, with the system calls, not stdio: at a signal another
// thread may hold stdio's list of streams for good (fopen takes it). Whatever was at `path` is
// removed first, so a FIFO or a link left there is neither waited on nor written through.
bool write_new_file(const std::string& path, const std::string& text) {
    ::unlink(path.c_str());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            const int error = errno;
            ::close(fd);
            errno = error;
            return false;
        }
        written += size_t(n);
    }
    return ::close(fd) == 0;
}

// --- the writer at a signal ---
//
// A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or a stop signal left at its default
// (SIGINT from Ctrl-C, SIGTERM, SIGHUP) ends the process without its atexit handlers, so the
// regions that finished before it were lost and measure said they had no native timing. They are
// written then, as at an exec (open regions flagged with the cause), by a thread of the library's
// own made when the first region opens (start_signal_writer), every signal blocked on it, which
// waits on a futex: the handler wakes it and waits at most 2 s for it, then the process dies from
// the same signal with the default action, as it would have (its exit status is unchanged).
// The program's other threads go on meanwhile, so a lock one of them held as the signal came (a
// region's, malloc's) is let go as it would have been. A child forked in the handler wrote the
// file before: every lock another thread held then stayed held in that child, and with short
// regions on several threads 5 of 6 Ctrl-Cs wrote nothing. The writer uses no stdio (another thread
// may hold its list of streams for good: fopen takes it); the handler's own thread holds none of
// the library's locks (a stop signal that came while it did waits until it lets them go: took_lock).
// What can still hold the writer: an allocator lock that the interrupted thread held, where the
// writer shares its arena (more threads than glibc's arenas); it is then given up after 2 s.
// Where the writer thread could not be made (or a fatal signal came before any region opened) a
// forked child writes instead. Only the process that owns the file writes: a forked child of the
// program (which a terminal's Ctrl-C reaches too) would replace its parent's regions with its own.
struct SignalWriter {
    std::atomic<int> request{0};  // 1: write now (futex word)
    std::atomic<int> done{0};     // 1: written or given up (futex word)
    std::atomic<bool> running{false};
    std::atomic<bool> claimed{false};  // a handler asked for the write: another waits for it
    char tmp_path[4096] = {};          // removed when the handler gives up on the writer
};
SignalWriter g_signal_writer;
static_assert(sizeof(std::atomic<int>) == sizeof(int), "a futex word is an int");

void futex_wait(std::atomic<int>& word, int expected, const timespec* timeout) {
    ::syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAIT_PRIVATE, expected, timeout, nullptr, 0);
}
void futex_wake(std::atomic<int>& word) {
    ::syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
}

// Waits until `done` is set or `seconds` have passed (async-signal-safe); whether it was set.
bool wait_done(double seconds) {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    const double deadline = double(now.tv_sec) + double(now.tv_nsec) * 1e-9 + seconds;
    while (g_signal_writer.done.load(std::memory_order_acquire) == 0) {
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        const double left = deadline - (double(now.tv_sec) + double(now.tv_nsec) * 1e-9);
        if (left <= 0) return false;
        const timespec wait{time_t(left), long((left - double(time_t(left))) * 1e9)};
        futex_wait(g_signal_writer.done, 0, &wait);
    }
    return true;
}

void mark_written() {
    g_signal_writer.done.store(1, std::memory_order_release);
    futex_wake(g_signal_writer.done);
}

void* signal_writer_main(void*) {
    ::free(::malloc(64));  // its allocator arena chosen now, not as the process dies
    while (g_signal_writer.request.load(std::memory_order_acquire) == 0) futex_wait(g_signal_writer.request, 0, nullptr);
    write_results(true);
    mark_written();
    return nullptr;
}

// Made with the C library's pthread_create, not this library's wrapper (thread_wrappers.c): it is
// no thread of the program's and counts for no region.
void start_signal_writer() {
    if (!g || g->out_path.empty() || g->pid != ::getpid() || g_signal_writer.running.load()) return;
    const std::string tmp = temporary_path();
    if (tmp.size() >= sizeof g_signal_writer.tmp_path) return;
    std::memcpy(g_signal_writer.tmp_path, tmp.c_str(), tmp.size() + 1);
    using create_fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
    const auto create = reinterpret_cast<create_fn>(::dlsym(RTLD_NEXT, "pthread_create"));
    if (!create) return;
    sigset_t all, before;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &before);  // inherited: no signal is ever handled on it
    pthread_attr_t attr;
    ::pthread_attr_init(&attr);
    ::pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    if (create(&thread, &attr, signal_writer_main, nullptr) == 0) g_signal_writer.running.store(true);
    ::pthread_attr_destroy(&attr);
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// The writer of last resort: a child forked in the handler. _Fork (glibc 2.34) runs no atfork
// handlers: fork() takes malloc's and stdio's locks in the handler itself, which hangs the program
// when the signal came in while its thread held one (glibc's <unistd.h>: "Different than fork,
// _Fork is async-signal-safe"). A lock another thread held is held for ever in the child, which is
// killed after 2 s.
void write_in_forked_child(const char* cause) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    const pid_t child = ::_Fork();
#else
    const pid_t child = ::fork();
#endif
    if (child == 0) {
        g_early_write_cause = cause;
        write_results(true);
        ::_exit(0);
    }
    if (child > 0) {
        int status = 0;
        bool done = false;
        for (int i = 0; i < 200 && !done; ++i) {
            const pid_t r = ::waitpid(child, &status, WNOHANG);
            // ECHILD: reaped by another (SIGCHLD ignored: the kernel; or the program's own handler).
            // Waiting on (2 s) and killing it then could hit another process given its pid.
            done = r == child || (r < 0 && errno == ECHILD);
            const timespec pause{0, 10'000'000};
            if (!done) ::nanosleep(&pause, nullptr);
        }
        if (!done) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
        }
    }
    mark_written();
}

bool is_stop_signal(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

void write_before_dying(int sig, const char* cause) {
    const int saved = errno;
    if (is_stop_signal(sig) && t_locks_held > 0) {
        t_deferred_signal = sig;  // handled as this thread lets its last lock go (let_lock_go)
        errno = saved;
        return;
    }
    // Another thread is writing the file at exit: let it finish (at most 2 s), then die as below
    // (a crash inside that write, on its own thread, does not wait for itself).
    const long self = ::syscall(SYS_gettid);
    for (int i = 0; i < 200 && g && g->pid == ::getpid(); ++i) {
        const long writer = g_exit_writer.load(std::memory_order_acquire);
        if (writer == 0 || writer == self) break;
        const timespec pause{0, 10'000'000};
        ::nanosleep(&pause, nullptr);
    }
    if (g && g->pid == ::getpid()) {
        if (g_signal_writer.claimed.exchange(true)) {
            wait_done(2.0);  // another thread's signal is being written: that write, then this death
        } else if (g_signal_writer.running.load()) {
            g_early_write_cause = cause;
            g_signal_writer.request.store(1, std::memory_order_release);
            futex_wake(g_signal_writer.request);
            if (!wait_done(2.0)) ::unlink(g_signal_writer.tmp_path);
        } else {
            write_in_forked_child(cause);
        }
    }
    ::signal(sig, SIG_DFL);
    errno = saved;
    ::raise(sig);  // in the handler: delivered when it returns (blocked while it runs); deferred: now
}

void on_stop_signal(int sig);
void run_deferred_signal() {
    const int sig = t_deferred_signal;
    t_deferred_signal = 0;
    on_stop_signal(sig);
}

void on_fatal_signal(int sig) { write_before_dying(sig, "the program crashed"); }

// Static strings: the handler allocates nothing.
void on_stop_signal(int sig) {
    write_before_dying(sig, sig == SIGINT    ? "the program was interrupted by SIGINT"
                            : sig == SIGTERM ? "the program was stopped by SIGTERM"
                                             : "the program was stopped by SIGHUP");
}

// Only where the program left the signal at its default (its own handler wins, an ignored
// signal stays ignored), and only when measure asked for a results file.
// `block_all`: each of `signals` waits while the handler of another runs.
void catch_signals(std::initializer_list<int> signals, void (*handler)(int), int flags, bool block_all) {
    for (const int sig : signals) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        struct sigaction action {};
        action.sa_handler = handler;
        sigemptyset(&action.sa_mask);
        if (block_all)
            for (const int other : signals) sigaddset(&action.sa_mask, other);
        action.sa_flags = flags;
        ::sigaction(sig, &action, nullptr);
    }
}

void catch_fatal_signals() {
    catch_signals({SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}, on_fatal_signal, SA_RESETHAND | SA_NODEFER, false);
}

// The stop signals are caught at the first region the program opens, not at load: a program that
// marks no region keeps its dispositions untouched, and one that looks at them before it opens a
// region (CPython installs its KeyboardInterrupt handler only over SIG_DFL) still finds the
// default. All three blocked while one is handled: a second Ctrl-C or a SIGTERM waits (at most the
// 2 s of the write), then the default action ends the process; the write is not started twice.
std::atomic<bool> g_stop_signals_caught{false};
void catch_stop_signals() {
    if (g_stop_signals_caught.exchange(true, std::memory_order_relaxed)) return;
    start_signal_writer();
    catch_signals({SIGINT, SIGTERM, SIGHUP}, on_stop_signal, SA_RESETHAND, true);
}

void start_monitor_snapshots(const char* dir);

void init_once() {
    int mode = kOff;
#ifdef ROOFLINE_HAVE_VALGRIND
    // Under the instrument engine the tool counts the regions itself. Timing them here too
    // would put our own work inside every region open (hash lookups, locks, clock reads: about
    // 2 KB of loads and stores per begin and end), counted as the program's FLOPs and bytes.
    if (RUNNING_ON_VALGRIND) {
        g_mode.store(kValgrind, std::memory_order_release);
        return;
    }
#endif
    const char* out = std::getenv("ROOFLINE_MARKER_OUT");
    const char* monitor = std::getenv("ROOFLINE_MONITOR_DIR");
    bool monitored = monitor && *monitor;
    if ((out && *out) || monitored) {
        g = new Global;
        g->pid = ::getpid();
        if (out && *out) {
            g->noted_path = base_out_path(out) + ".forked";
            g->other_program = started_by_owner(out);
            if (g->other_program) g->program = program_invocation_short_name;
            else g->out_path = out;
            // Before the program's code runs (at load): its children inherit it.
            if (!g->other_program) ::setenv(kOwnerVar, (std::to_string(long(g->pid)) + ":" + out).c_str(), 1);
        }
        if (const char* ev = std::getenv("ROOFLINE_PERF_EVENTS")) parse_events(ev);
        open_system_events();
        if (monitored) start_monitor_snapshots(monitor);
        std::atexit(at_exit_write);
        if (!g->out_path.empty()) {
            catch_fatal_signals();
            pthread_atfork(nullptr, nullptr, mark_forked_child);
        }
        mode |= kTiming;
    }
    g_mode.store(mode, std::memory_order_release);
}

std::once_flag g_init_flag;

int ensure_init() {
    int m = g_mode.load(std::memory_order_acquire);
    if (m == kUninit) {
        std::call_once(g_init_flag, init_once);
        m = g_mode.load(std::memory_order_acquire);
    }
    return m;
}

bool read_sample(int fd, Sample& s) noexcept {
    uint64_t buf[3];
    if (fd < 0 || ::read(fd, buf, sizeof buf) != ssize_t(sizeof buf)) return false;
    s.value = buf[0];
    s.enabled = buf[1];
    s.running = buf[2];
    return true;
}

// Under w->lock: what `c` counted from its s0 to `now` (read here when null), added to `counters`.
// Whole-CPU events are left out: the threads that opened the region saw the same traffic.
void add_spawn_count(const SpawnCount& c, const Sample* now, std::vector<double>& counters,
                     std::vector<bool>& counted, std::vector<bool>& uncounted) noexcept {
    const size_t nev = std::min({c.fds->size(), c.s0.size(), counters.size(), counted.size(), uncounted.size()});
    for (size_t i = 0; i < nev; ++i) {
        const int fd = (*c.fds)[i];
        if (fd < 0 || g->events[i].cpu >= 0) continue;
        Sample s;
        if (now) s = now[i];
        else if (!read_sample(fd, s)) continue;
        const Sample& a = c.s0[i];
        const roofline::MultiplexedCount m =
            roofline::scale_multiplexed(double(s.value - a.value), s.enabled - a.enabled, s.running - a.running);
        counted[i] = true;
        if (m.counted) counters[i] += m.value;
        else uncounted[i] = true;
    }
}

// On a thread started inside regions, counting for region `id`, which it opens itself (its
// outermost instance): that instance's counts are the thread's own (close_frame), so the part
// counted for the region stops at its begin (`samples`) and starts again at its end.
SpawnCount* spawn_count_of(const Spawn* spawn, int id) noexcept {
    for (size_t k = 0; k < spawn->ids.size() && k < spawn->counts.size(); ++k)
        if (spawn->ids[k] == id) return spawn->counts[k];
    return nullptr;
}

void spawn_pause(const Spawn* spawn, int id, RegionWall* w, const Sample* samples) noexcept {
    SpawnCount* c = spawn_count_of(spawn, id);
    if (!c || !w) return;
    w->lock.lock();
    if (c->active && !c->paused) {
        add_spawn_count(*c, samples, w->spawn_counters, w->spawn_counted, w->spawn_uncounted);
        c->paused = true;
    }
    w->lock.unlock();
}

void spawn_resume(const Spawn* spawn, int id, RegionWall* w, const Sample* samples) noexcept {
    SpawnCount* c = spawn_count_of(spawn, id);
    if (!c || !w) return;
    w->lock.lock();
    if (c->active && c->paused) {
        std::copy(samples, samples + c->s0.size(), c->s0.begin());
        c->paused = false;
    }
    w->lock.unlock();
}

// Whether the thread's counters go to region `id` by its Spawn now (a team body must not add them again).
bool spawn_counting(const Spawn* spawn, int id, RegionWall* w) noexcept {
    SpawnCount* c = spawn ? spawn_count_of(spawn, id) : nullptr;
    if (!c || !w) return false;
    w->lock.lock();
    const bool active = c->active;
    w->lock.unlock();
    return active;
}

ThreadState* thread_state() {
    if (t_state) return t_state;
    auto* ts = new ThreadState;
    size_t nev = g->events.size();
    ts->fds.assign(nev, -1);
    for (size_t i = 0; i < nev; ++i) {
        const EventSpec& ev = g->events[i];
        if (ev.cpu >= 0) {  // shared, opened at init
            ts->fds[i] = ev.system_fd;
            continue;
        }
        perf_event_attr attr = counting_attr(ev);
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) report_unopened(ev);
        else ts->fds[i] = int(fd);
    }
    {
        std::lock_guard<Mutex> lk(g->mu);
        g->threads.push_back(ts);
    }
    t_state = ts;
    return ts;
}

RegionWall* wall_of(int id) {
    std::lock_guard<Mutex> lk(g->mu);
    return size_t(id) < g->walls.size() ? &g->walls[size_t(id)] : nullptr;
}

// `wall` is set only the first time this thread sees the name (its ThreadRegion keeps it).
int region_id(ThreadState* ts, const char* name, std::string_view& stable, RegionWall*& wall) {
    std::string_view key(name);
    auto it = ts->ids.find(key);
    if (it != ts->ids.end()) {
        stable = it->first;
        return it->second;
    }
    int id;
    {
        std::lock_guard<Mutex> lk(g->mu);
        auto git = g->ids.find(key);
        if (git != g->ids.end()) {
            id = git->second;
            stable = git->first;
        } else {
            id = int(g->names.size());
            g->names.emplace_back(key);
            g->walls.emplace_back();
            stable = g->names.back();
            g->ids.emplace(stable, id);
        }
        wall = &g->walls[size_t(id)];
    }
    ts->ids.emplace(stable, id);
    return id;
}

// Adds a frame's time and counter deltas to its region (outermost instance only), in
// `regions` (the thread's own, or a copy that leaves them as they are). `leave_wall`: the
// thread leaves the region's wall interval too (not for a copy).
void close_frame(ThreadState* ts, std::vector<ThreadRegion>& regions, size_t level, uint64_t t1,
                 const Sample* end_samples, bool forced, bool leave_wall) {
    const Frame& f = ts->stack[level];
    ThreadRegion& r = regions[size_t(f.id)];
    if (forced) ++r.unclosed;
    if (--r.depth > 0) return;
    r.ns += t1 - f.t0;
    r.inner_calls += ts->begins - f.begins;
    if (leave_wall && ts->spawn) spawn_resume(ts->spawn, f.id, r.wall, end_samples);
    if (leave_wall) wall_leave(r.wall, t1);
    size_t nev = ts->fds.size();
    if (nev == 0 || r.team_depth > 0) return;  // inside a team body counted for it: counted there
    if (r.counters.size() != nev) r.counters.assign(nev, 0.0);
    if (r.uncounted.size() != nev) r.uncounted.assign(nev, false);
    for (size_t i = 0; i < nev; ++i) {
        const Sample& a = ts->frame_samples[level * nev + i];
        const Sample& b = end_samples[i];
        if (ts->fds[i] < 0) continue;
        const roofline::MultiplexedCount c =
            roofline::scale_multiplexed(double(b.value - a.value), b.enabled - a.enabled, b.running - a.running);
        if (c.counted) r.counters[i] += c.value;
        else r.uncounted[i] = true;
    }
}

void read_all(ThreadState* ts, Sample* out) noexcept {
    for (size_t i = 0; i < ts->fds.size(); ++i)
        if (!read_sample(ts->fds[i], out[i])) out[i] = Sample{};
}

void begin_timing(const char* name);


__attribute__((noinline)) void note_forked_region(const char* name) {
    thread_local pid_t for_pid = 0;
    thread_local std::unordered_set<std::string>* seen = nullptr;
    const pid_t pid = ::getpid();
    if (for_pid != pid) {  // a grandchild's names are its own
        for_pid = pid;
        if (!seen) seen = new std::unordered_set<std::string>;
        seen->clear();
    }
    if (!g || g->noted_path.empty() || !seen->insert(name).second) return;
    std::string line = std::to_string(long(pid)) + "\t" + name;
    std::replace(line.begin() + long(line.find('\t')) + 1, line.end(), '\n', ' ');
    std::replace(line.begin() + long(line.find('\t')) + 1, line.end(), '\t', ' ');
    // A program the measured one started: its name, third (a forked child's lines have two fields).
    if (g->other_program) {
        std::string program = g->program.empty() ? std::string("?") : g->program;
        std::replace(program.begin(), program.end(), '\n', ' ');
        std::replace(program.begin(), program.end(), '\t', ' ');
        line += "\t" + program;
    }
    line += '\n';
    const std::string& path = g->noted_path;
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    (void)!::write(fd, line.data(), line.size());  // one write: lines of several processes do not mix
    ::close(fd);
}

// A region the program names as roofline measure names points of its own: "(program)" (the
// whole program), "<function NAME>" (--region-function's), and the calibration's two (only this
// library's own calls, passing its own constants, are those). Under those names the region was
// lost or corrupted something: "(program)" was dropped beside the program's point, a
// "(roofline marker calls)" region's work went into the calls' own cost taken off every region
// (8014 bytes loaded a call instead of 76), "<function f>" was read as --region-function f. It is
// recorded as "NAME (marker region)" instead, with an error saying so; the Valgrind tool renames
// the requests it gets alike (rl_main.c, marker_region_name), so the two runs still merge and
// the calls' part inside a region runs no more instructions under it than before. Called where
// the timing path is outside the region's time (before begin's clock read, after end's).
// `mode`: whether a file is written to say it in.
const char* region_name(const char* name, int mode) {
    if (__builtin_expect(name[0] != '(' && name[0] != '<', 1)) return name;
    if (name == kCalibrationRegion || name == kCalibrationWhole) return name;
    if (std::strcmp(name, "(program)") != 0 && std::strcmp(name, kCalibrationRegion) != 0 &&
        std::strcmp(name, kCalibrationWhole) != 0 && std::strncmp(name, "<function ", 10) != 0)
        return name;
    thread_local std::string renamed;
    renamed.assign(name).append(" (marker region)");
    if ((mode & kTiming) && g)
        add_error("region name '" + std::string(name) + "' is one roofline measure gives points of its own: the " +
                      "region is recorded as '" + renamed + "'",
                  true);
    return renamed.c_str();
}

__attribute__((noinline)) void begin_slow(const char* name, int mode) {
    if (mode == kUninit) mode = ensure_init();
    if (!name) name = "(null)";
    // The client request is the last thing begin does (and the first thing end
    // does), so the Valgrind tool counts none of the library's own work.
    if (mode & kTiming) {
        if (__builtin_expect(g_forked_child.load(std::memory_order_relaxed) || g->other_program, 0)) {
            note_forked_region(name);
            if (g->out_path.empty() && g->monitor_dir.empty()) return;  // nothing would read the times
        }
        if (__builtin_expect(!g_stop_signals_caught.load(std::memory_order_relaxed), 0) && !g->out_path.empty() &&
            name != kCalibrationRegion && name != kCalibrationWhole)
            catch_stop_signals();
        begin_timing(region_name(name, mode));
    }
#ifdef ROOFLINE_HAVE_VALGRIND
    if (mode & kValgrind)
        VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, name, 0, 0, 0, 0);
#endif
}

void begin_timing(const char* name) {
    ThreadState* ts = thread_state();
    std::string_view stable;
    RegionWall* wall = nullptr;
    int id = region_id(ts, name, stable, wall);
    size_t nev = ts->fds.size();
    ts->lock.lock();
    if (ts->regions.size() <= size_t(id)) ts->regions.resize(size_t(id) + 1);
    ThreadRegion& r = ts->regions[size_t(id)];
    r.name = stable;
    if (wall) r.wall = wall;
    ++r.calls;
    if (++r.depth == 1) ++r.outer_calls;
    size_t level = ts->stack.size();
    if (level > 0) r.nested = true;
    ts->stack.push_back(Frame{id, 0, ++ts->begins});
    if (nev) {
        ts->frame_samples.resize((level + 1) * nev);
        read_all(ts, &ts->frame_samples[level * nev]);
    }
    const uint64_t t0 = now_ns();
    ts->stack.back().t0 = t0;
    if (r.depth == 1) {  // the thread's outermost instance
        wall_enter(r.wall, t0);
        if (ts->spawn && nev) spawn_pause(ts->spawn, id, r.wall, &ts->frame_samples[level * nev]);
    }
    ts->lock.unlock();
}

__attribute__((noinline)) void end_slow(const char* name, int mode) {
    if (mode == kUninit) mode = ensure_init();
    if (!name) name = "(null)";
#ifdef ROOFLINE_HAVE_VALGRIND
    if (mode & kValgrind) VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, name, 0, 0, 0, 0);
#endif
    if (!(mode & kTiming)) return;  // under the tool no clock is read: it would only add to enclosing regions
    if (g->out_path.empty() && g->monitor_dir.empty()) return;  // names only (begin_slow)
    uint64_t t1 = now_ns();
    name = region_name(name, mode);
    ThreadState* ts = thread_state();
    size_t nev = ts->fds.size();
    Sample stack_samples[8];
    std::vector<Sample> heap_samples;
    Sample* samples = stack_samples;
    if (nev > 8) {
        heap_samples.resize(nev);
        samples = heap_samples.data();
    }
    if (nev) read_all(ts, samples);
    std::string error;
    ts->lock.lock();
    if (ts->stack.empty()) {
        error = std::string("end of region '") + name + "' without a matching begin";
    } else {
        size_t level = ts->stack.size() - 1;
        std::string_view open = ts->regions[size_t(ts->stack[level].id)].name;
        if (open != name) {
            error = std::string("end of region '") + name + "' while '" + std::string(open) +
                    "' is the innermost open region (end ignored)";
        } else {
            close_frame(ts, ts->regions, level, t1, samples, false, true);
            ts->stack.pop_back();
            if (nev) ts->frame_samples.resize(level * nev);
        }
    }
    ts->lock.unlock();
    if (!error.empty()) add_error(error);
}

void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

void append_double(std::string& out, double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", std::isfinite(v) ? v : 0.0);
    out += buf;
}

void write_snapshot(bool finished);

}  // namespace
extern "C" const char* roofline_marker_openmp_unseen(void);  // openmp_wrappers.c
namespace {

// ' "calibration": {...},' when the library calibrated (PROTOCOL.md): per batch, what one
// begin/end pair cost. Events given several times (instances) are summed.
void append_calibration(std::string& out) {
    const Calibration& c = g->calibration;
    if (!c.done) return;
    auto list = [&](const std::vector<double>& values) {
        out += "[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out += ", ";
            append_double(out, values[i]);
        }
        out += "]";
    };
    out += "\n \"calibration\": {\"region\": ";
    append_json_string(out, kCalibrationRegion);
    out += ", \"pairs\": " + std::to_string(c.pairs) + ", \"seconds\": ";
    append_double(out, c.seconds);
    out += ", \"region_ns\": ";
    list(c.region_ns);
    out += ", \"begin_ns\": ";
    list(c.begin_ns);
    out += ", \"nested_ns\": ";
    list(c.nested_ns);
    out += ", \"pair_ns\": ";
    list(c.pair_ns);
    if (!c.event_ok.empty()) {
        out += ", \"counters\": {";
        std::vector<std::string_view> said;
        for (size_t i = 0; i < c.event_ok.size(); ++i) {
            const std::string_view name = g->events[i].name;
            // A whole CPU's counter sees every process's traffic, not the calls': nothing to subtract.
            if (g->events[i].cpu >= 0) continue;
            if (std::find(said.begin(), said.end(), name) != said.end()) continue;
            said.push_back(name);
            std::vector<double> region(c.region_ns.size(), 0.0), pair(c.pair_ns.size(), 0.0);
            double total = 0;
            bool ok = true;
            for (size_t j = i; j < c.event_ok.size(); ++j) {
                if (g->events[j].name != name) continue;
                ok = ok && c.event_ok[j];
                total += j < c.event_total.size() ? c.event_total[j] : 0.0;
                for (size_t b = 0; b < region.size(); ++b) {
                    region[b] += c.region_events[j][b];
                    pair[b] += c.pair_events[j][b];
                }
            }
            if (!ok) continue;  // not opened, or multiplexed out of a batch: nothing known to subtract
            if (out.back() != '{') out += ", ";
            append_json_string(out, name);
            out += ": {\"region\": ";
            list(region);
            out += ", \"pair\": ";
            list(pair);
            out += ", \"total\": ";
            append_double(out, total);
            out += "}";
        }
        out += "}";
    }
    out += "},";
}

// At exit or roofline_finalize(): the regions' totals, open ones closed now, and recording
// stops. `at_exec` (the program is about to exec another): the totals as they stand, open
// regions counted up to now and flagged, without changing anything, so that if the exec
// fails the program goes on recording and its exit writes the file again.
// While the file is written at exit or roofline_finalize(): the stop signals blocked on this
// thread (delivered once it is in place, the process then dying of them as before) and
// g_exit_writer set.
class ExitWriteGuard {
public:
    explicit ExitWriteGuard(bool active) : active_(active) {
        if (!active_) return;
        sigset_t stops;
        sigemptyset(&stops);
        for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
        ::pthread_sigmask(SIG_BLOCK, &stops, &before_);
        g_exit_writer.store(::syscall(SYS_gettid), std::memory_order_release);
    }
    ~ExitWriteGuard() {
        if (!active_) return;
        g_exit_writer.store(0, std::memory_order_release);
        ::pthread_sigmask(SIG_SETMASK, &before_, nullptr);
    }
    ExitWriteGuard(const ExitWriteGuard&) = delete;
    ExitWriteGuard& operator=(const ExitWriteGuard&) = delete;

private:
    bool active_;
    sigset_t before_{};
};

void write_results(bool at_exec) {
    if (!g) return;
    const ExitWriteGuard guard(!at_exec && !g->out_path.empty());
    if (!g->monitor_dir.empty()) write_snapshot(!at_exec);  // before finalize closes open regions
    if (g->out_path.empty()) {
        if (!at_exec) g_mode.fetch_and(~kTiming, std::memory_order_acq_rel);
        return;
    }
    std::vector<ThreadState*> threads;
    std::vector<std::pair<std::string, uint64_t>> errors;
    {
        std::lock_guard<Mutex> lk(g->mu);
        if (g->written) return;
        if (!at_exec) g->written = true;
        threads = g->threads;
        errors = g->errors;
    }
    auto note_error = [&](const std::string& message) {
        for (auto& e : errors)
            if (e.first == message) {
                ++e.second;
                return;
            }
        errors.emplace_back(message, 1);
    };
    // Stop recording; calls already past the mode check only touch their own state.
    if (!at_exec) g_mode.fetch_and(~kTiming, std::memory_order_acq_rel);

    struct Total {
        std::string_view name;
        uint64_t calls = 0, unclosed = 0, outer_calls = 0, inner_calls = 0;
        std::vector<double> thread_seconds;
        RegionWall* wall = nullptr;
        std::vector<double> counters;
        std::vector<bool> counted;    // event opened on some thread that entered the region
        std::vector<bool> uncounted;  // ...but never scheduled during some instance: no count
    };
    size_t nev = g->events.size();
    std::vector<std::string> unclosed_errors;
    std::vector<Total> totals;
    uint64_t t_end = now_ns();
    for (size_t ti = 0; ti < threads.size(); ++ti) {
        ThreadState* ts = threads[ti];
        ts->lock.lock();
        std::vector<ThreadRegion> copy;  // at exec: the thread's regions as if closed now
        std::vector<ThreadRegion>* regions = &ts->regions;
        if (!ts->stack.empty()) {
            // Other threads' perf fds can be read from here: they count their thread.
            std::vector<Sample> samples(ts->fds.size());
            read_all(ts, samples.data());
            if (at_exec) {
                copy = ts->regions;
                regions = &copy;
            }
            for (size_t level = ts->stack.size(); level-- > 0;) {
                unclosed_errors.push_back("region '" +
                                          std::string(ts->regions[size_t(ts->stack[level].id)].name) +
                                          (at_exec ? std::string("' still open at finalize (") + g_early_write_cause +
                                                         ") on thread "
                                                   : std::string("' still open at finalize on thread ")) +
                                          std::to_string(ti) + " (closed then)");
                close_frame(ts, *regions, level, t_end, samples.data(), true, !at_exec);
            }
            if (!at_exec) {
                ts->stack.clear();
                ts->frame_samples.clear();
            }
        }
        if (totals.size() < regions->size()) totals.resize(regions->size());
        for (size_t id = 0; id < regions->size(); ++id) {
            const ThreadRegion& r = (*regions)[id];
            if (r.calls == 0 && !r.team_work) continue;
            Total& t = totals[id];
            t.name = r.name;
            if (r.wall) t.wall = r.wall;
            t.calls += r.calls;
            t.outer_calls += r.outer_calls;
            t.inner_calls += r.inner_calls;
            t.unclosed += r.unclosed;
            // A thread that only ran a team's body for it did not open it: counters, no time.
            if (r.calls > 0) t.thread_seconds.push_back(double(r.ns) * 1e-9);
            if (nev) {
                if (t.counters.empty()) {
                    t.counters.assign(nev, 0.0);
                    t.counted.assign(nev, false);
                    t.uncounted.assign(nev, false);
                }
                for (size_t i = 0; i < nev && i < ts->fds.size(); ++i) {
                    if (ts->fds[i] < 0) continue;
                    t.counted[i] = true;
                    if (i >= r.counters.size()) {
                    } else if (g->events[i].cpu >= 0) {
                        t.counters[i] = std::max(t.counters[i], r.counters[i]);  // the same traffic, seen by each
                    } else {
                        t.counters[i] += r.counters[i];
                    }
                    if (i < r.uncounted.size() && r.uncounted[i]) t.uncounted[i] = true;
                }
            }
        }
        ts->lock.unlock();
    }
    // Threads started inside regions (perf engine): what they counted for each, kept by its wall;
    // at an exec (nothing changed) those still counting, up to now, too.
    for (Total& t : totals) {
        if (t.calls == 0 || !t.wall || t.counters.empty()) continue;
        RegionWall* w = t.wall;
        w->lock.lock();
        for (size_t i = 0; i < nev && i < w->spawn_counters.size(); ++i) {
            if (!w->spawn_counted[i]) continue;
            t.counted[i] = true;
            t.counters[i] += w->spawn_counters[i];
            if (w->spawn_uncounted[i]) t.uncounted[i] = true;
        }
        if (at_exec)
            for (const SpawnCount* c : w->counting)
                if (!c->paused) add_spawn_count(*c, nullptr, t.counters, t.counted, t.uncounted);
        w->lock.unlock();
    }
    for (auto& e : unclosed_errors) note_error(e);

    std::string out = "{\"schema\": \"roofline.marker/1\",\n \"regions\": [";
    bool first = true;
    for (size_t id = 0; id < totals.size(); ++id) {
        const Total& t = totals[id];
        if (t.calls == 0) continue;
        out += first ? "\n  {" : ",\n  {";
        first = false;
        out += "\"name\": ";
        append_json_string(out, t.name);
        out += ", \"calls\": " + std::to_string(t.calls);
        // What the calls' own cost is subtracted for: each outermost call adds the in-region part
        // of one pair, each region opened inside it the whole of one.
        out += ", \"outermost_calls\": " + std::to_string(t.outer_calls);
        out += ", \"inner_calls\": " + std::to_string(t.inner_calls);
        // The threads that ran it at once: the most that had it open together (threads that open it
        // one after another count once, as do threads started in it one at a time), the largest
        // OpenMP team forked inside, or the most threads started inside it alive at once.
        const int team = t.wall ? t.wall->team.load(std::memory_order_relaxed) : 0;
        const int spawned = t.wall ? t.wall->spawned_peak.load(std::memory_order_relaxed) : 0;
        const int together = t.wall ? t.wall->open_peak.load(std::memory_order_relaxed) : 0;
        const size_t openers = together > 0 ? std::min(size_t(together), t.thread_seconds.size())
                                            : t.thread_seconds.size();
        out += ", \"threads\": " + std::to_string(std::max({openers, size_t(team), size_t(spawned)}));
        if (team > 0) out += ", \"team_threads\": " + std::to_string(team);
        if (spawned > 0) out += ", \"spawned_threads\": " + std::to_string(spawned);
        // The region's wall time: while at least one thread had it open. Never below one
        // thread's own time (a thread that reset the region counts its time since).
        double max_s = 0;
        for (double s : t.thread_seconds) max_s = s > max_s ? s : max_s;
        out += ", \"seconds\": ";
        append_double(out, std::max(max_s, double(wall_ns(t.wall, t_end)) * 1e-9));
        out += ", \"thread_seconds\": [";
        for (size_t i = 0; i < t.thread_seconds.size(); ++i) {
            if (i) out += ", ";
            append_double(out, t.thread_seconds[i]);
        }
        out += "]";
        if (t.unclosed) out += ", \"unclosed\": " + std::to_string(t.unclosed);
        if (nev) {
            // Events that could not be opened are left out (and listed in "errors").
            out += ", \"counters\": {";
            // A name given several times (the instances of one event) is their sum.
            std::vector<std::pair<std::string_view, double>> sums;
            std::vector<std::string_view> dropped;
            for (size_t i = 0; i < nev; ++i) {
                if (i >= t.counted.size() || !t.counted[i]) continue;
                const std::string_view name = g->events[i].name;
                if (t.uncounted[i]) {
                    // A partial sum would read as a measurement: leave it out and say why.
                    std::string message = "event '";
                    message.append(name).append("' was never scheduled during an instance of region '");
                    message.append(t.name).append("' (multiplexed out): its count is left out");
                    note_error(message);
                    dropped.push_back(name);
                    continue;
                }
                const double v = i < t.counters.size() && t.counters[i] > 0 ? t.counters[i] : 0.0;
                auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& p) { return p.first == name; });
                if (it == sums.end()) sums.emplace_back(name, v);
                else it->second += v;
            }
            bool first_counter = true;
            for (const auto& [name, v] : sums) {
                if (std::find(dropped.begin(), dropped.end(), name) != dropped.end()) continue;
                if (!first_counter) out += ", ";
                first_counter = false;
                append_json_string(out, name);
                out += ": ";
                out += std::to_string((unsigned long long)std::llround(v));
            }
            out += "}";
        }
        out += "}";
    }
    out += "],";
    append_calibration(out);
    if (const char* unseen = roofline_marker_openmp_unseen()) {
        out += "\n \"openmp_teams_unseen\": ";
        append_json_string(out, unseen);
        out += ",";
    }
    out += "\n \"errors\": [";
    for (size_t i = 0; i < errors.size(); ++i) {
        std::string msg = errors[i].first;
        if (errors[i].second > 1) msg += " (" + std::to_string(errors[i].second) + " times)";
        out += i ? ",\n  " : "\n  ";
        append_json_string(out, msg);
    }
    out += "]}\n";

    // Atomic replace: a reader never sees a half-written file.
    const std::string tmp = temporary_path();
    bool ok = write_new_file(tmp, out);
    // A process that recorded nothing (a helper the program starts that loads the library but
    // marks no region, since the library starts at load) leaves its "no regions" only where
    // no file is yet: it never replaces what another process of the run wrote.
    const bool nothing = first && errors.empty();
    if (ok && nothing) {
        ok = ::link(tmp.c_str(), g->out_path.c_str()) == 0 || errno == EEXIST;
        ::unlink(tmp.c_str());
        if (ok) return;
    } else if (ok) {
        ok = std::rename(tmp.c_str(), g->out_path.c_str()) == 0;
    }
    if (!ok) {
        const std::string message =
            "roofline marker: cannot write " + g->out_path + ": " + std::strerror(errno) + "\n";
        (void)!::write(STDERR_FILENO, message.data(), message.size());  // not stdio: see write_new_file
        ::unlink(tmp.c_str());
    }
}

// --- live snapshots for `roofline monitor` (PROTOCOL.md, "Marker library -> monitor") ---

// Every region's cumulative totals over all threads, written atomically (temporary file +
// rename) so the monitor never reads half a file. Each thread's lock is held only while its
// regions are copied: the program's threads wait at most that long, once per period.
void write_snapshot(bool finished) {
    std::lock_guard<Mutex> snap(g->snapshot_mu);
    if (g->snapshot_final) return;
    if (finished) g->snapshot_final = true;
    struct Total {
        std::string_view name;
        uint64_t calls = 0, max_ns = 0;
        RegionWall* wall = nullptr;
        int threads = 0;
        bool nested = false;
    };
    std::vector<ThreadState*> threads;
    {
        std::lock_guard<Mutex> lk(g->mu);
        threads = g->threads;
    }
    std::vector<Total> totals;
    for (ThreadState* ts : threads) {
        ts->lock.lock();
        if (totals.size() < ts->regions.size()) totals.resize(ts->regions.size());
        for (size_t id = 0; id < ts->regions.size(); ++id) {
            const ThreadRegion& r = ts->regions[id];
            if (r.calls == 0) continue;
            Total& t = totals[id];
            t.name = r.name;
            t.calls += r.calls;
            t.max_ns = std::max(t.max_ns, r.ns);
            if (r.wall) t.wall = r.wall;
            ++t.threads;
            t.nested = t.nested || r.nested;
        }
        ts->lock.unlock();
    }
    const uint64_t t = now_ns();
    const long pid = long(::getpid());
    std::string out = "{\"schema\": \"roofline.monitor/1\", \"pid\": " + std::to_string(pid) + ", \"job\": ";
    append_json_string(out, g->job);
    out += ", \"start_ns\": " + std::to_string(g->start_ns) + ", \"time_ns\": " + std::to_string(t) +
           ", \"period_ms\": " + std::to_string(g->period_ms) +
           ", \"finished\": " + (finished ? "true" : "false") + ",\n \"regions\": [";
    bool first = true;
    for (const Total& r : totals) {
        if (r.calls == 0) continue;
        out += first ? "\n  {\"name\": " : ",\n  {\"name\": ";
        first = false;
        append_json_string(out, r.name);
        out += ", \"calls\": " + std::to_string(r.calls) + ", \"seconds\": ";
        // Closed calls' wall time (while at least one thread had the region open).
        append_double(out, double(std::max(r.max_ns, wall_ns(r.wall, 0))) * 1e-9);
        const int team = r.wall ? r.wall->team.load(std::memory_order_relaxed) : 0;
        const int spawned = r.wall ? r.wall->spawned_peak.load(std::memory_order_relaxed) : 0;
        const int together = r.wall ? r.wall->open_peak.load(std::memory_order_relaxed) : 0;  // as in write_results
        const int openers = together > 0 ? std::min(together, r.threads) : r.threads;
        out += ", \"threads\": " + std::to_string(std::max({openers, team, spawned})) + ", \"nested\": " +
               (r.nested ? "true" : "false") + "}";
    }
    out += "]}\n";
    const std::string path = g->monitor_dir + "/" + std::to_string(pid) + ".json";
    const std::string tmp = g->monitor_dir + "/." + std::to_string(pid) + ".json.tmp";
    bool ok = write_new_file(tmp, out);
    if (ok) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) {
        ::unlink(tmp.c_str());
        static bool said = false;  // once: a full disk must not flood the program's stderr
        if (!said) std::fprintf(stderr, "roofline marker: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        said = true;
    }
}

// Around fork the forking thread holds the snapshot mutex, so the snapshot thread (which takes
// the threads' spin locks only under it) holds none of them: the child's copies start unlocked.
// A forked child is another process: it does not publish the parent's totals as its own.
void before_fork() { g->snapshot_mu.lock(); }
void after_fork_in_parent() { g->snapshot_mu.unlock(); }
void after_fork_in_child() {
    t_deferred_signal = 0;  // the parent's signal: a child's pending signals start empty
    g->snapshot_final = true;
    g->snapshot_mu.unlock();
}

void start_monitor_snapshots(const char* dir) {
    g->monitor_dir = dir;
    while (g->monitor_dir.size() > 1 && g->monitor_dir.back() == '/') g->monitor_dir.pop_back();
    ::mkdir(g->monitor_dir.c_str(), 0755);  // may exist already: every process of the job shares it
    const char* job = std::getenv("ROOFLINE_JOB_ID");
    if (!job || !*job) job = std::getenv("SLURM_JOB_ID");
    if (job) g->job = job;
    if (const char* p = std::getenv("ROOFLINE_MONITOR_PERIOD_MS")) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(p, &end, 10);
        if (end != p && *end == '\0' && v >= 10 && v <= 3600000) g->period_ms = v;
        else std::fprintf(stderr, "roofline marker: ROOFLINE_MONITOR_PERIOD_MS=%s is not 10..3600000: using 1000\n", p);
    }
    g->start_ns = now_ns();
    write_snapshot(false);  // seen from the start, before the first period ends
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    std::thread([] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(g->period_ms));
            {
                std::lock_guard<Mutex> snap(g->snapshot_mu);
                if (g->snapshot_final) return;
            }
            write_snapshot(false);
        }
    }).detach();
}

ThreadRegion* find_thread_region(const char* name) {
    if (!(ensure_init() & kTiming) || !name) return nullptr;
    ThreadState* ts = t_state;
    if (!ts) return nullptr;
    auto it = ts->ids.find(std::string_view(name));
    if (it == ts->ids.end() || size_t(it->second) >= ts->regions.size()) return nullptr;
    return &ts->regions[size_t(it->second)];
}

// A dependent chain of multiply-adds (the calibration's work of known length): each step waits
// for the one before, so nothing of it overlaps the calls around it but what they let run.
__attribute__((noinline)) double calibration_chain(double x) {
    for (int i = 0; i < 64; ++i) x = x * 0.999999 + 1e-7;
    return x;
}

// The calls' own cost, measured in this process at load (ROOFLINE_MARKER_OUT set): batches of
// begin/end pairs made through the exported entry points as the program's calls are (the PLT
// included), on this thread, before the program's code runs. Per batch, per pair:
//  - region_ns: an empty region's recorded time, the part of begin after its clock read and of
//    end before its own;
//  - begin_ns: what a region holding calibration_chain (about 100 ns) records beyond the chain
//    run unmarked: the part no work can overlap (begin's after its clock read ends in a locked
//    instruction, and the work's inputs come back from memory after it). The rest of region_ns
//    is end's part before its clock read, which the region's work can overlap;
//  - nested_ns: what each of those regions adds to a region around them (kCalibrationWhole),
//    beyond the chains and that region's own calls: a whole pair, less what the work overlaps;
//  - pair_ns: an empty pair's whole time, back to back.
// The same for each counter (perf engine), from the empty regions (counts do not overlap).
// Two warm-up batches first (the thread's state, the region's entry, lazy binding), left out; a
// batch of empty regions is sized to last about 20 us. The region is then reset: never written.
void calibrate_native() {
    constexpr int kBatches = 11;
    constexpr int kChains = 16;
    const uint64_t start = now_ns();
    ThreadState* ts = thread_state();
    const size_t nev = ts->fds.size();
    Calibration c;
    c.region_events.assign(nev, {});
    c.pair_events.assign(nev, {});
    c.event_ok.assign(nev, true);
    std::vector<Sample> s0(nev), s1(nev), first(nev);
    if (nev) read_all(ts, first.data());
    uint64_t pairs = 16;
    double x = 1.0;
    auto region = [&](const char* name = kCalibrationRegion) -> const ThreadRegion* {
        const auto it = ts->ids.find(std::string_view(name));
        return it == ts->ids.end() ? nullptr : &ts->regions[size_t(it->second)];
    };
    for (int batch = -2; batch < kBatches; ++batch) {
        const ThreadRegion* r = region();
        const uint64_t ns0 = r ? r->ns : 0;
        std::vector<double> counters0(nev, 0.0);
        for (size_t i = 0; r && i < nev && i < r->counters.size(); ++i) counters0[i] = r->counters[i];
        if (nev) read_all(ts, s0.data());
        const uint64_t t0 = now_ns();
        for (uint64_t i = 0; i < pairs; ++i) {
            roofline_begin(kCalibrationRegion);
            roofline_end(kCalibrationRegion);
        }
        const uint64_t t1 = now_ns();
        if (nev) read_all(ts, s1.data());
        r = region();
        const uint64_t ns1 = r->ns;
        std::vector<double> counters1(nev, 0.0);
        for (size_t i = 0; i < nev && i < r->counters.size(); ++i) counters1[i] = r->counters[i];
        // The chain unmarked, then marked.
        const uint64_t u0 = now_ns();
        for (int i = 0; i < kChains; ++i) x = calibration_chain(x);
        const uint64_t u1 = now_ns();
        const ThreadRegion* w = region(kCalibrationWhole);
        const uint64_t whole0 = w ? w->ns : 0;
        roofline_begin(kCalibrationWhole);
        for (int i = 0; i < kChains; ++i) {
            roofline_begin(kCalibrationRegion);
            x = calibration_chain(x);
            roofline_end(kCalibrationRegion);
        }
        roofline_end(kCalibrationWhole);
        r = region();
        const uint64_t ns2 = r->ns;
        const uint64_t whole1 = region(kCalibrationWhole)->ns;
        const double per_pair = double(t1 - t0) / double(pairs);
        if (batch < 0) {
            // Sized from the second warm-up: about 20 us a batch, 16 to 256 pairs.
            if (batch == -1) pairs = uint64_t(std::clamp(20000.0 / std::max(per_pair, 1.0), 16.0, 256.0));
            continue;
        }
        const double empty_ns = double(ns1 - ns0) / double(pairs);
        const double unmarked = double(u1 - u0);
        c.region_ns.push_back(empty_ns);
        c.begin_ns.push_back(std::max(0.0, (double(ns2 - ns1) - unmarked) / kChains));
        // The enclosing region's time beyond the chains and its own calls, per region inside it.
        c.nested_ns.push_back(std::max(0.0, (double(whole1 - whole0) - unmarked - empty_ns) / kChains));
        c.pair_ns.push_back(per_pair);
        for (size_t i = 0; i < nev; ++i) {
            const roofline::MultiplexedCount whole = roofline::scale_multiplexed(
                double(s1[i].value - s0[i].value), s1[i].enabled - s0[i].enabled, s1[i].running - s0[i].running);
            const bool counted = ts->fds[i] >= 0 && whole.counted && i < r->counters.size() &&
                                 !(i < r->uncounted.size() && r->uncounted[i]);
            if (!counted) c.event_ok[i] = false;
            c.region_events[i].push_back(counted ? (counters1[i] - counters0[i]) / double(pairs) : 0.0);
            c.pair_events[i].push_back(counted ? whole.value / double(pairs) : 0.0);
        }
    }
    c.pairs = pairs;
    if (nev) read_all(ts, s1.data());
    for (size_t i = 0; i < nev; ++i)
        c.event_total.push_back(roofline::scale_multiplexed(double(s1[i].value - first[i].value),
                                                            s1[i].enabled - first[i].enabled,
                                                            s1[i].running - first[i].running).value);
    roofline_region_reset(kCalibrationRegion);
    roofline_region_reset(kCalibrationWhole);
    c.seconds = double(now_ns() - start) * 1e-9;
    c.done = true;
    g->calibration = std::move(c);
    volatile double sink = x;  // the chains' result is used: they are not optimized away
    (void)sink;
}

#ifdef ROOFLINE_HAVE_VALGRIND
// Under the Valgrind tool (ROOFLINE_MARKER_CALIBRATE set by the instrument engine): the tool
// counts kValgrindPairs pairs of an empty region as its region kCalibrationRegion, all of them
// inside kCalibrationWhole. Every pair runs the same instructions there; measure reads the two
// regions (per pair: the in-region part, the whole pair) and drops them. Recording is off for
// one pair first, which binds the entry points' PLT slots outside any region.
constexpr int kValgrindPairs = 100;
void calibrate_under_valgrind() {
    g_mode.store(kOff, std::memory_order_release);
    roofline_begin(kCalibrationRegion);
    roofline_end(kCalibrationRegion);
    g_mode.store(kValgrind, std::memory_order_release);
    roofline_begin(kCalibrationWhole);
    for (int i = 0; i < kValgrindPairs; ++i) {
        roofline_begin(kCalibrationRegion);
        roofline_end(kCalibrationRegion);
    }
    roofline_end(kCalibrationWhole);
}
#endif

// Under `roofline measure` the library starts when it is loaded, not at the first marker
// call: a program that loads it always leaves a file (with no regions if it marked none),
// so measure can tell "the library recorded nothing" from "the library is not there".
__attribute__((constructor)) void init_at_load() {
    const char* out = std::getenv("ROOFLINE_MARKER_OUT");
#ifdef ROOFLINE_HAVE_VALGRIND
    const char* calibrate = std::getenv("ROOFLINE_MARKER_CALIBRATE");
    if (RUNNING_ON_VALGRIND) {
        if (calibrate && *calibrate && ensure_init() == kValgrind) calibrate_under_valgrind();
        VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_CALIBRATED, 0, 0, 0, 0, 0);
        return;
    }
#endif
    if (!(out && *out)) return;
    // Before the program's code (and its threads) run: the calls' own cost in this process.
    if ((ensure_init() & kTiming) && g && !g->out_path.empty()) calibrate_native();
}

// --- OpenMP teams forked inside regions (openmp_wrappers.c) ---
//
// A region opened on one thread around `#pragma omp parallel` is run by the whole team, and
// only the opening thread calls begin and end. The wrappers of libgomp's entry points hand
// each team thread's body to team_body: the team's distinct threads (nested teams' too) are
// counted for every region open on the forking thread (and those it runs a team body for),
// and under the perf engine each such thread's counters over its body are added to them.
struct Fork {
    std::vector<int> ids;  // the regions open on the forking thread, and inherited
    Fork* parent = nullptr;  // the team body the forking thread runs, if any
    SpinLock lock;
    std::vector<pid_t> threads;  // distinct threads that ran this team's (or a nested team's) body
    Fork* forking_saved = nullptr;  // t_forking before this fork
};

thread_local Fork* t_team = nullptr;  // the team body this thread runs now (innermost)
// The team this thread is forking now (from roofline_marker_fork to the join): a thread it starts
// meanwhile outside its own body is the runtime's, made for the team (roofline_marker_thread_created).
thread_local Fork* t_forking = nullptr;

void team_thread_ran(Fork* f, pid_t tid) {
    for (; f; f = f->parent) {
        f->lock.lock();
        if (std::find(f->threads.begin(), f->threads.end(), tid) == f->threads.end()) f->threads.push_back(tid);
        f->lock.unlock();
    }
}

}  // namespace

// On the forking thread, before the team starts: nullptr (fork unwrapped) unless a region is
// open on it or it runs a team body for one, and the library is timing.
extern "C" __attribute__((visibility("hidden"))) void* roofline_marker_fork(void) {
    const int mode = g_mode.load(std::memory_order_relaxed);
    if (mode == kUninit || !(mode & kTiming)) return nullptr;
    ThreadState* ts = t_state;
    Fork* inherited = t_team;
    if ((!ts || ts->stack.empty()) && !inherited) return nullptr;
    auto* f = new Fork;
    if (ts) {
        ts->lock.lock();
        for (const Frame& fr : ts->stack)
            if (std::find(f->ids.begin(), f->ids.end(), fr.id) == f->ids.end()) f->ids.push_back(fr.id);
        ts->lock.unlock();
    }
    if (inherited)
        for (int id : inherited->ids)
            if (std::find(f->ids.begin(), f->ids.end(), id) == f->ids.end()) f->ids.push_back(id);
    f->parent = inherited;
    f->forking_saved = t_forking;
    t_forking = f;
    return f;
}

namespace {

// A team thread's body, begun and ended (team_enter, team_leave): the thread is counted for the
// team, runs as one of it (a team it forks inherits its regions), and its counters (perf
// engine) over the body are added to the regions it is not already counting: not those open on
// it, nor those of the team body it runs around this one.
struct TeamBody {
    Fork* saved = nullptr;  // the team body around this one on the thread
    std::vector<int> counted;
    std::vector<Sample> s0;  // the counters when the body (or its part since a pause) began
    bool paused = false;
};

TeamBody* team_enter(Fork* f) {
    team_thread_ran(f, pid_t(::syscall(SYS_gettid)));
    auto* b = new TeamBody;
    b->saved = t_team;
    ThreadState* ts = (g_mode.load(std::memory_order_relaxed) & kTiming) && !g->events.empty() ? thread_state() : nullptr;
    if (ts) {
        ts->lock.lock();
        for (int id : f->ids) {
            const bool open_here =
                std::any_of(ts->stack.begin(), ts->stack.end(), [&](const Frame& fr) { return fr.id == id; });
            const bool around = b->saved && std::find(b->saved->ids.begin(), b->saved->ids.end(), id) != b->saved->ids.end();
            if (!open_here && !around) b->counted.push_back(id);
        }
        ts->lock.unlock();
        // Nor those a thread started inside them counts for already, by its Spawn (set and
        // cleared only on this thread).
        if (const Spawn* spawn = ts->spawn)
            std::erase_if(b->counted, [&](int id) { return spawn_counting(spawn, id, wall_of(id)); });
    }
    if (!b->counted.empty()) {
        std::vector<std::pair<std::string_view, RegionWall*>> named;
        {
            std::lock_guard<Mutex> lk(g->mu);
            for (int id : b->counted) named.emplace_back(g->names[size_t(id)], &g->walls[size_t(id)]);
        }
        ts->lock.lock();
        for (size_t k = 0; k < b->counted.size(); ++k) {
            const size_t id = size_t(b->counted[k]);
            if (ts->regions.size() <= id) ts->regions.resize(id + 1);
            ThreadRegion& r = ts->regions[id];
            r.name = named[k].first;
            r.wall = named[k].second;
            ++r.team_depth;
        }
        ts->lock.unlock();
        b->s0.resize(ts->fds.size());
        read_all(ts, b->s0.data());
    }
    t_team = f;
    return b;
}

// The counters since s0 added to the counted regions; `last`: the body ends.
void team_count(TeamBody* b, bool last) {
    if (b->counted.empty()) return;
    ThreadState* ts = t_state;
    const size_t nev = ts->fds.size();
    std::vector<Sample> s1(nev);
    if (!b->paused) read_all(ts, s1.data());
    ts->lock.lock();
    for (int id : b->counted) {
        ThreadRegion& r = ts->regions[size_t(id)];
        if (last) --r.team_depth;
        r.team_work = true;
        if (b->paused) continue;
        if (r.counters.size() != nev) r.counters.assign(nev, 0.0);
        if (r.uncounted.size() != nev) r.uncounted.assign(nev, false);
        for (size_t i = 0; i < nev; ++i) {
            if (ts->fds[i] < 0) continue;
            const Sample& a = b->s0[i];
            const roofline::MultiplexedCount c = roofline::scale_multiplexed(
                double(s1[i].value - a.value), s1[i].enabled - a.enabled, s1[i].running - a.running);
            if (!c.counted) r.uncounted[i] = true;
            else if (g->events[i].cpu >= 0) r.counters[i] = std::max(r.counters[i], c.value);
            else r.counters[i] += c.value;
        }
    }
    ts->lock.unlock();
    b->paused = true;
}

void team_leave(TeamBody* b) {
    t_team = b->saved;
    team_count(b, true);
    delete b;
}

// A barrier inside the body (OpenMP tool): its wait is not the body's work, and the last one's
// end comes only when the thread next wakes. Counting pauses at its begin and resumes at its end.
void team_pause(TeamBody* b) { team_count(b, false); }
void team_resume(TeamBody* b) {
    if (b->counted.empty() || !b->paused) return;
    read_all(t_state, b->s0.data());
    b->paused = false;
}

}  // namespace

// For the OpenMP tool interface (openmp_tool.c): a team body's begin and end, apart.
extern "C" __attribute__((visibility("hidden"))) void* roofline_marker_team_enter(void* fork) {
    return team_enter(static_cast<Fork*>(fork));
}
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_team_leave(void* body) {
    team_leave(static_cast<TeamBody*>(body));
}
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_team_pause(void* body) {
    team_pause(static_cast<TeamBody*>(body));
}
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_team_resume(void* body) {
    team_resume(static_cast<TeamBody*>(body));
}

// libgomp's wrappers (openmp_wrappers.c): each team thread's body, whole.
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_team_body(void* fork, void (*fn)(void*),
                                                                               void* data) {
    TeamBody* b = team_enter(static_cast<Fork*>(fork));
    fn(data);
    team_leave(b);
}

// Whether the library is timing regions (the OpenMP tool is started only then).
extern "C" __attribute__((visibility("hidden"))) int roofline_marker_timing(void) {
    return (ensure_init() & kTiming) != 0;
}

// On the forking thread, after the team joined: its distinct threads go to every region it
// was forked inside (the largest team each saw).
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_join(void* fork) {
    Fork* f = static_cast<Fork*>(fork);
    if (t_forking == f) t_forking = f->forking_saved;
    if (g) {
        const int n = int(f->threads.size());
        for (int id : f->ids) {
            RegionWall* w = nullptr;
            {
                std::lock_guard<Mutex> lk(g->mu);
                if (size_t(id) < g->walls.size()) w = &g->walls[size_t(id)];
            }
            if (!w) continue;
            int seen = w->team.load(std::memory_order_relaxed);
            while (n > seen && !w->team.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
            }
        }
    }
    delete f;
}

// --- Threads started inside regions (thread_wrappers.c) ---
//
// A region opened on one thread around work done by threads it starts (a hand-made pool,
// std::thread) ran on those threads, though only the opening thread calls begin and end. Each
// thread started while regions are open on its creator (or that its creator was itself started
// inside, or runs an OpenMP team body for) counts for each of them that is still open, from its
// pthread_create until it exits: a region's `spawned_threads` is the most such threads alive at
// once, so a pool started and joined on every call counts its width, not every thread it made.
// Under the perf engine its counters count for each such region too, from its start (its own
// first read) to the earlier of its exit (read in it) and the region's close (the last thread
// with the region open reads it: wall_leave), so a thread that outlives the region (a pool made
// inside the first call and kept) adds nothing done after it closed. While the thread has such a
// region open itself, that instance counts instead (spawn_pause, spawn_resume). Threads an OpenMP
// runtime makes for a team count by their bodies (team_enter), not here.
namespace {

thread_local Spawn* t_spawn = nullptr;  // set in a thread started inside regions

}  // namespace

// In the creating thread, before the thread is made: nullptr (no record, the call goes straight
// to the C library) unless the library is timing and a region is open here or inherited.
extern "C" __attribute__((visibility("hidden"))) void* roofline_marker_thread_created(void) {
    const int mode = g_mode.load(std::memory_order_relaxed);
    if (mode == kUninit || !(mode & kTiming)) return nullptr;
    ThreadState* ts = t_state;
    const Spawn* inherited = t_spawn;
    const Fork* team = t_team;
    if ((!ts || ts->stack.empty()) && !inherited && !team) return nullptr;
    std::vector<int> ids;
    std::vector<uint64_t> instance;  // per id: the instance it must still be in (0: the current one)
    auto add = [&](int id, uint64_t in) {
        if (std::find(ids.begin(), ids.end(), id) != ids.end()) return;
        ids.push_back(id);
        instance.push_back(in);
    };
    if (ts) {
        ts->lock.lock();
        for (const Frame& fr : ts->stack) add(fr.id, 0);
        ts->lock.unlock();
    }
    if (team)
        for (int id : team->ids) add(id, 0);
    if (inherited)  // the creator's: a region closed since (even if open again) is not this thread's
        for (size_t k = 0; k < inherited->ids.size(); ++k)
            add(inherited->ids[k], k < inherited->opened.size() ? inherited->opened[k] : 0);
    auto* spawn = new Spawn;
    // Made by the OpenMP runtime for a team this thread forks (not by the body it runs).
    spawn->counters = !(t_forking && t_forking != t_team);
    for (size_t k = 0; k < ids.size(); ++k) {
        const int id = ids[k];
        RegionWall* w = wall_of(id);
        if (!w) continue;
        w->lock.lock();
        // An inherited region may have closed since.
        const bool open = w->open > 0 && (instance[k] == 0 || instance[k] == w->opened);
        const int alive = open ? ++w->spawned : 0;
        const uint64_t opened = w->opened;
        w->lock.unlock();
        if (!open) continue;
        spawn->ids.push_back(id);
        spawn->opened.push_back(opened);
        int peak = w->spawned_peak.load(std::memory_order_relaxed);
        while (alive > peak && !w->spawned_peak.compare_exchange_weak(peak, alive, std::memory_order_relaxed)) {
        }
    }
    if (spawn->ids.empty()) {
        delete spawn;
        return nullptr;
    }
    return spawn;
}

// The thread exited (or was never made: pthread_create failed): it no longer counts.
// Perf engine: its counters since its start (or its own instance's end) go to each region still
// open that it counts for, read here, in the thread (a region that closed has read them already).
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_thread_exits(void* p) {
    auto* spawn = static_cast<Spawn*>(p);
    if (t_spawn == spawn) t_spawn = nullptr;
    if (ThreadState* ts = t_state; ts && ts->spawn == spawn) {
        ts->lock.lock();  // a finalize closing this thread's regions reads it under the lock
        ts->spawn = nullptr;
        ts->lock.unlock();
    }
    for (size_t k = 0; k < spawn->ids.size(); ++k) {
        RegionWall* w = wall_of(spawn->ids[k]);
        SpawnCount* c = k < spawn->counts.size() ? spawn->counts[k] : nullptr;
        if (!w) {
            delete c;
            continue;
        }
        w->lock.lock();
        if (w->spawned > 0) --w->spawned;
        if (c && c->active) {
            if (!c->paused) add_spawn_count(*c, nullptr, w->spawn_counters, w->spawn_counted, w->spawn_uncounted);
            c->active = false;
            w->counting.erase(std::find(w->counting.begin(), w->counting.end(), c));
        }
        w->lock.unlock();
        delete c;  // no wall holds it now
    }
    delete spawn;
}

extern "C" __attribute__((visibility("hidden"))) void roofline_marker_thread_not_started(void* spawn) {
    roofline_marker_thread_exits(spawn);
}

// In the new thread, before its body: the threads it starts count for its regions too, and under
// the perf engine its counters start counting for each of them still open in the instance it was
// started in (one that closed, even if open again since, is not this thread's).
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_thread_runs(void* p) {
    auto* spawn = static_cast<Spawn*>(p);
    t_spawn = spawn;
    if (!spawn->counters || !(g_mode.load(std::memory_order_relaxed) & kTiming) ||
        std::none_of(g->events.begin(), g->events.end(), [](const EventSpec& ev) { return ev.cpu < 0; }))
        return;
    try {
        ThreadState* ts = thread_state();  // opens the thread's counters
        const size_t nev = ts->fds.size();
        std::vector<Sample> s0(nev);
        read_all(ts, s0.data());
        spawn->counts.assign(spawn->ids.size(), nullptr);
        for (size_t k = 0; k < spawn->ids.size(); ++k) {
            RegionWall* w = wall_of(spawn->ids[k]);
            if (!w) continue;
            auto* c = new SpawnCount;
            c->fds = &ts->fds;
            c->s0 = s0;
            // The wall's per-event sums, made here and swapped in: nothing allocates under its
            // spin lock but the list's push_back, caught; stopping (wall_leave, exit) allocates nothing.
            std::vector<double> counters(nev, 0.0);
            std::vector<bool> counted(nev, false), uncounted(nev, false);
            w->lock.lock();
            if (w->open > 0 && w->opened == spawn->opened[k]) {
                if (w->spawn_counters.size() != nev) {
                    w->spawn_counters.swap(counters);
                    w->spawn_counted.swap(counted);
                    w->spawn_uncounted.swap(uncounted);
                }
                try {
                    w->counting.push_back(c);
                    c->active = true;
                } catch (...) {
                }
            }
            w->lock.unlock();
            if (c->active) spawn->counts[k] = c;
            else delete c;
        }
        ts->lock.lock();
        ts->spawn = spawn;
        ts->lock.unlock();
    } catch (...) {  // out of memory: the thread runs, uncounted (what is counted stays right)
    }
}

namespace {

constexpr std::string_view kOutVar = "ROOFLINE_MARKER_OUT=";

// "<file>" -> "<file>.exec1", "<file>.execN" -> "<file>.exec<N+1>".
std::string next_exec_path(const std::string& path) {
    const size_t dot = path.rfind(".exec");
    if (dot != std::string::npos && dot + 5 < path.size() &&
        path.find_first_not_of("0123456789", dot + 5) == std::string::npos && path.size() - dot - 5 < 9) {
        const long n = std::strtol(path.c_str() + dot + 5, nullptr, 10);
        return path.substr(0, dot) + ".exec" + std::to_string(n + 1);
    }
    return path + ".exec1";
}

}  // namespace

// Called by the exec wrappers (exec_wrappers.c) just before the process image is replaced:
// the regions recorded so far are written to ROOFLINE_MARKER_OUT (there is no exit, so no
// atexit, at an exec), and the new image's environment names the next file,
// "<file>.exec<N>", so a new image that marks regions too does not overwrite them
// (`roofline measure` reads the chain). Returns the environment to pass: `envp` itself, or a
// copy in `*storage` (freed by roofline_marker_exec_done). Does nothing in a forked child
// (its regions so far are its parent's; a vfork child must not allocate) or when the
// library is not recording.
extern "C" __attribute__((visibility("hidden"))) char* const* roofline_marker_before_exec(char* const* envp,
                                                                                         void** storage) {
    *storage = nullptr;
    if (g_mode.load(std::memory_order_acquire) == kUninit || !g || g->out_path.empty() || g->pid != ::getpid())
        return envp;
    const int saved = errno;
    write_results(true);
    if (envp) {
        size_t count = 0;
        bool named = false;
        for (; envp[count]; ++count)
            if (std::string_view(envp[count]).starts_with(kOutVar)) named = true;
        if (named) {
            auto* holder = new std::pair<std::vector<char*>, std::string>;
            holder->second = std::string(kOutVar) + next_exec_path(g->out_path);
            for (size_t i = 0; i < count; ++i) {
                if (std::string_view(envp[i]).starts_with(kOutVar)) holder->first.push_back(holder->second.data());
                else holder->first.push_back(envp[i]);
            }
            holder->first.push_back(nullptr);
            *storage = holder;
            envp = holder->first.data();
        }
    }
    errno = saved;
    return envp;
}

// After an exec that failed (the program goes on): frees what roofline_marker_before_exec made.
extern "C" __attribute__((visibility("hidden"))) void roofline_marker_exec_done(void* storage) {
    delete static_cast<std::pair<std::vector<char*>, std::string>*>(storage);
}

extern "C" {

ROOFLINE_API void roofline_init(void) { ensure_init(); }

ROOFLINE_API void roofline_begin(const char* name) {
    int mode = g_mode.load(std::memory_order_relaxed);
    if (__builtin_expect(mode == kOff, 1)) return;
    begin_slow(name, mode);
}

ROOFLINE_API void roofline_end(const char* name) {
    int mode = g_mode.load(std::memory_order_relaxed);
    if (__builtin_expect(mode == kOff, 1)) return;
    end_slow(name, mode);
}

ROOFLINE_API void roofline_finalize(void) {
    if (ensure_init() & kTiming) write_results();
}

ROOFLINE_API int roofline_active(void) { return ensure_init() != kOff; }

ROOFLINE_API void roofline_region_get(const char* name, int* nevents, double* events,
                                      double* seconds, int* calls) {
    int capacity = nevents ? *nevents : 0;
    if (nevents) *nevents = 0;
    if (seconds) *seconds = 0;
    if (calls) *calls = 0;
    ThreadRegion* r = find_thread_region(name);
    if (!r) return;
    t_state->lock.lock();
    if (seconds) *seconds = double(r->ns) * 1e-9;
    if (calls) *calls = int(r->calls);
    int n = 0;
    for (; events && n < capacity && size_t(n) < r->counters.size(); ++n)
        events[n] = r->counters[size_t(n)];
    if (nevents) *nevents = n;
    t_state->lock.unlock();
}

ROOFLINE_API void roofline_region_reset(const char* name) {
    ThreadRegion* r = find_thread_region(name);
    if (!r) return;
    t_state->lock.lock();
    if (r->depth == 0) {
        r->calls = 0;
        r->outer_calls = 0;
        r->inner_calls = 0;
        r->ns = 0;
        r->unclosed = 0;
        for (double& c : r->counters) c = 0;
        // The region's wall time restarts too when no thread has it open.
        if (RegionWall* w = r->wall) {
            w->lock.lock();
            if (w->open == 0) {
                w->ns = 0;
                w->team.store(0, std::memory_order_relaxed);
                w->spawned_peak.store(w->spawned, std::memory_order_relaxed);  // those still alive
                w->open_peak.store(0, std::memory_order_relaxed);
            }
            w->lock.unlock();
        }
    }
    t_state->lock.unlock();
}

}  // extern "C"
