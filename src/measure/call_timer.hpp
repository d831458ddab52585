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
// time, less the latency of one ptrace stop each (measured at the start by
// single-stepping, the smallest of 32 round trips; tens of microseconds on a
// VM, so calls that short cannot be timed this way). While a
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
};

struct CallTimingResult {
    bool ok = false;  // false: tracing could not be set up; see `error`
    std::string error;
    ChildStatus status;
    double wall_seconds = 0;  // of the traced run
    // The smallest round trip through a ptrace stop (resume, trap, wake the
    // tracer), measured by single-stepping the program's first instructions:
    // what a call of no work would measure. Taken off every timed call.
    double stop_seconds = 0;
    std::vector<TimedFunction> functions;
};

// The name a function and its GCC clones share, folded as the Valgrind tool
// folds it ("relax(double) [clone .constprop.0]" -> "relax(double)").
std::string folded_function_name(const std::string& symbol);

// Runs argv natively under the call timer. Throws CommandNotFound like run_child.
CallTimingResult time_function_calls(const std::vector<std::string>& argv,
                                     const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::vector<std::string>& functions);

} // namespace roofline::measure
