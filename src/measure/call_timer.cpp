#include "measure/call_timer.hpp"

#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/output_tee.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/function_names.hpp"

#include "rl_fnmatch.h"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

namespace roofline::measure {
namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Writes byte `b` at addr in the tracee; the byte that was there goes to *old.
bool poke_byte(pid_t pid, std::uint64_t addr, std::uint8_t b, std::uint8_t* old = nullptr) {
    errno = 0;
    long word = ::ptrace(PTRACE_PEEKTEXT, pid, addr, nullptr);
    if (errno != 0) return false;
    if (old) *old = static_cast<std::uint8_t>(word & 0xff);
    word = static_cast<long>((static_cast<unsigned long>(word) & ~0xfful) | b);
    return ::ptrace(PTRACE_POKETEXT, pid, addr, word) == 0;
}

bool peek_byte(pid_t pid, std::uint64_t addr, std::uint8_t& out) {
    errno = 0;
    const long word = ::ptrace(PTRACE_PEEKTEXT, pid, addr, nullptr);
    out = static_cast<std::uint8_t>(word & 0xff);
    return errno == 0;
}

bool peek_word(pid_t pid, std::uint64_t addr, std::uint64_t& out) {
    errno = 0;
    const long word = ::ptrace(PTRACE_PEEKDATA, pid, addr, nullptr);
    out = static_cast<std::uint64_t>(word);
    return errno == 0;
}

bool poke_word(pid_t pid, std::uint64_t addr, std::uint64_t value) {
    return ::ptrace(PTRACE_POKEDATA, pid, addr, value) == 0;
}

// AT_ENTRY of the program the process runs now.
std::uint64_t entry_point(pid_t pid) {
    std::ifstream in(fmt::format("/proc/{}/auxv", pid), std::ios::binary);
    std::uint64_t pair[2];
    while (in.read(reinterpret_cast<char*>(pair), sizeof pair))
        if (pair[0] == 9 /* AT_ENTRY */) return pair[1];
    return 0;
}

struct Breakpoint {
    std::uint64_t addr;
    std::uint8_t original;
    std::size_t function;
};

// The unwinder's entries (libgcc_s): an exception, a thread's cancellation
// and backtrace() walk the stack by return addresses, and stop at one we
// replaced. When a thread enters one, its replaced addresses are put back
// first (its timed calls end there, unfinished).
constexpr const char* kUnwinders[] = {"_Unwind_RaiseException", "_Unwind_ForcedUnwind", "_Unwind_Backtrace"};

// An unwinder entry whose first instruction can be executed here, so that
// its int3 can stay: endbr64 (a no-op when run) or push %rbp.
struct UnwindHook {
    std::uint64_t addr;
    std::uint8_t original;
    bool endbr64;  // else push %rbp
};

struct Activation {
    std::size_t function;
    std::uint64_t return_address;
    std::uint64_t slot;  // where the return address lies (rsp at entry)
    double t0;
};

constexpr std::uint8_t kInt3 = 0xcc;

class Tracer {
public:
    explicit Tracer(const std::vector<std::string>& names) {
        for (const auto& n : names) {
            index_.emplace(n, functions_.size());
            functions_.push_back({n});
        }
    }

    void attach(pid_t pid) {
        const long options = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
                             PTRACE_O_EXITKILL;
        if (::ptrace(PTRACE_SEIZE, pid, nullptr, options) != 0)
            throw MeasureError(fmt::format("cannot trace the command (ptrace: {}); a container or "
                                           "kernel.yama.ptrace_scope may forbid it",
                                           std::strerror(errno)));
        leader_ = pid;
    }

    // The event loop; returns the leader's wait status.
    int run() {
        int leader_status = 0;
        for (;;) {
            int st = 0;
            const pid_t tid = ::waitpid(-1, &st, __WALL);
            if (tid < 0) {
                if (errno == EINTR) continue;
                break;  // ECHILD: every traced thread is gone
            }
            if (WIFEXITED(st) || WIFSIGNALED(st)) {
                finish_thread(tid);
                if (tid == leader_) leader_status = st;
                continue;
            }
            if (!WIFSTOPPED(st)) continue;
            const int sig = WSTOPSIG(st);
            const int event = st >> 16;
            int deliver = 0;
            if (event == PTRACE_EVENT_EXEC) {
                on_exec(tid);
            } else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK) {
                unsigned long child = 0;
                ::ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &child);
                release(static_cast<pid_t>(child), tid, event == PTRACE_EVENT_VFORK);
            } else if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_STOP) {
                // a new thread (reported on its own), its first stop, or a group stop: go on
            } else if (sig != SIGTRAP || !on_trap(tid)) {
                deliver = sig;  // the program's own signal (or trap): pass it on
            }
            sync_breakpoints(tid);
            ::ptrace(PTRACE_CONT, tid, nullptr, deliver);
        }
        for (auto& [tid, stack] : stacks_)
            for (const auto& a : stack) ++functions_[a.function].timed.unfinished;
        return leader_status;
    }

    std::vector<TimedFunction> results() const {
        std::vector<TimedFunction> out;
        for (const auto& f : functions_) out.push_back(f.timed);
        return out;
    }

    std::string error() const { return error_; }
    double stop_seconds() const { return stop_seconds_; }
    double setup_seconds() const { return setup_seconds_; }

