#include "cli/measure_repeat.hpp"

#include "cli/value_check.hpp"

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
        ->check(whole_number_range(1, kMaxRepeat))
        ->type_name("K");
    cmd->add_option("--warmup", args.warmup,
                    "Runs before the timed ones, left out of the time (page cache, page faults, a clock still "
                    "ramping up): default 1 when more than one run is timed, else 0; 0 times the cold first run "
                    "too. The first warm-up's time is kept in details.seconds_warmup")
        ->check(whole_number_range(0, kMaxRepeat))
        ->type_name("N");
    cmd->add_flag("--cold", args.cold,
                  fmt::format("Empty the caches before every native run (the first and the warm-ups too): "
                              "roofline writes and reads a buffer of twice the largest cache's size (at most {} "
                              "MiB), so no run finds in the cache the code, libraries or file data the run before "
                              "it left. Each point's time is then a cold-cache time; the provenance says 'cold'. "
                              "For the CPU engines' timed runs; not with --times (no native run) or --engine ncu",
                              kColdFlushMaxBytes >> 20));
}

} // namespace roofline::cli
