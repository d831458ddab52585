// The CUDA backend's profiler (app/gpu_backend.hpp): a point per CUDA kernel from Nsight
// Compute (ncu run on the command, or a CSV recorded earlier) and, with offload, the
// whole-offload point from a run under the CUPTI injection library (tools/offload).
#pragma once

#include "app/gpu_measure.hpp"
#include "core/provenance.hpp"

#include <string>
#include <vector>

namespace roofline::app::cuda {

// app/gpu_measure.hpp's measure_gpu_kernels for a CUDA program: RequestError without ncu or the
// offload library; std::runtime_error when ncu wrote nothing, its CSV cannot be read or holds
// no kernel.
GpuMeasureResult profile_with_ncu(const GpuMeasureRequest& request, const ResultsStore* store,
                                  const GpuMeasureNotes& notes);

// Engine ncu; its runs; the CSV, summaries and `ncu` used.
void describe_ncu_profile(const GpuMeasureRequest& request, const std::string& ncu, Provenance& provenance);

// The ncu command line that measures `command` into `csv_path`, with the tensor-core counters
// among `device_metrics` (what `ncu --query-metrics` lists).
std::vector<std::string> ncu_command(const std::string& ncu, const std::string& csv_path,
                                     const std::vector<std::string>& command,
                                     const std::vector<std::string>& device_metrics = {});

} // namespace roofline::app::cuda
