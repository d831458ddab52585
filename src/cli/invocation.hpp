// How this run was asked for: the command line as typed and the settings that
// configuration files and ROOFLINE_* variables gave it. Recorded with the points
// a command writes, so that a set says how to measure it again even when a
// config file, not the command line, chose its cache mode or sample count.
#pragma once

#include "core/provenance.hpp"

#include <string>
#include <vector>

namespace roofline::cli {

class LayeredConfig;

// Called once by main, before the command runs.
void set_invocation(int argc, char** argv, const LayeredConfig* config);

// argv as typed ("roofline", "kernels", "--sizes", "1M", ...).
const std::vector<std::string>& invocation_argv();

// "cache=cold (roofline.yaml:3:10)" for each setting of `command` (kernels, measure, ...)
// that is not at its built-in default nor overridden on the command line (the settings in
// force); empty when none (or without configuration).
std::vector<std::string> configured_settings(const std::string& command);

// What every run records about where it ran: `command`, the working directory, the date (UTC),
// host, CPU, this tool's version, and the configured settings of `subcommand` (measure, kernels).
Provenance run_provenance(const std::vector<std::string>& command, const std::string& subcommand);

} // namespace roofline::cli
