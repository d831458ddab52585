// The loops of a measured program (measure --loops, issue 36): the Valgrind tool's
// per-instruction counts of the program's own code grouped by function (its ELF
// symbols), each function's loops found in its machine code (function_loops) and
// its counts split by them (loop_counts), and, from a sampled native run, each
// loop's samples (the instructions sampled in its blocks). A call made from a loop's
// body brings the called function's counts and samples to the loop's inclusive ones,
// shared by call counts (call_shares). Loops below a share of the program are left
// out; a point is made for each loop with samples. Inside a marker region: the region's
// counts by instruction, and each sample given the region's share of its instruction's runs.
#pragma once

#include "core/roofline.hpp"
#include "measure/engine.hpp"
#include "measure/function_list.hpp"
#include "measure/loop_counts.hpp"
#include "measure/sampling_profiler.hpp"

#include <string>
#include <vector>

namespace roofline::measure {

struct MeasuredLoop {
    std::string function;  // its function's symbol (demangled); a library's with its file: "f in libx.so"
    std::string object;    // the file holding it
    NamedLoop loop;        // its name, source lines, header, instructions
    int depth = 1;         // 1: outermost in its function
    std::string parent;    // the name of the loop it is nested in; empty: outermost
    LoopCounts counts;
    long long self_samples = 0;       // samples of its own blocks (sampled runs only)
    long long inclusive_samples = 0;  // of its whole body
    // The samples of the functions its body calls, each callee's (with what it calls) times the
    // call site's share of its calls (measure/call_shares): counts.calls' time.
    double call_samples = 0;
    // The function its body's calls did the most FLOPs in (inner loops' calls too), with those calls:
    // a loop calling a tiny function per element is held by the calls, not by its arithmetic.
    struct TopCall {
        std::string callee;
        std::string object;  // the file holding it
        double calls = 0, flops = 0, instructions = 0;
    };
    std::optional<TopCall> top_call;
    // Its calls that its counts with calls miss (indirect, or to a function not counted):
    // ProgramLoops::notes says them when the loop is kept.
    std::vector<std::string> notes;
};

// A function holding kept loops: all its counts (its loops' self counts and the code
// outside them add up to them) and its samples, for the point its loops are joined to.
struct MeasuredLoopFunction {
    std::string function;
    std::string object;
    RegionCounts counts;    // the whole function: its loops and the code outside them
    RegionCounts outside;   // its code in no loop
    std::size_t loops = 0;  // loops found in it
    long long samples = 0;          // samples of any of its code (sampled runs only)
    long long outside_samples = 0;  // of its code in no loop
};

struct ProgramLoops {
    std::vector<MeasuredLoopFunction> functions;  // those with kept loops, in the order of `loops`
    std::vector<MeasuredLoop> loops;  // by function (most FLOPs first), each function's in its forest's order
    std::size_t loops_found = 0;      // before the share cut
    // What the kept loops hold of the program (of its FLOPs and sampled time) in their own code
    // (self counts: no FLOP counted twice) and what the cut leaves out, for the line under the table.
    FunctionListShare kept_share;
    // Incomplete graphs, irreducible cycles, counts that did not add up, recursion, shared callees: of
    // the functions whose loops are listed (and what their calls reach) or that hold `min_share` of the
    // program; the others' counted in one last note.
    std::vector<std::string> notes;
    bool sampled = false;             // samples were given (loops then have their time)
    // Its loops' calls have their callees' time (false: timed in another build than counted,
    // measure/timed_build_loops, and no point "with its calls" is made).
    bool calls_timed = true;
    std::vector<std::string> within_functions;  // --region-function's: only the loops run inside them
    std::string region;                         // a marker region's: only the loops run while it was open
    // The cache simulation's last level and what the program (or `region`) touched, for each loop
    // point's note on data near the LLC's size (measure/merge apply_llc_context): the tool counts
    // distinct lines per marker region and for the program, not per loop.
    RegionCounts cache_scope;
    double sample_period_seconds = 0;
    int sampled_runs = 1;  // native runs whose samples were pooled: a sample is period / runs of one run's time
    double seconds_per_sample() const { return sampled_runs > 0 ? sample_period_seconds / sampled_runs : 0; }
};

// What the loops are measured over: the whole run, only inside the calls of --region-function's
// functions (`within_functions`, the names it matched), or only while a marker region was open.
struct LoopScope {
    std::vector<std::string> within_functions;
    // A marker region: its name, and the whole run's counts its own are part of. The sampled run
    // does not see regions: a sample of an instruction counts for the region by the share of the
    // instruction's runs made inside it (of its function's instructions, in a file not counted
    // instruction by instruction; of the program's, for the region's share of all samples).
    std::string region;
    const std::vector<InstructionCounts>* whole_instructions = nullptr;
    const std::vector<RegionCounts>* whole_functions = nullptr;
    const RegionCounts* whole_program = nullptr;
};

// `instructions`: the tool's per-instruction counts; `functions`: its per-function
// counts (each function's loops' self counts and code outside them must add up to
// them: said in a note where they do not); `program`: the "(program)" counts the
// share is of; `sampling`: a native run sampled with code addresses, or null. A loop
// is kept when its inclusive FLOPs, instructions or samples are at least `min_share`
// (a fraction) of the program's, or when one of its inner loops is. With `scope.within_functions`
// (the names --region-function matched), only the loops run inside their calls: those of the
// functions themselves and of what they call, a function called from outside them too holding
// the share of its calls made inside (measure/call_shares: by call counts). With `scope.region`,
// `instructions`, `functions` and `program` are the region's, and the samples its share.
ProgramLoops program_loops(const std::vector<InstructionCounts>& instructions,
                           const std::vector<RegionCounts>& functions, const RegionCounts& program,
                           const SamplingResult* sampling, double min_share, const LoopScope& scope = {});

// A point per kept loop with samples and FLOPs of its own: its self counts, its self
// samples' CPU time (one thread's), in a series per function, named "FUNCTION: LOOP" (inside a
// marker region "REGION: FUNCTION: LOOP", the series "REGION: FUNCTION");
// each series begins with its function's point, named "FUNCTION" (all its counts and
// samples; details loop_function_loops, loop_outside_*, loop_unsampled_flops: the self
// FLOPs of its kept loops without samples, so without a point), the point its loops split.
// A loop whose calls brought FLOPs has a second point, "FUNCTION: LOOP with its calls":
// its inclusive counts (inner loops and calls) and time (its samples and its calls'
// share of their callees'), details loop_with_calls 1 and loop_call_flops; it is not
// one of the parts its function's point splits into.
std::vector<Point> loop_points(const ProgramLoops& loops);

} // namespace roofline::measure
