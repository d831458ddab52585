// A GPU vendor's tools behind one interface (issue 34): whether they are on this machine, its
// benchmark (bench --gpu: the roofs), its profiler (measure --engine ncu: a point per kernel,
// and with offload the whole-offload point). The use cases (app/gpu_bench, app/gpu_measure)
// find the backend by vendor in the registry and know no vendor themselves.
//
// A second vendor is one folder, src/app/gpu/<vendor>/ (a class deriving from GpuBackend, the
// build compiles the folder into app), plus its entry in gpu_backend_registry.cpp; its rates are
// rows of core/gpu_specs, and its points say which device judges them (core/point_device).
#pragma once

#include "app/gpu_bench.hpp"
#include "app/gpu_measure.hpp"
#include "core/gpu_model.hpp"
#include "core/provenance.hpp"

#include <memory>
#include <string>
#include <vector>

namespace roofline {
class ResultsStore;
}

namespace roofline::app {

class GpuBackend {
public:
    virtual ~GpuBackend() = default;
    virtual GpuVendor vendor() const = 0;
    // The vendor's toolkit as its users know it, for messages: "CUDA".
    virtual std::string toolkit() const = 0;
    // Why this machine cannot run the vendor's benchmark (it was not built, what to install);
    // empty when it can. Asks nothing of the device: probe does.
    virtual std::string benchmark_missing() const = 0;
    // app/gpu_bench.hpp's probe_gpu and bench_gpu, for this vendor's devices.
    virtual void probe(int device) const = 0;
    virtual GpuBenchResult bench(int device, bool quick) const = 0;
    // app/gpu_measure.hpp's measure_gpu_kernels and describe_gpu_measure, for this vendor.
    virtual GpuMeasureResult profile(const GpuMeasureRequest& request, const ResultsStore* store,
                                     const GpuMeasureNotes& notes) const = 0;
    virtual void describe_profile(const GpuMeasureRequest& request, const GpuMeasureResult& result,
                                  Provenance& provenance) const = 0;
};

// The backend of `vendor`. RequestError naming the vendor and the vendors this build has a
// backend for, when it has none (an AMD or Intel GPU today, or an unknown vendor).
const GpuBackend& gpu_backend(GpuVendor vendor);

// The vendors with a backend, in the registry's order ("nvidia" first).
std::vector<GpuVendor> gpu_backend_vendors();

// Registers `backend` for as long as this object lives, in place of its vendor's own if it has
// one: a fake backend in a test, without a GPU. Not thread-safe: register before use.
class ScopedGpuBackend {
public:
    explicit ScopedGpuBackend(std::unique_ptr<GpuBackend> backend);
    ~ScopedGpuBackend();
    ScopedGpuBackend(const ScopedGpuBackend&) = delete;
    ScopedGpuBackend& operator=(const ScopedGpuBackend&) = delete;

private:
    const GpuBackend* backend_;
};

} // namespace roofline::app
