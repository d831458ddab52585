// Event formulas (measure/formula): parse, then evaluate with names bound or missing.
#include "fuzz_common.hpp"
#include "measure/formula.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using roofline::measure::Formula;
    roofline_fuzz::guarded("Formula::parse", [&] {
        const auto f = Formula::parse(roofline_fuzz::as_text(data, size));
        roofline_fuzz::guarded("evaluate", [&] {
            (void)f.evaluate([](const std::string& name) -> std::optional<double> {
                if (!name.empty() && name[0] == 'z') return 0.0;
                if (!name.empty() && name[0] == 'u') return std::nullopt;
                return static_cast<double>(name.size()) * 1.5;
            });
        });
    });
    return 0;
}
