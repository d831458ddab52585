// Nsight Compute's CSV (io/ncu_csv: measure --ncu-csv) and the kernel points made from it.
#include "core/gpu_kernel_points.hpp"
#include "fuzz_common.hpp"
#include "io/ncu_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("read_ncu_csv", [&] {
        const auto csv = roofline::read_ncu_csv(roofline_fuzz::as_text(data, size));
        for (const auto& w : csv.warnings)
            if (w.empty()) roofline_fuzz::finding("read_ncu_csv", "warning", "an empty warning");
        (void)roofline::gpu_kernel_points(csv.metrics);
    });
    return 0;
}
