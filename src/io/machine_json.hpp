// Versioned JSON for the machine model (schema "roofline.machine/1").
#pragma once

#include "core/machine_model.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace roofline {

// Malformed or wrong-schema input: the message names the file (when known),
// the JSON path and what was expected.
struct SchemaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

nlohmann::json machine_to_json(const MachineModel& model);
MachineModel machine_from_json(const nlohmann::json& j, const std::string& source = "<json>");

// What roofline-gpubench writes (schema "roofline.gpubench/1"): one GPU in the `gpus` format,
// checked as the machine model's are. Theoretical figures are left to core/gpu_specs.
GpuModel gpu_from_gpubench_json(const nlohmann::json& j, const std::string& source = "<json>");

// Writes atomically (temporary file + rename) so a crash never leaves half a file.
void write_machine_file(const std::string& path, const MachineModel& model);
MachineModel read_machine_file(const std::string& path);

// Throws std::runtime_error with a clear message when `path` cannot be
// created/written (checked before a long measurement starts).
void check_writable(const std::string& path);

} // namespace roofline
