// Points JSON (io/points_json): the text of a points file, as `roofline plot/report --points` reads it.
#include "fuzz_common.hpp"
#include "io/json_node.hpp"
#include "io/points_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("points_document_from_json", [&] {
        // As read_points_document reads a file: one parse with duplicate keys refused, then the schema.
        const auto j = roofline::parse_json_text(roofline_fuzz::as_text(data, size), "<fuzz>");
        auto doc = roofline::points_document_from_json(j, "<fuzz>");
        // What was read is written back the same way.
        (void)roofline::points_to_json(doc.points, doc.provenance ? &*doc.provenance : nullptr).dump();
    });
    return 0;
}
