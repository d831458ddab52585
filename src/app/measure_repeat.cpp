#include "app/measure_repeat.hpp"

#include "app/request_error.hpp"
#include "measure/native_repeats.hpp"

#include <fmt/core.h>

namespace roofline::app {

RepeatRequest repeat_request(const RepeatOptions& options, const RepeatContext& context,
                             std::vector<std::string>& notes) {
    const bool asked = options.repeat || options.warmup;
    if (context.times) {
        if (asked)
            throw RequestError("--repeat and --warmup time the native run, which --times replaces: give them to the "
                               "'--engine time' run that wrote the times (its runs and spread come along)");
        if (options.cold)
            throw RequestError("--cold empties the caches before the native runs, which --times replaces: give it to "
                               "the '--engine time' run that wrote the times");
        return {};
    }
    const int repeat = options.repeat.value_or(0), warmup = options.warmup.value_or(-1);
    RepeatRequest request{repeat, warmup};
    if (context.mpi) {
        if (!context.rank_rerun && (repeat > 1 || warmup > 0))
            throw RequestError(fmt::format("under {} each rank may start the program only once: --repeat and "
                                           "--warmup need a launcher that lets it start the program again",
                                           context.launcher));
        // Every rank must run the program as often as the others, and the automatic choice
        // depends on each rank's own first run.
        if (!options.repeat) {
            request.timed_runs = 1;
            if (!options.warmup) request.warmup_runs = 0;
            notes.push_back("inside an MPI launch the native run is not repeated unless --repeat K asks (the ranks "
                            "must all run it as often)");
        }
    } else if (!options.repeat && !context.instrument && measure::stdin_is_stream()) {
        // Repeating would first read all of a pipe (it may never end); asked for, it is done.
        request.timed_runs = 1;
        if (!options.warmup) request.warmup_runs = 0;
        notes.push_back("standard input is a pipe: the native run is timed once (--repeat K reads it to its end "
                        "first and gives every run the same input)");
    }
    return request;
}

bool may_repeat(const RepeatRequest& request) {
    return request.timed_runs != 1 || request.warmup_runs > 0;
}

} // namespace roofline::app
