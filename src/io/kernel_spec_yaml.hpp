// Kernel specs in YAML (format: examples/README.md). A file holds one kernel
// (a mapping with name, work, arrays ...) or several under `kernels:`, with
// optional shared `sizes:`; several YAML documents (---) are also fine.
#pragma once

#include "core/kernel_spec.hpp"

#include <string>
#include <vector>

namespace roofline {

// Throws SchemaError "FILE:LINE:COL: where: what was expected" for malformed or
// wrong-schema input, std::runtime_error naming the path when it cannot be read.
std::vector<KernelSpec> kernel_specs_from_yaml(const std::string& text, const std::string& source = "<yaml>");
std::vector<KernelSpec> read_kernel_spec_file(const std::string& path);

// Bytes per element of the type names a spec may use instead of element_bytes
// ("double" 8, "float" 4, "int32" 4, "int64" 8, "complex" 16 ...); 0 when unknown.
double element_bytes_of_type(const std::string& type);

} // namespace roofline
