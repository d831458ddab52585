// measure --loops (issue 36): after the runs, the table of the program's loops (the file
// counted instruction by instruction is app/measure_plan's).
#pragma once

#include "measure/function_list.hpp"
#include "measure/program_loops.hpp"
#include "render/measure_tables.hpp"

#include <set>
#include <string>

namespace roofline::cli {

// The loops' table on standard output: what was kept (of how many, by --min-share, a
// percentage), how each figure was measured, and the notes below it that are not in `said`
// (an earlier table's: each marker region's table would repeat them), added to it.
// The line under --functions' or --loops' table: what it holds and leaves out (`noun`: "function",
// "loop"; `own_code`: the FLOPs are the rows' self counts, as a loop's).
ListedShare listed_share_line(const measure::FunctionListShare& share, const char* noun, bool own_code = false);

void print_loops(const measure::ProgramLoops& loops, double min_share_percent, std::set<std::string>& said);

} // namespace roofline::cli
