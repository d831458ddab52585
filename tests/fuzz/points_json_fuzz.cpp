// Points JSON (io/points_json): the text of a points file, as `roofline plot/report --points` reads it.
#include "fuzz_common.hpp"
#include "io/points_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto j = nlohmann::json::parse(roofline_fuzz::as_text(data, size), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return 0;  // read_json_file turns this into SchemaError
    roofline_fuzz::guarded("points_document_from_json", [&] {
        auto doc = roofline::points_document_from_json(j, "<fuzz>");
        // What was read is written back the same way.
        (void)roofline::points_to_json(doc.points, doc.provenance ? &*doc.provenance : nullptr).dump();
    });
    return 0;
}
