// How a machine model was made: `bench --quick` (what a chart needs), `bench
// --full` (every ceiling), or a hand-written spec sheet. Pure.
#pragma once

#include <optional>
#include <string_view>

namespace roofline {

enum class BenchMode { quick, full, spec };

const char* bench_mode_name(BenchMode mode);                       // "quick", "full", "spec"
std::optional<BenchMode> parse_bench_mode(std::string_view name);  // nullopt when unknown

} // namespace roofline
