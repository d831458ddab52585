// Whether a program loads the roofline marker library when it starts: the libraries the dynamic
// loader resolves for it (ldd) and LD_PRELOAD. What measure says of a run cut short depends on it:
// a program that cannot mark regions lost no region timings, only the rest of its run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::measure {

// From ldd's output ("\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)"): true when a
// library it lists is libroofline_marker (any version, any directory), false when it lists
// libraries and none is, nullopt when it lists none ("not a dynamic executable": a script, a
// static program).
std::optional<bool> marker_library_in_ldd_output(std::string_view ldd_output);

// Whether `program` (argv[0], looked up as exec does) loads libroofline_marker at start, or
// LD_PRELOAD (ours or `env`'s, which the child gets) names it; nullopt where ldd cannot say (not
// installed, a script, a static program). A library opened later with dlopen is not seen.
std::optional<bool> loads_marker_library(const std::string& program,
                                         const std::vector<std::pair<std::string, std::string>>& env);

} // namespace roofline::measure
