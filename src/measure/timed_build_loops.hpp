// measure --loops with --counts-from: the loops found and counted in the counting build (a
// portable one Valgrind runs), timed by the samples of the timed build (-march=native, AVX-512,
// which Valgrind cannot run). Two builds' machine code differs, so a sample is given to a loop
// by SOURCE position: each build's loops are found in its own machine code and named by function
// and DWARF lines (function_loops, source_lines), and matched. The machine loops one source loop
// became (vector body, peel, remainder) are joined in each build: the loops of a function at
// one nesting depth whose lines overlap, in either build, are one source loop. A loop of one
// build with no partner in the other is left out of the loops, with a note.
#pragma once

#include "measure/program_loops.hpp"
#include "measure/sampling_profiler.hpp"

#include <string>

namespace roofline::measure {

// A marker region's loops in the other build: the sampled run sees no region, and the two builds'
// instructions differ, so a sample cannot take its instruction's share of runs inside the region
// (as program_loops gives it in one build). It takes its source loop's instead: of the counting
// build's runs of that loop's instructions (self: its own code; inclusive: its body), the share
// made while the region was open; a function's samples, the share of its instructions' runs.
struct OtherBuildRegion {
    const ProgramLoops* whole_loops = nullptr;     // the whole run's loops of the counting build (min_share 0)
    const RegionCounts* whole_program = nullptr;   // the whole run's "(program)" counts
};

// `counted`: program_loops of the counting build's counts with min_share 0 (the share cut is
// made here, on the source loops); the loops of other files (--loops-library: the same file in
// both runs) keep their samples by address. `counted_file` / `timed_file`: the two programs;
// `sampling`: the timed build's native runs with code addresses; `program`: the counting run's
// "(program)" counts. Its loops have no "with its calls" time (calls_timed false). With `region`
// (its whole_loops set), `counted` and `program` are a marker region's (program_loops with
// LoopScope::region) and the timed samples are given the region's shares.
ProgramLoops loops_timed_in_other_build(ProgramLoops counted, const std::string& counted_file,
                                        const std::string& timed_file, const SamplingResult& sampling,
                                        const RegionCounts& program, double min_share,
                                        const OtherBuildRegion& region = {});

} // namespace roofline::measure
