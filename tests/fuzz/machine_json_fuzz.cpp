// Machine JSON (io/machine_json): a machine model file, then the roofline drawn from it.
#include "fuzz_common.hpp"
#include "core/machine_roofline.hpp"
#include "io/machine_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto j = nlohmann::json::parse(roofline_fuzz::as_text(data, size), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return 0;  // read_json_file turns this into SchemaError
    roofline_fuzz::guarded("machine_from_json", [&] {
        const auto model = roofline::machine_from_json(j, "<fuzz>");
        (void)roofline::machine_to_json(model).dump();
        roofline_fuzz::guarded_core("roofline_from_machine", [&] { (void)roofline::roofline_from_machine(model, {}); });
        roofline_fuzz::guarded_core("bandwidth_roofline", [&] { (void)roofline::bandwidth_roofline(model); });
    });
    return 0;
}
