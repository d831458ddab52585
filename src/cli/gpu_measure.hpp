// measure --engine ncu: a point per CUDA kernel from Nsight Compute (ncu run on the command,
// or a CSV recorded earlier with --ncu-csv), written and stored as measure's points are; with
// --offload, also the whole-offload point from a run under the CUPTI injection library. The
// runs are app/gpu_measure's; here the table, the notes and where the points go.
#pragma once

#include "core/gpu_model.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

struct GpuMeasureRequest {
    std::vector<std::string> command;  // the CUDA program and its arguments; empty with ncu_csv
    std::string ncu_csv;               // read this CSV instead of running ncu
    std::string output;                // -o
    std::string db;
    bool no_store = false;
    bool quiet = false;
    bool offload = false;              // also run the program under CUPTI: the whole-offload point
    std::vector<std::string> offload_summaries;  // with ncu_csv: that run's summaries (one per process)
    GpuVendor vendor = GpuVendor::nvidia;        // whose backend: the engine's (measure's registry)
};

// Returns the exit code: the program's when ncu ran it and it failed, 1 when no destination
// took the points. Throws UsageError without ncu, std::runtime_error for a CSV it cannot read.
int measure_gpu_kernels(const GpuMeasureRequest& request);

} // namespace roofline::cli
