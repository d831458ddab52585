// The CUDA backend's benchmark (app/gpu_backend.hpp): runs roofline-gpubench (tools/gpubench,
// built when nvcc was found) and reads what it measured into the machine model's GPU, with the
// theoretical figures of core/gpu_specs beside each roof.
#pragma once

#include "app/gpu_bench.hpp"

#include <string>

namespace roofline::app::cuda {

// Where roofline-gpubench is (io/install_layout); empty with `why` set when this build has none.
std::string find_gpubench(std::string& why);

// Every run of the GPU benchmark has a time limit: a wedged driver blocks it in the kernel, and
// bench would hang before (the probe) or after the CPU's measuring. On expiry its process
// group gets SIGTERM, then SIGKILL, and the run fails with GpuRunTimedOut. The probe's limit is
// short (it only asks the driver for the device); a measuring run's is generous (its work is
// fixed per mode, --quick or not: the CPU's --time-budget does not change it). Not measured on a
// GPU here yet. ROOFLINE_GPUBENCH_TIME_LIMIT (seconds) sets every run's limit instead (a slow or
// shared GPU; the tests' stand-in that never ends).
enum class GpubenchRun { probe, quick, full };
inline constexpr double kGpuProbeLimitSeconds = 60;
inline constexpr double kGpuQuickLimitSeconds = 300;
inline constexpr double kGpuFullLimitSeconds = 1200;
inline constexpr const char* kGpubenchLimitVariable = "ROOFLINE_GPUBENCH_TIME_LIMIT";
// RequestError for an ROOFLINE_GPUBENCH_TIME_LIMIT that is not a number of seconds.
double gpubench_time_limit(GpubenchRun which);

// Checks that CUDA device `device` exists: throws std::runtime_error "no CUDA device ..." (the
// program's reason is on standard error), or GpuRunTimedOut.
void probe_with_gpubench(const std::string& program, int device);

// Measures device `device`. Roofs above the specification's limit (core/gpu_specs.hpp) and
// kernels whose self-check failed are left out of the model and said in `refused`.
GpuBenchResult measure_with_gpubench(const std::string& program, int device, bool quick);

} // namespace roofline::app::cuda
