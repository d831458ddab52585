#include "bench/bench_plan.hpp"

namespace roofline {

double default_time_budget(const std::string& mode) { return mode == "full" ? 160.0 : 24.0; }

} // namespace roofline
