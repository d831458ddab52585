// measure --repeat K, --warmup N and --cold: the options (what a run allows of them is
// app/measure_repeat's).
#pragma once

#include "app/measure_repeat.hpp"

#include <CLI/CLI.hpp>

namespace roofline::cli {

using RepeatArgs = app::RepeatOptions;
void add_repeat_options(CLI::App* cmd, RepeatArgs& args);

} // namespace roofline::cli
