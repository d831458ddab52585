// The marker library's output file (measure/protocol_json: roofline.marker/1, PROTOCOL.md).
#include "fuzz_common.hpp"
#include "measure/protocol_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("parse_marker_json", [&] {
        auto report = roofline::measure::parse_marker_json(roofline_fuzz::as_text(data, size), "<fuzz>");
        // The same file as the next image of an exec chain too (measure reads <file>.exec1, ...).
        auto again = report;
        (void)roofline::measure::merge_marker_reports({std::move(report), std::move(again)});
    });
    return 0;
}
