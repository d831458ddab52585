// bench --gpu: runs roofline-gpubench (tools/gpubench, built when nvcc was found) and
// reads what it measured into the machine model, with the theoretical figures of
// core/gpu_specs beside each roof.
#pragma once

#include "core/gpu_model.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

// The program, found next to roofline (io/install_layout); UsageError saying how to get
// it when this build has none.
std::string gpubench_program();

// Every run of the GPU benchmark has a time limit: a wedged driver blocks it in the kernel, and
// bench would hang before (the probe) or after the CPU's measuring. On expiry its process
// group gets SIGTERM, then SIGKILL, and the run fails saying so. The probe's limit is short
// (it only asks the driver for the device); a measuring run's is generous (its work is fixed
// per mode, --quick or not: the CPU's --time-budget does not change it). Not measured on a GPU
// here yet. ROOFLINE_GPUBENCH_TIME_LIMIT (seconds) sets every run's limit instead (a slow or
// shared GPU; the tests' stand-in that never ends).
enum class GpuBenchRun { probe, quick, full };
inline constexpr double kGpuProbeLimitSeconds = 60;
inline constexpr double kGpuQuickLimitSeconds = 300;
inline constexpr double kGpuFullLimitSeconds = 1200;
// UsageError for an ROOFLINE_GPUBENCH_TIME_LIMIT that is not a number of seconds.
double gpubench_time_limit(GpuBenchRun which);

// Checks that CUDA device `device` exists before minutes of CPU measuring: throws
// std::runtime_error "no CUDA device ..." (the program's reason is on standard error), or
// saying that the probe did not end within its limit.
void probe_gpu(const std::string& program, int device);

// Measures device `device` (`quick`: fewer repetitions and shorter kernels).
// Roofs above the specification's limit (core/gpu_specs.hpp) are left out of the model and
// said in `refused`, one line each naming the kernel.
GpuModel measure_gpu(const std::string& program, int device, bool quick, std::vector<std::string>& refused);

} // namespace roofline::cli
