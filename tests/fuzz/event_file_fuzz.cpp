// Perf event files (measure/event_file: data/events/*.txt) and their metrics evaluated.
#include "fuzz_common.hpp"
#include "measure/event_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace roofline::measure;
    roofline_fuzz::guarded("parse_event_file", [&] {
        const auto set = parse_event_file(roofline_fuzz::as_text(data, size), "<fuzz>");
        std::map<std::string, double> values;
        double v = 3;
        for (const auto& e : set.events) values[e.alias] = (v *= 7);
        (void)matches(set, CpuIdentity{"GenuineIntel", 6, 85});
        (void)select_event_set({set}, CpuIdentity{"AuthenticAMD", 25, 1});
        roofline_fuzz::guarded("evaluate_metrics", [&] { (void)evaluate_metrics(set, values); });
    });
    return 0;
}
