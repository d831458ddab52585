#include "bench/bench_plan.hpp"

namespace roofline {

double default_time_budget(BenchMode mode) { return mode == BenchMode::full ? 160.0 : 24.0; }

} // namespace roofline
