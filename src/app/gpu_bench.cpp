#include "app/gpu_bench.hpp"

#include "app/gpu_backend.hpp"

#include <fmt/core.h>

#include <utility>

namespace roofline::app {

GpuRunTimedOut::GpuRunTimedOut(Run which, std::string program_path, double limit, Ending how_ended,
                               std::string check_tool, std::string variable)
    // The message cli words (cli/gpu_bench); this one is for a caller that does not.
    : std::runtime_error(fmt::format("{} did not end within its limit of {} seconds", program_path, limit)),
      run(which),
      program(std::move(program_path)),
      limit_seconds(limit),
      ending(how_ended),
      device_check(std::move(check_tool)),
      limit_variable(std::move(variable)) {}

GpuVendor bench_vendor(const GpuBenchRequest& request) {
    if (request.vendor) return *request.vendor;
    const auto vendors = gpu_backend_vendors();
    for (const auto vendor : vendors)
        if (gpu_backend(vendor).benchmark_missing().empty()) return vendor;
    if (vendors.empty()) throw RequestError("no GPU backend in this build");
    return vendors.front();
}

void probe_gpu(const GpuBenchRequest& request) { gpu_backend(bench_vendor(request)).probe(request.device); }

GpuBenchResult bench_gpu(const GpuBenchRequest& request) {
    return gpu_backend(bench_vendor(request)).bench(request.device, request.quick);
}

} // namespace roofline::app
