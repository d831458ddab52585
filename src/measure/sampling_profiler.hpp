// Native per-function CPU time by sampling: runs the command with a software
// perf event (task clock) that samples the user-space instruction pointer, and
// attributes the samples to ELF function symbols. Needs no hardware PMU
// (works with perf_event_paranoid <= 2 on the child we start). Linux only.
//
// Without call stacks only the sampled function itself is credited (self /
// exclusive time). With `call_stacks`, every sample also copies the user
// registers and the top of the user stack, unwound afterwards by DWARF
// call-frame information (stack_unwinder.hpp): each sample then names every
// function on its thread's stack, which gives inclusive time.
#pragma once

#include "measure/elf_symbols.hpp"
#include "measure/engine.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

struct FunctionTime {
    long long samples = 0;
    double seconds = 0;  // samples * period: CPU time, summed over threads
    std::string file;    // the file the function is in (empty: none, code generated at run time)
};

// One sample's call stack, as the distinct functions on it.
struct SampledStack {
    int tid = 0;
    bool complete = false;       // unwound up to the thread's outermost frame
    std::vector<int> functions;  // indices into SamplingResult::stack_functions, each once
};

// A thread's life as the samples saw it: how much of it was spent on a CPU.
struct SampledThread {
    long long samples = 0;
    std::uint64_t first_ns = 0, last_ns = 0;  // times of its first and last sample
};

struct SamplingOptions {
    std::uint64_t period_ns = 100000;  // task-clock time between samples, per thread
    bool call_stacks = false;
    // User stack copied per sample (call_stacks). More reaches past larger frames but costs the sampled run
    // its time: 64 KiB made a BLAS loop 20% slower; 16 KiB, 2%.
    std::uint32_t stack_bytes = 16384;
    // Keep each sample's code address (file, link-time address): measure --loops gives a
    // loop the samples of its instructions.
    bool code_addresses = false;

    // The spacing for a run whose native run took `native_seconds`: IP samples are small, every 100 us. A
    // call-stack sample copies the stack, so at most every 250 us, and ~4000 per busy thread over the run
    // (a long run is not worth gigabytes of stack copies; 4000 samples give a function with a tenth of the
    // time ±5%).
    static SamplingOptions for_run(bool call_stacks, double native_seconds);
};

struct SamplingResult {
    bool ok = false;              // false: sampling could not be set up; see `error`
    std::string error;
    ChildStatus status;           // how the (first) sampled run ended
    std::string stderr_tail;      // its output is not shown (QuietOutput): its standard error's end
    double period_seconds = 0;
    // Native runs sampled, their samples pooled (pool_sampling_runs): a sample then stands for
    // period_seconds / runs of one run's time, and a run's quirks weigh 1/runs.
    int runs = 1;
    double seconds_per_sample() const { return runs > 0 ? period_seconds / runs : period_seconds; }
    long long samples = 0;        // all samples
    long long lost = 0;           // samples the kernel dropped (ring buffer full)
    double wall_seconds = 0;      // of a run (pooled: their mean)
    // self time (seconds: samples x seconds_per_sample); "(no symbol: FILE+0xENTRY)" for IPs without a
    // symbol (ENTRY their function's in FILE's unwind table; "(no symbol: FILE)" outside any, as
    // ProcessCode::name_at names them); a name that functions of two files share, "NAME (FILE)"
    // (function_names.hpp)
    std::map<std::string, FunctionTime> functions;
    std::map<int, SampledThread> threads;           // by thread id (pooled: the first run's)
    // code_addresses only: samples by (file as mapped, link-time address of the sampled instruction).
    std::map<std::pair<std::string, std::uint64_t>, long long> code_addresses;

    // call_stacks only:
    bool call_stacks = false;
    std::string unwind_error;                 // set when no stack could be unwound at all
    std::vector<std::string> stack_functions;  // the names SampledStack::functions index
    std::vector<std::string> stack_function_files;  // and the file each is in (empty: unknown)
    std::vector<SampledStack> stacks;          // one per sample
    long long stacks_incomplete = 0;
    long long stacks_scanned = 0;  // unwound past code without call-frame information by a stack scan
};

// Runs argv natively, sampling every `period_ns` of task-clock time in all its
// threads and children. Throws CommandNotFound like run_child.
SamplingResult sample_functions(const std::vector<std::string>& argv,
                                const std::vector<std::pair<std::string, std::string>>& env,
                                const SamplingOptions& options = {});

// How many native runs to sample for IP samples (not call stacks): a short program's time shares
// move from one run to the next (another tenant, the clock), so up to 3 runs of one that took
// `native_seconds` are pooled, as long as they add at most 20 s.
int sampled_runs_for(double native_seconds);

// Several runs' IP samples (each ok, same period, no call stacks) as one result: samples, functions,
// code addresses and losses summed, the wall time their mean, `runs` their number. Empty: not ok.
SamplingResult pool_sampling_runs(std::vector<SamplingResult> runs);

} // namespace roofline::measure
