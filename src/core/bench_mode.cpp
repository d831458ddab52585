#include "core/bench_mode.hpp"

#include "core/name_table.hpp"

namespace roofline {

namespace {
constexpr NameTable<BenchMode, 3> kNames{{{BenchMode::quick, "quick"}, {BenchMode::full, "full"}, {BenchMode::spec, "spec"}}};
}

const char* bench_mode_name(BenchMode mode) { return name_of(kNames, mode); }

std::optional<BenchMode> parse_bench_mode(std::string_view name) { return value_of(kNames, name); }

} // namespace roofline