private:
    struct Function {
        std::string name;
        TimedFunction timed{name};
        bool armed = false;  // its int3s are in memory
        bool active = false; // a call of it is being timed (its int3s must be out)
    };

    // A thread ended inside timed calls: they are unfinished, and their
    // breakpoints go back in at the next stop (memory can only be written
    // through a stopped thread).
    void finish_thread(pid_t tid) {
        const auto it = stacks_.find(tid);
        if (it == stacks_.end()) return;
        for (const auto& a : it->second) {
            ++functions_[a.function].timed.unfinished;
            functions_[a.function].active = false;
        }
        stacks_.erase(it);
    }

    // Breakpoints in memory for every function not being timed, and in the
    // unwinder while any return address is replaced, through the stopped thread tid.
    void sync_breakpoints(pid_t tid) {
        if (!trampoline_) return;  // not started yet (or a new program not at its entry point)
        const bool replaced = std::any_of(stacks_.begin(), stacks_.end(), [](auto& s) { return !s.second.empty(); });
        if (replaced != hooks_armed_) {
            for (const auto& h : hooks_) poke_byte(tid, h.addr, replaced ? kInt3 : h.original);
            hooks_armed_ = replaced;
        }
        for (std::size_t f = 0; f < functions_.size(); ++f) {
            auto& fn = functions_[f];
            const bool want = !fn.active;
            if (fn.armed == want) continue;
            for (const auto& b : breakpoints_)
                if (b.function == f) poke_byte(tid, b.addr, want ? kInt3 : b.original);
            fn.armed = want;
        }
    }

    // A new program: breakpoints and open calls are gone with the old one.
    void on_exec(pid_t tid) {
        for (auto& [t, stack] : stacks_)
            for (const auto& a : stack) ++functions_[a.function].timed.unfinished;
        stacks_.clear();
        breakpoints_.clear();
        hooks_.clear();
        hooks_armed_ = false;
        for (auto& f : functions_) f.armed = f.active = false;
        leader_ = tid;
        trampoline_ = 0;
        entry_ = entry_point(tid);
        entry_armed_ = entry_ != 0 && poke_byte(tid, entry_, kInt3, &entry_original_);
    }

    // A forked child gets our int3s and replaced return addresses in its copy
    // of memory: put the originals back and let it go. A vfork child shares
    // our memory (and only execs or exits): let it go as it is.
    void release(pid_t child, pid_t parent, bool shared_memory) {
        int st = 0;
        while (::waitpid(child, &st, __WALL) < 0 && errno == EINTR) {
        }
        if (!shared_memory) {
            for (const auto& b : breakpoints_) poke_byte(child, b.addr, b.original);
            if (hooks_armed_)
                for (const auto& h : hooks_) poke_byte(child, h.addr, h.original);
            if (trampoline_) poke_byte(child, trampoline_, entry_original_);
            const auto it = stacks_.find(parent);
            if (it != stacks_.end())
                for (const auto& a : it->second) poke_word(child, a.slot, a.return_address);
        }
        ::ptrace(PTRACE_DETACH, child, nullptr, 0);
    }

    // The program reached its entry point: its libraries are mapped.
    bool at_entry(pid_t tid, user_regs_struct& regs) {
        const double started = now_seconds();
        const bool ok = prepare_at_entry(tid, regs);
        setup_seconds_ += now_seconds() - started;
        return ok;
    }

    bool prepare_at_entry(pid_t tid, user_regs_struct& regs) {
        poke_byte(tid, entry_, entry_original_);
        entry_armed_ = false;
        regs.rip = entry_;
        ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        place_breakpoints(tid);
        const auto calibrated = stop_in_a_call(tid, regs);
        // Execute the entry point's first instructions one by one (the first
        // of them once and for all: an int3 stays there), timing each round
        // trip through a stop: the least is the overhead's floor.
        for (int step = 0; step < 32; ++step) {
            const double t0 = now_seconds();
            if (::ptrace(PTRACE_SINGLESTEP, tid, nullptr, 0) != 0) return fail("cannot single-step the program");
            int st = 0;
            while (::waitpid(tid, &st, __WALL) < 0 && errno == EINTR) {
            }
            if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
                return fail("the program did not stop after a single step");
            const double round_trip = now_seconds() - t0;
            if (step == 0 || round_trip < stop_seconds_) stop_seconds_ = round_trip;
        }
        if (calibrated) stop_seconds_ = std::max(stop_seconds_, *calibrated);
        if (!poke_byte(tid, entry_, kInt3)) return fail("cannot write the return trap");
        trampoline_ = entry_;  // the loop arms the functions' breakpoints next
        return true;
    }

    // The overhead inside a timed call's interval: the program's resume and
    // its trap back to this tracer, which by then sleeps in waitpid (unlike
    // in a back-to-back single step). Measured with a spin loop written at
    // the entry point (dec rcx; jnz; int3), run for ~100 us 15 times and for
    // 20x as long 3 times, interleaved; the short runs' median, less the
    // loop's own time (its rate from the medians), is the overhead. On the
    // VMs tried it comes out near the single step's (20-70 us) while the
    // run's stops cost 100-150 us: account_stops_by_wall_time corrects that
    // from the run itself. nullopt when it cannot be run; the entry point's
    // bytes and registers are as before either way.
    std::optional<double> stop_in_a_call(pid_t tid, const user_regs_struct& regs) {
        std::uint64_t original = 0;
        if (!peek_word(tid, entry_, original)) return std::nullopt;
        static constexpr unsigned char kSpin[6] = {0x48, 0xFF, 0xC9, 0x75, 0xFB, 0xCC};  // 1: dec rcx; jnz 1b; int3
        std::uint64_t spin_code = original;
        std::memcpy(&spin_code, kSpin, sizeof kSpin);  // the first six bytes (little-endian)
        if (!poke_word(tid, entry_, spin_code)) return std::nullopt;
        auto spin = [&](std::uint64_t iterations) -> std::optional<double> {
            user_regs_struct r = regs;
            r.rip = entry_;
            r.rcx = iterations;
            if (::ptrace(PTRACE_SETREGS, tid, nullptr, &r) != 0) return std::nullopt;
            const double t0 = now_seconds();
            if (::ptrace(PTRACE_CONT, tid, nullptr, 0) != 0) return std::nullopt;
            int st = 0;
            while (::waitpid(tid, &st, __WALL) < 0 && errno == EINTR) {
            }
            const double t = now_seconds() - t0;
            if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) return std::nullopt;
            return t;
        };
        std::optional<double> overhead;
        if (const auto probe = spin(1'000'000); probe && *probe > 0) {
            const auto shorter = static_cast<std::uint64_t>(std::clamp(100e-6 / (*probe / 1e6), 1e3, 1e7));
            const std::uint64_t longer = 20 * shorter;
            std::vector<double> short_runs, long_runs;
            for (int i = 0; i < 15; ++i) {
                if (const auto t = spin(shorter)) short_runs.push_back(*t);
                if (i % 5 == 0)
                    if (const auto t = spin(longer)) long_runs.push_back(*t);
            }
            if (short_runs.size() == 15 && long_runs.size() == 3) {
                auto median = [](std::vector<double> v) {
                    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
                    return v[v.size() / 2];
                };
                const double short_median = median(short_runs);
                const double per_iteration = (median(long_runs) - short_median) / static_cast<double>(longer - shorter);
                if (per_iteration > 0) overhead = short_median - per_iteration * static_cast<double>(shorter);
            }
        }
        poke_word(tid, entry_, original);
        ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        return overhead;
    }

    bool fail(const std::string& why) {
        if (error_.empty()) error_ = why;
        return true;
    }

    void place_breakpoints(pid_t pid) {
        std::ifstream maps(fmt::format("/proc/{}/maps", pid));
        std::map<std::string, std::unique_ptr<ElfSymbols>> elves;
        std::string line;
        while (std::getline(maps, line)) {
            std::istringstream in(line);
            std::string range, perms, offset, dev, inode, path;
            in >> range >> perms >> offset >> dev >> inode >> path;
            if (perms.size() < 3 || perms[2] != 'x' || path.empty() || path[0] != '/') continue;
            const auto dash = range.find('-');
            const std::uint64_t start = std::stoull(range.substr(0, dash), nullptr, 16);
            const std::uint64_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
            const std::uint64_t pgoff = std::stoull(offset, nullptr, 16);
            auto& elf = elves[path];
            if (!elf) elf = std::make_unique<ElfSymbols>(path);
            if (!elf->loaded()) continue;
            for (const auto& sym : elf->functions()) {
                const auto off = vaddr_to_file_offset(sym.start, elf->segments());
                if (!off || *off < pgoff || *off - pgoff >= end - start) continue;
                const std::uint64_t addr = start + (*off - pgoff);
                if (std::find(std::begin(kUnwinders), std::end(kUnwinders), sym.name) != std::end(kUnwinders)) {
                    add_unwind_hook(pid, addr);
                    continue;
                }
                if (rl_is_cold_part(sym.name.c_str())) continue;
                const auto folded = folded_function_name(sym.name);
                auto wanted = index_.find(folded);
                // a name two files share is matched as "NAME (FILE)" (function_names.hpp)
                if (wanted == index_.end()) wanted = index_.find(name_in_file(folded, path));
                if (wanted == index_.end()) continue;
                Breakpoint b{addr, 0, wanted->second};
                if (std::any_of(breakpoints_.begin(), breakpoints_.end(),
                                [&](const Breakpoint& o) { return o.addr == b.addr; }))
                    continue;
                // Read the original byte now; armed later, all together.
                if (!peek_byte(pid, b.addr, b.original)) continue;
                breakpoints_.push_back(b);
                ++functions_[wanted->second].timed.breakpoints;
            }
        }
    }

    void add_unwind_hook(pid_t pid, std::uint64_t addr) {
        if (std::any_of(hooks_.begin(), hooks_.end(), [&](const UnwindHook& h) { return h.addr == addr; })) return;
        std::uint64_t code = 0;
        if (!peek_word(pid, addr, code)) return;
        const bool endbr64 = (code & 0xffffffffull) == 0xfa1e0ff3ull;
        // Other first instructions are not hooked: an exception through a timed call then ends the
        // timing run (its status says so), not the measurement.
        if (!endbr64 && (code & 0xff) != 0x55) return;
        hooks_.push_back({addr, static_cast<std::uint8_t>(code & 0xff), endbr64});
    }

    // A thread enters the unwinder: its replaced return addresses go back,
    // then the hooked instruction is executed here.
    bool on_unwind(pid_t tid, const UnwindHook& hook, user_regs_struct& regs) {
        const double t1 = now_seconds();
        auto& stack = stacks_[tid];
        for (const auto& a : stack) {
            poke_word(tid, a.slot, a.return_address);
            auto& f = functions_[a.function];
            add_call(f.timed, t1 - a.t0);
            ++f.timed.unwound;
            f.active = false;
        }
        stack.clear();
        if (hook.endbr64) {
            regs.rip = hook.addr + 4;
        } else {  // push %rbp
            regs.rsp -= 8;
            poke_word(tid, regs.rsp, regs.rbp);
            regs.rip = hook.addr + 1;
        }
        ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        return true;
    }

    // True when the trap was ours (handled); false: the program's own.
    bool on_trap(pid_t tid) {
        siginfo_t info{};
        if (::ptrace(PTRACE_GETSIGINFO, tid, nullptr, &info) != 0 || info.si_code != SI_KERNEL) return false;
        user_regs_struct regs{};
        if (::ptrace(PTRACE_GETREGS, tid, nullptr, &regs) != 0) return false;
        const std::uint64_t at = regs.rip - 1;
        if (entry_armed_ && at == entry_ && tid == leader_) return at_entry(tid, regs);
        if (trampoline_ && at == trampoline_) return on_return(tid, regs);
        for (const auto& h : hooks_)
            if (h.addr == at) return on_unwind(tid, h, regs);
        const auto bp = std::find_if(breakpoints_.begin(), breakpoints_.end(),
                                     [&](const Breakpoint& b) { return b.addr == at; });
        if (bp == breakpoints_.end()) return false;
        regs.rip = at;
        auto& f = functions_[bp->function];
        if (f.active) {
            // Another thread hit it just before it was disarmed: that call runs
            // inside the one being timed.
            ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
            return true;
        }
        std::uint64_t ret = 0;
        if (!peek_word(tid, regs.rsp, ret) || !poke_word(tid, regs.rsp, trampoline_)) {
            ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
            return fail("cannot read a return address");
        }
        f.active = true;
        sync_breakpoints(tid);
        ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        stacks_[tid].push_back({bp->function, ret, regs.rsp, now_seconds()});
        return true;
    }

    static void add_call(TimedFunction& f, double interval) {
        f.interval_seconds += interval;
        ++f.calls;
    }

    bool on_return(pid_t tid, user_regs_struct& regs) {
        const double t1 = now_seconds();
        auto& stack = stacks_[tid];
        // After `ret`, rsp is one word above where the return address was.
        auto it = std::find_if(stack.rbegin(), stack.rend(),
                               [&](const Activation& a) { return a.slot + 8 == regs.rsp; });
        if (it == stack.rend()) {
            // Cannot happen unless the program moved its stack under us: it
            // cannot go on without the address we replaced.
            ::kill(tid, SIGKILL);
            return fail("a return address that was replaced could not be found again; the command was stopped");
        }
        const std::size_t keep = static_cast<std::size_t>(stack.rend() - it) - 1;
        for (std::size_t k = keep + 1; k < stack.size(); ++k) {  // frames left by longjmp or unwinding
            ++functions_[stack[k].function].timed.unfinished;
            functions_[stack[k].function].active = false;
        }
        const Activation a = stack[keep];
        stack.resize(keep);
        auto& f = functions_[a.function];
        add_call(f.timed, t1 - a.t0);
        f.active = false;
        regs.rip = a.return_address;
        ::ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        return true;
    }

    std::vector<Function> functions_;
    std::vector<Breakpoint> breakpoints_;
    std::map<std::string, std::size_t> index_;  // folded name -> function
    std::vector<UnwindHook> hooks_;
    bool hooks_armed_ = false;
    std::map<pid_t, std::vector<Activation>> stacks_;
    pid_t leader_ = 0;
    std::uint64_t entry_ = 0, trampoline_ = 0;
    std::uint8_t entry_original_ = 0;
    bool entry_armed_ = false;
    double stop_seconds_ = 0;
    double setup_seconds_ = 0;  // at the entry point: symbols read, breakpoints placed, stops calibrated
    std::string error_;
};

} // namespace

