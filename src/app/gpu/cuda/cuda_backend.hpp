// NVIDIA's GPUs through CUDA: the first GPU backend (app/gpu_backend.hpp). Its benchmark is
// roofline-gpubench (gpubench_run), its profiler Nsight Compute with the CUPTI offload library
// (ncu_profile).
#pragma once

#include "app/gpu_backend.hpp"

#include <memory>

namespace roofline::app::cuda {

std::unique_ptr<GpuBackend> make_cuda_backend();

} // namespace roofline::app::cuda
