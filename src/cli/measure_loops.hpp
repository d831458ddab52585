// measure --loops (issue 36): the program's own file, counted instruction by instruction
// under the Valgrind tool, and after the runs the table of its loops.
#pragma once

#include "measure/program_loops.hpp"

#include <string>

namespace roofline::cli {

// The file whose instructions the tool counts one by one: `command` found as execvp
// would, with its links resolved (as Valgrind names it). Throws UsageError when it
// cannot be found.
std::string loops_object(const std::string& command);

// The loops' table on standard output: what was kept (of how many, by --min-share, a
// percentage), how each figure was measured, and the notes below it.
void print_loops(const measure::ProgramLoops& loops, double min_share_percent);

} // namespace roofline::cli
