// From a GPU of the machine model to the Roofline of one precision: the fastest roof of
// that precision on top (the tensor cores where they have it), the others as ceilings;
// DRAM, L2 and L1/shared bandwidth; and the host-device bus as a roof of its own ("PCIe"),
// which binds only points that say how many bytes crossed it (an offload's throughput
// intensity: work per byte over the bus). Pure.
#pragma once

#include "core/gpu_model.hpp"
#include "core/roofline.hpp"

#include <string>

namespace roofline {

// `precision`: fp64, fp32, fp16, bf16, tf32, fp8, int8 (FLOP), or lop3, popc, int32 (OP), in any
// spelling core/precision reads ("dp" is fp64); the roofline's precision is the GPU spelling.
// `tensor` false leaves the tensor cores out (a code that does not use them).
// Throws std::invalid_argument naming what the GPU has when it has no roof of `precision`.
// `tensor_only`: the top roof must be a tensor roof of `precision` (work that ran on the tensor
// cores, which no FMA roof bounds); the FMA roofs are then ceilings below it.
Roofline gpu_roofline(const GpuModel& gpu, const std::string& precision, bool tensor = true, bool tensor_only = false);

// Whether the GPU has a measured tensor roof of `precision` (any spelling core/precision reads).
bool has_gpu_tensor_roof(const GpuModel& gpu, const std::string& precision);

// "NVIDIA H100 80GB HBM3 (GPU 0)".
std::string gpu_label(const GpuModel& gpu);

} // namespace roofline
