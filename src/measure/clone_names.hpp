// GCC's clones of a function across two builds (--counts-from): a build made with other options
// may hold `foo.constprop.0` (IPA constant propagation), `foo.isra.0` (IPA scalar replacement),
// `foo.part.0` (partial inlining) or `foo.cold` (hot/cold splitting) where the other holds `foo`
// (demangled C++: `foo(int) [clone .constprop.0]`). A clone is matched to its origin only when
// that is unambiguous, so that two different functions are never taken for one.
#pragma once

#include "measure/engine.hpp"
#include "measure/sampling_profiler.hpp"

#include <map>
#include <string>
#include <vector>

namespace roofline::measure {

// `name` without its clone suffixes (`foo.isra.0.constprop.1` -> `foo`); `name` when it has none.
std::string clone_origin(const std::string& name);

// How a counted build's function was found in the timed build.
struct CloneMatch {
    std::string timed;                    // the timed build's function; empty: none
    bool by_origin = false;               // a different name of the same origin (a clone, or the original)
    std::vector<std::string> candidates;  // unmatched: the timed functions of its origin none of which was its alone
};

// For each of `counted` (distinct names): its own name when `timed` holds it; else the one timed
// function of the same origin, when no other counted function has that origin left unmatched and
// no counted function has that timed one by name (a `.cold` part is part of the function it was
// split from, never a candidate when that one is there). Every timed function is given to one
// counted function at most.
std::map<std::string, CloneMatch> match_clones(const std::vector<std::string>& counted,
                                               const std::vector<std::string>& timed);

// --counts-from: the sampler's functions of `timed_file` given the names of `counted_file`'s
// (`tool_functions`: the counting run's) where match_clones matches them by origin, so that a
// function's counts and its time meet; its call stacks likewise. Returns a note for each.
std::vector<std::string> use_counted_build_names(const std::vector<RegionCounts>& tool_functions,
                                                 const std::string& counted_file, const std::string& timed_file,
                                                 SamplingResult& sampling);

} // namespace roofline::measure
