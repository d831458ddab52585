// What a call brings to the loop it is made from (measure --loops, issue 36): each
// called function's inclusive counts (its own, and what its own calls brought) and its
// samples, shared among its call sites by how often each ran. The share is exact when a
// function has one call site, or when each of its calls does the same work; it is the
// assumption gprof makes, and said where a function is called from more than one place.
// Calls that go round (recursion) bring nothing more than the function's own counts. Pure.
#pragma once

#include "measure/engine.hpp"
#include "measure/loop_counts.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

// A function by its file and (demangled) name.
using FunctionKey = std::pair<std::string, std::string>;

// One call instruction that ran.
struct CallSite {
    FunctionKey caller;
    FunctionKey callee;  // second empty: not known (an indirect call)
    double runs = 0;     // how often the call instruction ran
};

// A function's own counts (exclusive: its instructions only) and samples.
struct CalledFunction {
    RegionCounts self;
    double samples = 0;
    // How often it was entered, where counted (its first instruction's runs less its jumps
    // back to it); below zero: unknown, then the runs of its known call sites are its calls.
    double entries = -1;
};

struct CallShares {
    // Per call site (CallSite order): the callee's inclusive counts and samples times the
    // site's share of its calls; empty counts where the callee is unknown or not counted.
    std::vector<RegionCounts> counts;
    std::vector<double> samples;
    std::vector<double> share;  // runs / the callee's calls (0: callee unknown or not counted)
    // Per callee: the number of its call sites that ran (more than one: the share is an assumption).
    std::map<FunctionKey, std::size_t> sites_of;
    std::vector<std::string> notes;  // recursion cut
    std::vector<FunctionKey> called_back;  // per note: the function called back
};

CallShares share_calls(const std::vector<CallSite>& sites, const std::map<FunctionKey, CalledFunction>& functions);

// The share of each function's work done inside the calls of `roots` (measure --loops with
// --region-function): 1 for a root; for another function, over its call sites, each site's share
// of its calls times the share of its caller's work done inside them (at most 1). 0: never
// called from inside. Functions calling each other round count once.
std::map<FunctionKey, double> shares_inside(const std::vector<CallSite>& sites,
                                            const std::map<FunctionKey, CalledFunction>& functions,
                                            const std::set<FunctionKey>& roots);

} // namespace roofline::measure