std::string folded_function_name(const std::string& symbol) {
    char out[RL_NAME_MAX];
    rl_fold_clones(symbol.c_str(), out, RL_NAME_MAX);
    return out;
}

CallTimingResult time_function_calls(const std::vector<std::string>& argv,
                                     const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::vector<std::string>& functions) {
    CallTimingResult result;
    Tracer tracer(functions);
    ChildRun run;
    QuietOutput output;  // a later run: the first native run showed the program's output
    try {
        run = run_child(
            argv, env, [&](pid_t pid) { tracer.attach(pid); }, [&](pid_t) { return tracer.run(); },
            kStopGraceSeconds, output.stdout_fd(), output.stderr_fd());
    } catch (const CommandNotFound&) {
        throw;
    } catch (const std::exception& e) {
        output.finish();
        result.stderr_tail = output.stderr_tail();
        result.error = e.what();
        return result;
    }
    output.finish();
    result.stderr_tail = output.stderr_tail();
    result.status = run.status;
    result.wall_seconds = run.wall_seconds;
    result.functions = tracer.results();
    result.stop_seconds = tracer.stop_seconds();
    result.setup_seconds = tracer.setup_seconds();
    take_off_stops(result);
    result.error = tracer.error();
    result.ok = result.error.empty();
    return result;
}

