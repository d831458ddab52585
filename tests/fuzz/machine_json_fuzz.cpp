// Machine JSON (io/machine_json): a machine model file, then the roofline drawn from it.
#include "fuzz_common.hpp"
#include "io/json_node.hpp"
#include "core/machine_roofline.hpp"
#include "io/machine_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("machine_from_json", [&] {
        // As load_machine_file reads a file: one parse with duplicate keys refused, then the schema.
        const auto j = roofline::parse_json_text(roofline_fuzz::as_text(data, size), "<fuzz>");
        const auto model = roofline::machine_from_json(j, "<fuzz>");
        (void)roofline::machine_to_json(model).dump();
        roofline_fuzz::guarded_core("roofline_from_machine", [&] { (void)roofline::roofline_from_machine(model, {}); });
        roofline_fuzz::guarded_core("bandwidth_roofline", [&] { (void)roofline::bandwidth_roofline(model); });
    });
    return 0;
}
