// Measure (`roofline measure` on the CPU): the runs of a planned measurement. The engine's
// runs (run_measurement: native, then its counting run), then the call-timing run of the
// --region-function functions called few enough times, then the sampled run for --functions,
// --loops and the region functions left untimed. A request in; what each run gave out, with why
// a run gave nothing; nothing printed. A run after Ctrl-C / SIGTERM (measure::interrupt_signal)
// is not started. app/measure_plan plans the request; cli/measure_cmd.cpp says the notes.
// Then its points (measure_points): the regions', the region functions', the sampled functions' and
// the loops', with what was not placed and why as messages in order.
#pragma once

#include "core/roofline.hpp"
#include "measure/call_timer.hpp"
#include "measure/child_process.hpp"
#include "measure/engine.hpp"
#include "measure/function_regions.hpp"
#include "measure/program_loops.hpp"
#include "measure/sampling_profiler.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::app {

struct ProgramMeasureRequest {
    measure::MeasureRequest measure;  // the engine's request, planned
    bool functions = false;           // --functions: IP samples for each function's self time
    bool loops = false;               // --loops: samples with their code addresses
    bool region_functions = false;    // --region-function given
    long long max_timed_calls = 10000;
    double sample_period_us = 0;      // 0: chosen from the native run's length
    // Inside an MPI launch, each rank runs the program as often as the others (each run joins
    // the job): the runs then follow the options only, never what this rank counted.
    bool in_rank = false;
    bool rank_can_rerun = true;       // in a rank: whether a run after the first may start MPI
    // More than one run reads standard input: it is replayed, so that each reads the same.
    bool replay_stdin = false;
};

struct ProgramMeasurement {
    measure::StdinReplay stdin_replay;                // what was done so every run reads the same input
    measure::MeasureResult result;                   // the engine's
    std::optional<measure::CallTimingResult> timing;  // the call-timing run, when made
    std::optional<measure::SamplingResult> sampling;  // the sampled run, when it worked
    std::string sampling_error;                       // why the sampled run gave nothing
};

// Throws measure::CommandNotFound (and MeasureError) as run_measurement does.
ProgramMeasurement measure_program(const ProgramMeasureRequest& request);

// A function measured as a region (--region-function): its inclusive counts and inclusive time.
struct FunctionRegion {
    const measure::RegionCounts* counts;  // in the ProgramMeasurement's result
    measure::FunctionRegionTime time;
};

// Said while the points are made, in this order: a note (left out under -q) or a warning.
struct MeasureMessage {
    enum class Kind { note, warning };
    Kind kind;
    std::string text;
};

struct PointsRequest {
    bool functions = false;  // --functions: a point for each function with samples and enough FLOPs
    bool loops = false;      // --loops: a point per hot loop
    double min_share = 0.01;  // a fraction (--min-share / 100)
    long long max_timed_calls = 10000;
    // --loops with --counts-from: the program counted and the one timed (sampled), each its own
    // machine code: the loops matched by source lines (measure/timed_build_loops). Empty: the same program.
    std::string loops_counted_file, loops_timed_file;
};

struct MeasuredPoints {
    std::vector<Point> points;
    std::vector<FunctionRegion> function_regions;       // those that matched a function
    std::vector<measure::RegionCounts> shown_functions;  // --functions' table: those with min_share of something
    // --loops: the whole run's, or one per marker region (the instrument engine split the counts by region)
    std::vector<measure::ProgramLoops> loops;
    std::vector<MeasureMessage> messages;
};

// The points of `measured` (which must outlive the result: function_regions point into it).
MeasuredPoints measure_points(const ProgramMeasurement& measured, const PointsRequest& request);

} // namespace roofline::app
