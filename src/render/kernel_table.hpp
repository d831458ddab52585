// `roofline bench --list`: the kernels with their ISA, counts and whether this
// CPU runs them, as a table a person reads or JSON a script parses.
#pragma once

#include "core/kernel_info.hpp"

#include <string>
#include <vector>

namespace roofline {

std::string kernel_table_text(const std::vector<KernelInfo>& kernels);
std::string kernel_table_json(const std::vector<KernelInfo>& kernels);

} // namespace roofline
