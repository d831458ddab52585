// Which kernels a run may use: those this CPU supports, narrowed by --isa and
// --kernel (BenchOptions), and the catalog `roofline bench --list` shows.
#pragma once

#include "bench/bench_plan.hpp"
#include "bench/kernel.hpp"
#include "core/kernel_info.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

std::optional<Isa> parse_isa(const std::string& name);  // "sse2", "avx2", "avx512"

// True when `options` let the run use this kernel (the CPU check is separate:
// isa_supported).
bool kernel_allowed(const BenchOptions& options, const std::string& name, Isa isa);

// Every compiled kernel with its counts and whether this CPU can run it.
std::vector<KernelInfo> kernel_catalog();

// Throws std::invalid_argument for an --isa this CPU lacks or a --kernel name
// that is unknown or unsupported here (naming --list). With --kernel, sets
// options.compute / options.memory to what the named kernels need, and the
// memory patterns to theirs unless --pattern gave some.
void resolve_kernel_selection(BenchOptions& options);

} // namespace roofline
