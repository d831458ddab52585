// The reference kernels as registered things: each kernel's counts on paper (core's table,
// core/reference_kernels.hpp) joined with its code (a family of bench/reference_*.cpp) by its
// typed id, not by its name. The two are matched once, where the registry is built, and by a
// unit test: a kernel with counts and no code, or code and no counts, is a test failure, not a
// surprise when someone runs it.
#pragma once

#include "core/reference_kernels.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace roofline {

// One kernel's arrays at size n, its call and its check (bench/reference_family.hpp).
class ReferenceInstance;
// Its arrays for size n with `params` complete (ReferenceKernel::resolved); std::invalid_argument
// for a size the code cannot run at, std::bad_alloc when the arrays do not fit.
using MakeReferenceInstance = std::unique_ptr<ReferenceInstance> (*)(const ReferenceKernel& kernel, std::int64_t n,
                                                                     const KernelParams& params);

// A family's code for one kernel of core's table.
struct ReferenceKernelCode {
    ReferenceKernelId id;
    MakeReferenceInstance make;
};

// A reference kernel: core's row (name, formulas, counts) and the code that runs it.
struct RegisteredReferenceKernel {
    const ReferenceKernel* kernel = nullptr;
    MakeReferenceInstance make = nullptr;
    const std::string& name() const { return kernel->name; }
};

// Every family's code, in the order the families register it.
std::vector<ReferenceKernelCode> reference_kernel_code();

// What does not match between a table of counts and the code registered: a kernel with no code,
// code for an id the table does not have, code registered twice, a row out of the ids' order.
// Empty when every kernel has both, once.
std::vector<std::string> reference_registry_problems(const std::vector<ReferenceKernel>& table,
                                                     const std::vector<ReferenceKernelCode>& code);

// Every kernel, in core's order (the order --list prints), each with its code. Built at first
// use; a mismatch (reference_registry_problems of core's table and the families' code) is a
// std::logic_error saying what.
const std::vector<RegisteredReferenceKernel>& reference_kernel_registry();
const RegisteredReferenceKernel& registered_reference_kernel(ReferenceKernelId id);
const RegisteredReferenceKernel* find_registered_reference_kernel(const std::string& name);

} // namespace roofline
