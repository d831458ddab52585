// Points for GPU kernels from Nsight Compute's metrics: FLOPs per precision from the SASS
// instruction counters, bytes at L1, L2 and DRAM, the kernel's duration. The metric names and
// the FLOPs per instruction are those of Nsight Compute's own hierarchical roofline sections
// (SpeedOfLight_Hierarchical*RooflineChart): an FMA counts 2, and the half-precision
// instructions work on pairs (HADD2, HMUL2: 2; HFMA2: 4). Tensor-core FLOPs come from the
// sm__ops_path_tensor_src_*.sum counters when the metrics include them; when they do not, the
// point says its tensor work (if any) was not counted.
#pragma once

#include "core/gpu_model.hpp"
#include "core/roofline.hpp"

#include <string>
#include <vector>

namespace roofline {

// One metric of one kernel launch, in base units (bytes, nanoseconds, instructions).
struct GpuKernelMetric {
    std::string launch;    // ncu's launch ID: one per kernel launch profiled
    std::string kernel;    // the kernel's (demangled) name
    std::string device;    // the device's index
    std::string metric;    // e.g. "dram__bytes.sum"
    double value = 0;
    bool available = true; // false: ncu printed "n/a" (a counter this device does not have)
};

// The metrics `ncu --metrics` is asked for: the duration, the SASS FLOP counters and the
// bytes per level, and the tensor-core counters among `device_metrics` (the names
// `ncu --query-metrics` lists for the device, without suffix; empty: none asked).
std::vector<std::string> ncu_roofline_metrics(const std::vector<std::string>& device_metrics = {});

// Every metric the points read, the tensor-core counters and the tensor pipe's instruction
// count included: what a CSV recorded by hand on a GPU with tensor cores should hold.
std::vector<std::string> ncu_all_roofline_metrics();

// The sm__ops_path_tensor* metrics in `metrics` that the points neither count nor knowingly
// leave out (the per-instruction and per-sparsity splits): tensor work under a name not known
// here, which a newer ncu or GPU may bring. Each name once, in the order first seen.
std::vector<std::string> unknown_tensor_metrics(const std::vector<GpuKernelMetric>& metrics);

// A point per kernel name (its launches summed: work, bytes and time), in the order the
// kernels first ran; details: launches, flops_fp64/fp32/fp16, flops_tensor and
// flops_tensor_<format> (each tensor operation once), tensor_instructions, dram read and
// write bytes, device, each only where ncu recorded its metrics (a figure not measured is
// absent, never 0; likewise a level's bytes); tensor_counters_unavailable (tensor counters ncu printed n/a),
// tensor_not_counted (no tensor operation counter recorded, and the pipe not recorded idle),
// tensor_not_recorded (neither the operations nor the pipe's instructions recorded: any tensor
// work is missing). A kernel whose tensor pipe ran without any of its operations counted (no
// counters, counters n/a, or a format under an unknown name), or with no FLOPs counted and
// its tensor work not recorded, has work_counted false (no point can be placed for it). Throws std::runtime_error when a launch lacks its duration (not a roofline run).
std::vector<Point> gpu_kernel_points(const std::vector<GpuKernelMetric>& metrics);

// A CUDA kernel's FLOPs of one precision: on the FMA (vector) units and on the tensor cores.
struct GpuPrecisionFlops {
    std::string precision;  // "fp64", "fp32", "fp16", "bf16", "tf32", "fp8"
    double fma = 0;
    double tensor = 0;
};
// The precisions a point's FLOPs ran in (details flops_fp64/fp32/fp16 and flops_tensor_<format>),
// most FLOPs first; none for a point that is not a CUDA kernel's (source ncu).
std::vector<GpuPrecisionFlops> gpu_flops_by_precision(const Point& p);

// The precision most of the CUDA kernels' FLOPs (points from gpu_kernel_points) ran in:
// "fp64", "fp32", "fp16", or a tensor format ("fp16", "bf16", "tf32", "fp8", "fp64"), which a
// GPU roofline of that precision tops with its tensor roof; empty when no point has FLOPs by
// precision. A cuBLAS HGEMM is judged against the fp16 tensor roof, not the fp64 one. A
// whole-offload point beside kernels is left out (it repeats their FLOPs); alone, its own.
std::string dominant_gpu_precision(const std::vector<Point>& points);

// That precision, and whether any of its FLOPs ran on the tensor cores: such work is judged only
// on the tensor roof of that precision (an FMA roof does not bound it, another precision's roof
// means nothing for it).
struct GpuWork {
    std::string precision;  // empty: no FLOPs by precision
    bool tensor = false;
};
GpuWork dominant_gpu_work(const std::vector<Point>& points);

// The points grouped by each one's own dominant precision and whether it ran on the tensor
// cores (dominant_gpu_work of that point alone), groups in the order their first point comes;
// points without FLOPs by precision (not CUDA kernels, or none counted) join the group of the
// set's dominant one. So a DGEMM is judged on the fp64 tensor roof and an SGEMM beside it on the
// fp32 FMA roof. The whole-offload point (all kernels together): without the GPU, the group of
// its own dominant precision (its kernels' FLOPs, each once); with `gpu`, the group of the
// highest roof its work could use there (core/offload_point's offload_compute_roof), which
// its mix of precisions can never pass.
struct PrecisionGroup {
    std::string precision;  // empty: no point of the set has FLOPs by precision
    bool tensor = false;    // on the tensor cores: only that precision's tensor roof judges them
    std::vector<Point> points;
};
std::vector<PrecisionGroup> group_by_gpu_precision(const std::vector<Point>& points);
std::vector<PrecisionGroup> group_by_gpu_precision(const std::vector<Point>& points, const GpuModel& gpu);

} // namespace roofline
