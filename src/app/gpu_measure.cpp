#include "app/gpu_measure.hpp"

#include "app/gpu_backend.hpp"

namespace roofline::app {

GpuMeasureResult measure_gpu_kernels(const GpuMeasureRequest& request, const ResultsStore* store,
                                     const GpuMeasureNotes& notes) {
    return gpu_backend(request.vendor).profile(request, store, notes);
}

void describe_gpu_measure(const GpuMeasureRequest& request, const GpuMeasureResult& result, Provenance& provenance) {
    gpu_backend(request.vendor).describe_profile(request, result, provenance);
}

} // namespace roofline::app
