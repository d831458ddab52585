// The offload injection library's summary (io/offload_summary: measure --offload-summary) and
// the whole-offload point made from it.
#include "core/offload_point.hpp"
#include "fuzz_common.hpp"
#include "io/offload_summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("offload_summary", [&] {
        const auto summary = roofline::offload_summary_from_text(roofline_fuzz::as_text(data, size), "fuzz.json");
        roofline::Point kernel;
        kernel.name = "k";
        kernel.work = 1e9;
        kernel.bytes["DRAM"] = 1e8;
        kernel.details["launches"] = 1;
        (void)roofline::offload_point({kernel}, summary, 1.0);
        // An earlier run's summary (--offload-summary: wall time unknown), judged against a
        // measured bus roof as well as the physical limit.
        roofline::OffloadBusRoofs roofs;
        roofs.h2d_gbs = 52;
        roofs.d2h_gbs = 50;
        roofs.source = "fuzz";
        (void)roofline::offload_summary_problems(summary, roofs);
        (void)roofline::offload_point({kernel}, summary, 0.0, roofs);
    });
    return 0;
}
