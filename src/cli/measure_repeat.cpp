#include "cli/measure_repeat.hpp"

#include "cli/usage_error.hpp"
#include "measure/native_repeats.hpp"

#include <fmt/core.h>

namespace roofline::cli {

void add_repeat_options(CLI::App* cmd, RepeatArgs& args) {
    cmd->add_option("--repeat", args.repeat,
                    fmt::format("Time the program K times natively (after a warm-up run: --warmup); each point's "
                                "seconds is its fastest run, details keep the runs, median, slowest and spread "
                                "(slowest / fastest - 1) that compare and history judge changes against. Default: "
                                "a program whose first run takes under {:.0f} s gets a warm-up and up to {} timed "
                                "runs within {:.0f} s; a longer one is timed once. The counting run (Valgrind) "
                                "and call timing or sampling run once",
                                kAutoRepeatBudgetSeconds / 3, kAutoTimedRuns, kAutoRepeatBudgetSeconds))
        ->check(CLI::Range(1, kMaxRepeat))
        ->type_name("K");
    cmd->add_option("--warmup", args.warmup,
                    "Runs before the timed ones, left out of the time (page cache, page faults, a clock still "
                    "ramping up): default 1 when more than one run is timed, else 0; 0 times the cold first run "
                    "too. The first warm-up's time is kept in details.seconds_warmup")
        ->check(CLI::Range(0, kMaxRepeat))
        ->type_name("N");
    cmd->add_flag("--cold", args.cold,
                  fmt::format("Empty the caches before every native run (the first and the warm-ups too): "
                              "roofline writes and reads a buffer of twice the largest cache's size (at most {} "
                              "MiB), so no run finds in the cache the code, libraries or file data the run before "
                              "it left. Each point's time is then a cold-cache time; the provenance says 'cold'. "
                              "For the CPU engines' timed runs; not with --times (no native run) or --engine ncu",
                              kColdFlushMaxBytes >> 20));
}

RepeatRequest repeat_request(const RepeatArgs& args, const RepeatContext& context,
                                      std::vector<std::string>& notes) {
    const bool asked = args.repeat || args.warmup;
    if (context.times) {
        if (asked)
            throw UsageError("--repeat and --warmup time the native run, which --times replaces: give them to the "
                             "'--engine time' run that wrote the times (its runs and spread come along)");
        if (args.cold)
            throw UsageError("--cold empties the caches before the native runs, which --times replaces: give it to "
                             "the '--engine time' run that wrote the times");
        return {};
    }
    const int repeat = args.repeat.value_or(0), warmup = args.warmup.value_or(-1);
    RepeatRequest request{repeat, warmup};
    if (context.mpi) {
        if (!context.rank_rerun && (repeat > 1 || warmup > 0))
            throw UsageError(fmt::format("under {} each rank may start the program only once: --repeat and "
                                         "--warmup need a launcher that lets it start the program again",
                                         context.launcher));
        // Every rank must run the program as often as the others, and the automatic choice
        // depends on each rank's own first run.
        if (!args.repeat) {
            request.timed_runs = 1;
            if (!args.warmup) request.warmup_runs = 0;
            notes.push_back("inside an MPI launch the native run is not repeated unless --repeat K asks (the ranks "
                            "must all run it as often)");
        }
    } else if (!args.repeat && !context.instrument && measure::stdin_is_stream()) {
        // Repeating would first read all of a pipe (it may never end); asked for, it is done.
        request.timed_runs = 1;
        if (!args.warmup) request.warmup_runs = 0;
        notes.push_back("standard input is a pipe: the native run is timed once (--repeat K reads it to its end "
                        "first and gives every run the same input)");
    }
    return request;
}

bool may_repeat(const RepeatRequest& request) {
    return request.timed_runs != 1 || request.warmup_runs > 0;
}

} // namespace roofline::cli
