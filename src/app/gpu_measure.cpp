#include "app/gpu_measure.hpp"

#include "app/gpu_backend.hpp"
#include "io/results_store.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline::app {
namespace {

// The whole offload on the GPU it ran on, of the latest stored machine model (bench --gpu):
// which compute and bus roofs judge it and what they allow; why not, where they cannot.
void judge_on_stored_gpu(OffloadPoint& offload, const ResultsStore* store) {
    if (!store) {
        offload.not_judged = "no results store to take a machine model from (report --gpu N judges it on one)";
        return;
    }
    try {
        const auto model = store->latest_machine();
        const auto device = offload.point.details.find("device");
        const int index = device == offload.point.details.end() ? 0 : static_cast<int>(device->second);
        const GpuModel* gpu = nullptr;
        if (model)
            for (const auto& g : model->gpus)
                if (g.index == index) gpu = &g;
        if (!gpu) {
            offload.not_judged = fmt::format("{} (bench --gpu {} measures its roofs)",
                                             model ? fmt::format("the latest stored machine model has no GPU {}", index)
                                                   : std::string("the results store holds no machine model"),
                                             index);
            return;
        }
        offload.judgement = judge_whole_offload(offload.point, *gpu, "the latest stored machine model");
    } catch (const std::exception& e) {  // a model that cannot be read, or no roof its work could use
        offload.not_judged = e.what();
    }
}

} // namespace

GpuMeasureResult measure_gpu_kernels(const GpuMeasureRequest& request, const ResultsStore* store,
                                     const GpuMeasureNotes& notes) {
    GpuMeasureResult result = gpu_backend(request.vendor).profile(request, store, notes);
    if (result.offload) judge_on_stored_gpu(*result.offload, store);
    return result;
}

void describe_gpu_measure(const GpuMeasureRequest& request, const GpuMeasureResult& result, Provenance& provenance) {
    gpu_backend(request.vendor).describe_profile(request, result, provenance);
}

} // namespace roofline::app
