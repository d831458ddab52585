// The runs of a CPU measurement, in order; see app/measure.hpp.
#include "app/measure.hpp"

#include "measure/child_process.hpp"
#include "measure/function_regions.hpp"

#include <algorithm>
#include <cstdint>

namespace roofline::app {

ProgramMeasurement measure_program(const ProgramMeasureRequest& request) {
    const auto interrupted = [] { return measure::interrupt_signal() != 0; };
    const auto& argv = request.measure.argv;
    const auto& env = request.measure.env;
    ProgramMeasurement m;
    auto& result = m.result;
    result = measure::run_measurement(request.measure);
    const auto to_time = measure::functions_to_time(result.counts, request.max_timed_calls);
    const bool rerun = request.rank_can_rerun;
    if (!interrupted() && (request.in_rank ? rerun && request.region_functions : !to_time.empty())) {
        m.timing = measure::time_function_calls(argv, env, to_time);
        measure::account_stops_by_wall_time(*m.timing, result.wall_seconds);
    }
    // Sampling: IP samples for --functions (self time); call stacks too for region functions whose calls
    // were not timed (called too often, or too short), for their inclusive time.
    const bool untimed_region_function = std::any_of(result.counts.begin(), result.counts.end(), [&](const auto& c) {
        return !measure::function_of_region(c.name).empty() && !c.matched.empty() &&
               measure::function_region_time(c, result.functions, m.timing ? &*m.timing : nullptr, nullptr,
                                             request.max_timed_calls)
                       .source == measure::TimeSource::unknown;
    });
    // (In a rank: whenever functions are asked for, as the ranks' runs must not depend on their counts.)
    const bool call_stacks = request.in_rank ? request.region_functions : untimed_region_function;
    const bool sample = request.functions || request.loops || call_stacks;
    if (!interrupted() && (request.in_rank ? rerun && sample : sample)) {
        auto options = measure::SamplingOptions::for_run(call_stacks, result.wall_seconds);
        options.code_addresses = request.loops;
        if (request.sample_period_us > 0) options.period_ns = static_cast<std::uint64_t>(request.sample_period_us * 1e3);
        auto s = measure::sample_functions(argv, env, options);
        if (s.ok)
            m.sampling = std::move(s);
        else
            m.sampling_error = s.error;
    }
    return m;
}

} // namespace roofline::app
