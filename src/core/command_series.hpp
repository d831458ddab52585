// Which stored runs of a point are one series (`history`) and whether two point sets ran the
// same command line (`compare`). A point measured from a program is named by the program's
// regions and functions ("dot", "(program)"), so the same name comes from every input size
// and every other program with a function of that name: only runs of one command line
// (the program and its arguments) measure the same thing. Points whose name says what was
// run (a reference kernel at a size, a kernel spec, a model, a monitored job) are one series
// by their name. Pure.
#pragma once

#include "core/point_origin.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace roofline {

// The command line for people, to read or paste into a shell: words joined by spaces, a word
// quoted ('...') unless it is plain (letters, digits, _./-+:@%=,), empty ones too.
std::string command_line_text(const std::vector<std::string>& command);

// The key of the series a point of `origin` belongs to, from its set's recorded command (the
// provenance's, program first): the program's file name and the arguments as
// command_line_text writes them ("./dot 1000" and "/home/u/dot 1000" are "dot 1000": one
// program run from elsewhere, or rebuilt; "dot 2000" is another series). Empty when the
// point's name alone makes its series (reference kernels, kernel specs, models, monitored
// jobs) or when no command was recorded.
std::string command_series_key(const std::vector<std::string>& command, PointOrigin origin);

// Runs grouped by key (`keys`: one per run, oldest first): each series lists its runs'
// indexes, oldest first. The series of the latest run comes first, then the others by their
// latest run, newest first.
struct CommandSeries {
    std::string key;
    std::vector<std::size_t> runs;
};
std::vector<CommandSeries> group_by_command(const std::vector<std::string>& keys);

} // namespace roofline
