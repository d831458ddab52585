// measure --repeat K, --warmup N and --cold: what this run allows of them (an MPI rank that may
// start its program once, --times, a piped standard input). cli/measure_repeat defines the options.
#pragma once

#include "measure/engine.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::app {

struct RepeatOptions {
    std::optional<int> repeat;  // unset: automatic
    std::optional<int> warmup;  // unset: 1 when more than one run is timed, else 0
    bool cold = false;          // --cold: the caches emptied before every native run
};

struct RepeatContext {
    bool times = false;       // --times: no native run
    bool mpi = false;         // inside an MPI launch
    bool rank_rerun = true;   // the rank may start the program more than once
    std::string launcher;     // "mpiexec", for messages
    bool instrument = false;  // the engine copies a piped standard input anyway
};

// The request for the engines; `notes` gets what was decided and why. Throws RequestError for
// what cannot be done (--repeat or --cold with --times; more than one run where a rank may
// start once). --cold's buffer size is the caller's (cold_flush_bytes of the checked caches).
RepeatRequest repeat_request(const RepeatOptions& options, const RepeatContext& context,
                                      std::vector<std::string>& notes);

// Whether the native run may be repeated (standard input must then be replayed for every run).
bool may_repeat(const RepeatRequest& request);

} // namespace roofline::app
