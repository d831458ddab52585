#include "core/bench_mode.hpp"

namespace roofline {

const char* bench_mode_name(BenchMode mode) {
    switch (mode) {
    case BenchMode::quick: return "quick";
    case BenchMode::full: return "full";
    case BenchMode::spec: return "spec";
    }
    return "?";
}

std::optional<BenchMode> parse_bench_mode(std::string_view name) {
    for (BenchMode m : {BenchMode::quick, BenchMode::full, BenchMode::spec})
        if (name == bench_mode_name(m)) return m;
    return std::nullopt;
}

} // namespace roofline
