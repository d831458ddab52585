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

// Checks that CUDA device `device` exists before minutes of CPU measuring: throws
// std::runtime_error "no CUDA device ..." (the program's reason is on standard error).
void probe_gpu(const std::string& program, int device);

// Measures device `device` (`quick`: fewer repetitions and shorter kernels).
// Roofs above the specification's limit (core/gpu_specs.hpp) are left out of the model and
// said in `refused`, one line each naming the kernel.
GpuModel measure_gpu(const std::string& program, int device, bool quick, std::vector<std::string>& refused);

} // namespace roofline::cli
