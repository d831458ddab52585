// measure's check for AVX-512 (EVEX) code before anything runs: the program (or
// --counts-from's program) and the libraries it loads are scanned when the
// instrument engine will run them under Valgrind, which cannot decode EVEX.
#pragma once

#include "measure/engine.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::cli {

struct EvexCheck {
    std::vector<std::string> notes;     // said with the run's notes
    std::vector<std::string> warnings;  // run-time dispatch: the two runs may execute different code
    std::map<std::string, std::string> provenance;  // isa_timed, isa_counted, evex_scan
};

// Scans the program run under Valgrind (`counts_from`, or `timed` when that is empty) and,
// when it is another, `timed` (the natively timed program) for dispatch. Throws
// EvexRefusal with the whole message when the counted program's code cannot run
// under Valgrind. `perf_unavailable`: why auto did not pick perf (empty if unknown).
EvexCheck check_evex_before_running(const std::string& timed, const std::string& counts_from,
                                    const std::string& perf_unavailable);

// For measure: when the instrument engine will run (`instrument_needed`: --functions,
// --region-function or --times ask for it; else as the engine resolves), checks the
// program it runs. --counts-from PROGRAM (`counts_from`) is checked for its program and
// set on the request (instrument engine; a usage error with --engine perf or time).
// nullopt when the instrument engine does not run.
std::optional<EvexCheck> guard_evex(measure::MeasureRequest& request, const std::string& counts_from,
                                    bool instrument_needed);

struct EvexRefusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace roofline::cli
