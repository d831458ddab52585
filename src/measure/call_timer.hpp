// Inclusive wall time of chosen functions in a native run, by ptrace
// breakpoints (no uprobes, no root, no recompiling). For functions called a
// few thousand times at most: each timed call costs two ptrace stops.
//
// Method: the command is traced from exec. At its ELF entry point (when the
// dynamic loader has mapped its libraries) every function whose name, folded
// like the Valgrind tool folds it (rl_fnmatch.h), is wanted gets an int3 at
// its entry. When one is hit, the entry is restored, the time is taken and
// the return address on the stack is replaced by the entry point, which
// holds an int3 of its own (the entry point's code never runs twice). The
// return traps there; the time is taken again, the real return address is
// put back in rip and the breakpoint is re-armed.
//
// So a function's time is the sum over its outermost calls of their wall
// time, less the overhead of one ptrace stop each: calibrated at the start
// (the program's resume and its trap back to a tracer asleep in waitpid,
// around a spin loop of known length, the median of 15), and raised to what
// the run's extra wall time says a stop cost where that is more
// (account_stops_by_wall_time; 100-150 us on a VM, so calls that short
// cannot be timed this way). While a
// call is timed its breakpoint is disarmed: recursive calls, and calls made
// on other threads meanwhile, run inside the timed interval and are not
// timed on their own (a call on another thread that outlasts the timed one
// is timed only up to the end of that one). Functions in libraries loaded
// later by dlopen are not found. Forked children get the original bytes back
// and are released; an exec starts over in the new program.
//
// The unwinder (C++ exceptions, thread cancellation, backtrace()) follows
// return addresses and would stop at a replaced one: while any is replaced,
// libgcc_s's _Unwind_RaiseException, _Unwind_ForcedUnwind and
// _Unwind_Backtrace trap too, and the thread's own replaced addresses go
// back before it unwinds (its timed calls end there: timed up to then).
#pragma once

#include "measure/engine.hpp"

#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

struct TimedFunction {
    std::string name;         // as the Valgrind tool reports a match: demangled, clones folded
    int breakpoints = 0;      // entries found (a function and its clones)
    long long calls = 0;      // outermost calls timed (those ended by unwinding included)
    long long unwound = 0;    // of those, calls an exception left: timed up to the unwinder's start
    long long unfinished = 0; // calls that never returned (longjmp, exit, a thread that ended): not timed
    double seconds = 0;       // summed wall time of the timed calls, the stop overhead taken off each
    double interval_seconds = 0;  // the same with the overhead: from entry to return as the tracer saw them
};

struct CallTimingResult {
    bool ok = false;  // false: tracing could not be set up; see `error`
    std::string error;
    ChildStatus status;
    double wall_seconds = 0;  // of the traced run
    // The overhead of a ptrace stop inside a timed call (resume, trap, wake
    // the sleeping tracer): what a call of no work would measure, from spin
    // loops at the start (at least the smallest single-step round trip).
    // Taken off every timed call.
    double stop_seconds = 0;
    bool stop_from_wall_time = false;  // stop_seconds from the traced run's extra wall time (account_stops_by_wall_time)
    double setup_seconds = 0;          // spent at the entry point before the program went on (symbols, calibration)
    std::string stderr_tail;  // the run's output is not shown (QuietOutput): its standard error's end
    std::vector<TimedFunction> functions;
};

// On a host where the stops cost more in the run than in the calibration (a
// waking vCPU, a busy host), the traced run's wall time says so: it exceeds
// the untraced run's by about two stops per timed call. Where that excess is
// at least half the untraced run's time and the stops at their calibrated
// cost are at least a tenth of it (so the runs' noise cannot make it),
// the overhead per stop becomes the excess / (2 x calls) when larger than the
// calibrated one, and the functions' seconds are taken again.
void account_stops_by_wall_time(CallTimingResult& timing, double untraced_wall_seconds);

// Each function's seconds: its intervals less stop_seconds per call.
void take_off_stops(CallTimingResult& timing);

// The name a function and its GCC clones share, folded as the Valgrind tool
// folds it ("relax(double) [clone .constprop.0]" -> "relax(double)").
std::string folded_function_name(const std::string& symbol);

// Runs argv natively under the call timer. Throws CommandNotFound like run_child.
CallTimingResult time_function_calls(const std::vector<std::string>& argv,
                                     const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::vector<std::string>& functions);

} // namespace roofline::measure
