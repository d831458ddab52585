// GPU measure (`measure --engine ncu`, `--ncu-csv`): a point per GPU kernel from the vendor's
// profiler, through the vendor's backend (app/gpu_backend.hpp); for CUDA, Nsight Compute (ncu
// run on the command, or a CSV recorded earlier) and, with offload, the whole-offload point from
// a run under the CUPTI injection library (app/gpu/cuda/ncu_profile). A request in; the points
// out, with the notes said before each run through a callback. Nothing printed or stored:
// cli/gpu_measure.cpp renders the table and delivers the points.
#pragma once

#include "app/request_error.hpp"
#include "core/gpu_model.hpp"
#include "core/offload_point.hpp"
#include "core/provenance.hpp"
#include "core/roofline.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {
class ResultsStore;
}

namespace roofline::app {

struct GpuMeasureRequest {
    std::vector<std::string> command;  // the CUDA program and its arguments; empty with ncu_csv
    std::string ncu_csv;               // read this CSV instead of running ncu
    bool offload = false;              // also run the program under CUPTI: the whole-offload point
    std::vector<std::string> offload_summaries;  // with ncu_csv: that run's summaries (one per process)
    GpuVendor vendor = GpuVendor::nvidia;        // whose backend profiles it
};

// Said before a run starts (or instead of a figure that will be missing).
struct GpuMeasureNote {
    enum class Kind {
        cupti_run,           // run 1 of 2, under the CUPTI library `text`
        ncu_run,             // run 2 of 2, under ncu
        no_device_metrics,   // ncu --query-metrics listed nothing: tensor-core work not asked for
    };
    Kind kind;
    std::string text;
};
using GpuMeasureNotes = std::function<void(const GpuMeasureNote&)>;

struct GpuMeasureResult {
    std::vector<Point> kernels;           // one per CUDA kernel (source ncu)
    std::string from;                     // where they come from: "ncu", or the CSV's path
    std::string ncu;                      // the ncu that ran ("" with a CSV)
    std::optional<OffloadPoint> offload;  // the whole-offload point, when asked for and made
    std::string offload_error;            // why it was asked for and not made
    // sm__ops_path_tensor* metrics of the CSV not known here: tensor work they count is in no point
    std::vector<std::string> unknown_tensor_metrics;
    // What the CSV's reader warns of ("line N: ..."): a metric not read whose name is close to
    // one the points read (a misspelling?), ncu's ==ERROR== lines
    std::vector<std::string> csv_warnings;
    int program_code = 0;                 // the program's exit code under ncu, when it failed
    // Nothing measured: the program was interrupted (128 + the signal) or failed under CUPTI
    // (its exit code; failed_under_cupti), and ncu was not run.
    std::optional<int> ended_early;
    bool failed_under_cupti = false;
};

// Runs the request through its vendor's backend. `store` (may be null): the latest stored machine model's GPU gives the
// measured bus roofs the whole-offload point is checked against. RequestError without ncu or
// the offload library (or a backend for the vendor); std::runtime_error when ncu wrote nothing, its CSV cannot be read or
// holds no kernel.
GpuMeasureResult measure_gpu_kernels(const GpuMeasureRequest& request, const ResultsStore* store,
                                     const GpuMeasureNotes& notes);

// How the points were measured (engine ncu; its runs; the CSV, summaries and ncu used), into
// a run's provenance made for `request.command`, by the vendor's backend.
void describe_gpu_measure(const GpuMeasureRequest& request, const GpuMeasureResult& result, Provenance& provenance);

} // namespace roofline::app
