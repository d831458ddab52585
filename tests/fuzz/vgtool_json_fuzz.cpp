// The Valgrind tool's output file (measure/protocol_json: roofline.vgtool/1, read by the instrument engine).
#include "fuzz_common.hpp"
#include "measure/protocol_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("parse_vgtool_json", [&] {
        (void)roofline::measure::parse_vgtool_json(roofline_fuzz::as_text(data, size), "<fuzz>");
    });
    return 0;
}
