#include "app/gpu/cuda/cuda_backend.hpp"

#include "app/gpu/cuda/gpubench_run.hpp"
#include "app/gpu/cuda/ncu_profile.hpp"

#include <fmt/core.h>

namespace roofline::app::cuda {
namespace {

class CudaBackend final : public GpuBackend {
public:
    GpuVendor vendor() const override { return GpuVendor::nvidia; }
    std::string toolkit() const override { return "CUDA"; }
    std::string benchmark_missing() const override {
        std::string why;
        return find_gpubench(why).empty() ? why : std::string{};
    }
    void probe(int device) const override { probe_with_gpubench(gpubench(), device); }
    GpuBenchResult bench(int device, bool quick) const override {
        return measure_with_gpubench(gpubench(), device, quick);
    }
    GpuMeasureResult profile(const GpuMeasureRequest& request, const ResultsStore* store,
                             const GpuMeasureNotes& notes) const override {
        return profile_with_ncu(request, store, notes);
    }
    void describe_profile(const GpuMeasureRequest& request, const GpuMeasureResult& result,
                          Provenance& provenance) const override {
        describe_ncu_profile(request, result.ncu, provenance);
    }

private:
    // RequestError saying how to get it when this build has none.
    static std::string gpubench() {
        std::string why;
        std::string path = find_gpubench(why);
        if (path.empty()) throw RequestError(fmt::format("--gpu: {}", why));
        return path;
    }
};

} // namespace

std::unique_ptr<GpuBackend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

} // namespace roofline::app::cuda