void take_off_stops(CallTimingResult& timing) {
    for (auto& f : timing.functions)
        f.seconds = std::max(0.0, f.interval_seconds - static_cast<double>(f.calls) * timing.stop_seconds);
}

void account_stops_by_wall_time(CallTimingResult& timing, double untraced_wall_seconds) {
    long long calls = 0;
    for (const auto& f : timing.functions) calls += f.calls;
    const double extra = timing.wall_seconds - timing.setup_seconds - untraced_wall_seconds;
    // Two stops a call; trusted only where they, not the runs' noise, make most of the difference:
    // the excess is at least half the untraced run, and the stops are a real share of the run
    // even at their calibrated cost (a tenth of it). Without the second condition a few calls in
    // a short run on a busy host (4 calls, 50 ms, 33 ms of noise) made a stop "cost" 4 ms, and
    // every call became too short to time.
    const double stops_at_calibration = 2.0 * static_cast<double>(calls) * timing.stop_seconds;
    if (calls == 0 || untraced_wall_seconds <= 0 || extra < 0.5 * untraced_wall_seconds ||
        stops_at_calibration < 0.1 * untraced_wall_seconds)
        return;
    // (Not bounded by the shortest interval: the overhead varies from call to call, 10 to 150 us on a VM.)
    const double per_stop = extra / (2.0 * static_cast<double>(calls));
    if (per_stop <= timing.stop_seconds) return;
    timing.stop_seconds = per_stop;
    timing.stop_from_wall_time = true;
    take_off_stops(timing);
}

} // namespace roofline::measure
