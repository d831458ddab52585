// The live snapshots the marker library publishes for `roofline monitor`
// (measure/monitor_snapshot: roofline.monitor/1, PROTOCOL.md).
#include "fuzz_common.hpp"
#include "measure/monitor_snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("parse_monitor_snapshot", [&] {
        (void)roofline::measure::parse_monitor_snapshot(roofline_fuzz::as_text(data, size), "<fuzz>");
    });
    return 0;
}
