// bench --gpu: the words for a GPU benchmark run that ran out of time (app/gpu_bench runs it,
// through the vendor's backend, app/gpu_backend).
#pragma once

#include "app/gpu_bench.hpp"

#include <string>

namespace roofline::cli {

// "--gpu: the GPU benchmark's probe (PROGRAM --probe) did not end within 60.0 s: its process
// group was stopped (SIGTERM); ...; nothing was measured", and for a measuring run "...; no GPU
// figures".
std::string gpu_run_timed_out_text(const app::GpuRunTimedOut& timed_out);

} // namespace roofline::cli
