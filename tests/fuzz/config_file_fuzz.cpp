// Configuration files (io/config_file: /etc/roofline/config.yaml, ~/.config/roofline/config.yaml, ./roofline.yaml).
#include "fuzz_common.hpp"
#include "io/config_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    roofline_fuzz::guarded("parse_config_text",
                           [&] { (void)roofline::parse_config_text(roofline_fuzz::as_text(data, size), "<fuzz>"); });
    return 0;
}
