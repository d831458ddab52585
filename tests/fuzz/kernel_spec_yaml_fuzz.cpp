// Kernel specs (io/kernel_spec_yaml, `roofline model`), with their size expressions, then the points.
#include "fuzz_common.hpp"
#include "core/kernel_spec.hpp"
#include "io/kernel_spec_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("kernel_specs_from_yaml", [&] {
        const auto specs = roofline::kernel_specs_from_yaml(roofline_fuzz::as_text(data, size), "<fuzz>");
        for (const auto& spec : specs)
            roofline_fuzz::guarded_core("point_from_spec", [&] { (void)roofline::point_from_spec(spec); });
    });
    return 0;
}
