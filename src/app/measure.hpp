// Measure (`roofline measure` on the CPU): the runs of a planned measurement. The engine's
// runs (run_measurement: native, then its counting run), then the call-timing run of the
// --region-function functions called few enough times, then the sampled run for --functions,
// --loops and the region functions left untimed. A request in; what each run gave out, with why
// a run gave nothing; nothing printed. A run after Ctrl-C / SIGTERM (measure::interrupt_signal)
// is not started. cli/measure_cmd.cpp plans the request, says the notes and makes the points.
// (Issue 34: the rest of measure's orchestration is to follow here.)
#pragma once

#include "measure/call_timer.hpp"
#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <optional>
#include <string>

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
};

struct ProgramMeasurement {
    measure::MeasureResult result;                   // the engine's
    std::optional<measure::CallTimingResult> timing;  // the call-timing run, when made
    std::optional<measure::SamplingResult> sampling;  // the sampled run, when it worked
    std::string sampling_error;                       // why the sampled run gave nothing
};

// Throws measure::CommandNotFound (and MeasureError) as run_measurement does.
ProgramMeasurement measure_program(const ProgramMeasureRequest& request);

} // namespace roofline::app
