// Functions told apart by the file they are in as well as their name: two libraries that
// each have a `kern` give two functions, "kern (liba.so)" and "kern (libb.so)", as the
// Valgrind tool names them (tools/vgtool/README.md); a name no other file has stays as it is.
// The sampler names its functions the same way, and its names are made the tool's where the
// two runs saw different sets of functions (one of two same-named functions not sampled).
#pragma once

#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

// Code in no file: an anonymous executable mapping, which a JIT compiler writes at run time.
inline constexpr const char* kCodeOutsideAnyFile = "(code outside any file: generated at run time)";

// "NAME (FILE)", FILE the base name of `file`; NAME when `file` is empty.
std::string name_in_file(const std::string& name, const std::string& file);

// Each (name, file) pair's name: qualified by its file (name_in_file) when another file's
// pair has the same name, else the name itself.
std::map<std::pair<std::string, std::string>, std::string> names_apart(
    const std::vector<std::pair<std::string, std::string>>& name_file);

// The sampler's function names (self time and call stacks) made the tool's: a function the
// sampler names "kern" (it sampled one of two) that the tool names "kern (liba.so)" from its file,
// and the reverse. Times of entries that come to one name are added.
void use_tool_function_names(const std::vector<RegionCounts>& tool_functions, SamplingResult& sampling);

} // namespace roofline::measure
