// The marker library's output file (measure/protocol_json: roofline.marker/1, PROTOCOL.md).
#include "fuzz_common.hpp"
#include "measure/protocol_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("parse_marker_json", [&] {
        (void)roofline::measure::parse_marker_json(roofline_fuzz::as_text(data, size), "<fuzz>");
    });
    return 0;
}
