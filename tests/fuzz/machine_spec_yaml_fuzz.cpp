// Machine spec sheets (io/machine_spec_yaml), then the roofline drawn from one.
#include "fuzz_common.hpp"
#include "core/machine_file.hpp"
#include "io/machine_spec_yaml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("machine_spec_from_yaml", [&] {
        const auto machine = roofline::machine_spec_from_yaml(roofline_fuzz::as_text(data, size), "<fuzz>");
        roofline_fuzz::guarded_core("roofline_from_machine_file",
                               [&] { (void)roofline::roofline_from_machine_file(machine, {}); });
    });
    return 0;
}
