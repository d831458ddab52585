// The GPU backends this build has, one entry per vendor (app/gpu_backend.hpp).
#include "app/gpu_backend.hpp"

#include "app/gpu/cuda/cuda_backend.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>

namespace roofline::app {
namespace {

struct GpuBackendRegistry {
    std::vector<std::unique_ptr<GpuBackend>> builtin;
    std::vector<std::unique_ptr<GpuBackend>> scoped;  // ScopedGpuBackend's, the latest last
};

GpuBackendRegistry& gpu_backend_registry() {
    static GpuBackendRegistry registry = [] {
        GpuBackendRegistry r;
        // A second vendor's backend: its folder's make function, one line here.
        r.builtin.push_back(cuda::make_cuda_backend());
        return r;
    }();
    return registry;
}

} // namespace

const GpuBackend& gpu_backend(GpuVendor vendor) {
    const auto& registry = gpu_backend_registry();
    for (auto it = registry.scoped.rbegin(); it != registry.scoped.rend(); ++it)
        if ((*it)->vendor() == vendor) return **it;
    for (const auto& backend : registry.builtin)
        if (backend->vendor() == vendor) return *backend;
    std::vector<std::string> known;
    for (const auto v : gpu_backend_vendors()) known.push_back(fmt::format("{} ({})", gpu_vendor_name(v), gpu_backend(v).toolkit()));
    throw RequestError(fmt::format("no GPU backend for vendor '{}': this build measures the GPUs of {}",
                                   gpu_vendor_name(vendor), fmt::join(known, ", ")));
}

std::vector<GpuVendor> gpu_backend_vendors() {
    std::vector<GpuVendor> vendors;
    const auto& registry = gpu_backend_registry();
    for (const auto* list : {&registry.builtin, &registry.scoped})
        for (const auto& backend : *list)
            if (std::find(vendors.begin(), vendors.end(), backend->vendor()) == vendors.end())
                vendors.push_back(backend->vendor());
    return vendors;
}

ScopedGpuBackend::ScopedGpuBackend(std::unique_ptr<GpuBackend> backend) : backend_(backend.get()) {
    gpu_backend_registry().scoped.push_back(std::move(backend));
}

ScopedGpuBackend::~ScopedGpuBackend() {
    auto& scoped = gpu_backend_registry().scoped;
    scoped.erase(std::remove_if(scoped.begin(), scoped.end(), [this](const auto& b) { return b.get() == backend_; }),
                 scoped.end());
}

} // namespace roofline::app
