// `-o -`: a command's result (points, a model, a report, a chart) on standard
// output, and everything else it prints there (tables, summaries, a measured
// program's own output) moved to standard error, so that
// `roofline measure -o - -- ./app | jq .points` reads the points alone.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace roofline::cli {

// Lets `option` take "-" (standard output) as its file: given so, it asks for
// standard output to be kept for the result.
CLI::Option* result_may_go_to_standard_output(CLI::Option* option);

// When an option asked for it, keeps standard output for the result: descriptor
// 1 is copied to a private descriptor that io writes "-" to
// (set_standard_output_descriptor), and descriptor 1 (with it stdout and every
// child's standard output) becomes a copy of standard error. Called once the
// command line is parsed and before the command runs (main sets it as CLI11's
// parse-complete callback), so that --help still prints on standard output.
void keep_standard_output_if_asked();

// How a message names an output: "standard output" for "-", else the path quoted (message_name).
std::string output_name(const std::string& output);

} // namespace roofline::cli
