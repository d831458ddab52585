// bench --gpu: runs roofline-gpubench (tools/gpubench, built when nvcc was found) and
// reads what it measured into the machine model, with the theoretical figures of
// core/gpu_specs beside each roof.
#pragma once

#include "core/gpu_model.hpp"

#include <string>

namespace roofline::cli {

// The program, found next to roofline (io/install_layout); UsageError saying how to get
// it when this build has none.
std::string gpubench_program();

// Checks that CUDA device `device` exists before minutes of CPU measuring: throws
// std::runtime_error "no CUDA device ..." (the program's reason is on standard error).
void probe_gpu(const std::string& program, int device);

// Measures device `device` (`quick`: fewer repetitions and shorter kernels).
GpuModel measure_gpu(const std::string& program, int device, bool quick);

} // namespace roofline::cli
