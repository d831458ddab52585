// The message for a command line CLI11 could not parse: its own words, escaped like
// every message that can carry outside text, plus "did you mean ...?" for a mistyped
// command or option, as kernel names and configuration keys already get.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace roofline::cli {

std::string parse_failure_text(const CLI::App* failed, const CLI::Error& error);

} // namespace roofline::cli
