#include "measure/call_shares.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>

namespace roofline::measure {

namespace {

struct Inclusive {
    RegionCounts counts;
    double samples = 0;
};

class Sharer {
public:
    Sharer(const std::vector<CallSite>& sites, const std::map<FunctionKey, CalledFunction>& functions)
        : sites_(sites), functions_(functions) {
        for (std::size_t s = 0; s < sites.size(); ++s) {
            const auto& site = sites[s];
            by_caller_[site.caller].push_back(s);
            by_callee_[site.callee].push_back(s);
            if (site.callee.second.empty() || site.runs <= 0) continue;
            if (site.callee == site.caller) {
                calls_to_itself_[site.callee] += site.runs;
                continue;
            }
            calls_at_sites_[site.callee] += site.runs;
            ++sites_of_[site.callee];
        }
    }

    // The share of `callee`'s calls that one site's `runs` are: of its entries where counted
    // (less its calls to itself), of the runs of its known sites otherwise (and at least of
    // those: a share is never above 1). A function's call to itself has no share: its counts,
    // every level of its recursion included, are its calls' from other functions.
    double share(const CallSite& site) const {
        const auto f = functions_.find(site.callee);
        if (site.callee.second.empty() || f == functions_.end() || site.runs <= 0 || site.callee == site.caller)
            return 0;
        const auto itself = calls_to_itself_.find(site.callee);
        const double entries = f->second.entries - (itself == calls_to_itself_.end() ? 0 : itself->second);
        const double calls = std::max(entries, calls_at_sites_.at(site.callee));
        return calls > 0 ? site.runs / calls : 0;
    }

    // The function's own counts and samples and its calls' shares of their callees', memoized;
    // a call back into a function still being summed (recursion) adds nothing.
    const Inclusive& inclusive(const FunctionKey& key) {
        if (const auto done = done_.find(key); done != done_.end()) return done->second;
        const auto& own = functions_.at(key);
        Inclusive sum{own.self, own.samples};
        active_.insert(key);
        if (const auto mine = by_caller_.find(key); mine != by_caller_.end())
            for (const std::size_t s : mine->second) {
                const auto& site = sites_[s];
                const double part = share(site);
                if (part <= 0) continue;
                if (active_.count(site.callee)) {  // functions calling each other round
                    if (recursion_said_.insert(site.callee).second) {
                        called_back_.push_back(site.callee);
                        notes_.push_back(fmt::format("{} is called back by a function it calls: the counts of "
                                                     "that cycle of calls are shared by call counts once, and may be "
                                                     "counted twice in a loop's counts with calls",
                                                     site.callee.second));
                    }
                    continue;
                }
                const auto& callee = inclusive(site.callee);
                add_counts(sum.counts, callee.counts, part);
                sum.samples += part * callee.samples;
            }
        active_.erase(key);
        return done_.emplace(key, std::move(sum)).first->second;
    }

    double inside(const FunctionKey& key, const std::set<FunctionKey>& roots) {
        if (roots.count(key)) return 1;
        if (const auto done = inside_done_.find(key); done != inside_done_.end()) return done->second;
        double sum = 0;
        active_.insert(key);
        if (const auto callers = by_callee_.find(key); callers != by_callee_.end())
            for (const std::size_t s : callers->second) {
                const auto& site = sites_[s];
                const double part = share(site);
                if (part > 0 && !active_.count(site.caller)) sum += part * inside(site.caller, roots);
            }
        active_.erase(key);
        return inside_done_[key] = std::min(1.0, sum);
    }

    CallShares shares() {
        CallShares out;
        out.counts.resize(sites_.size());
        out.samples.assign(sites_.size(), 0);
        out.share.assign(sites_.size(), 0);
        for (std::size_t s = 0; s < sites_.size(); ++s) {
            out.share[s] = share(sites_[s]);
            if (out.share[s] <= 0) continue;
            const auto& callee = inclusive(sites_[s].callee);
            add_counts(out.counts[s], callee.counts, out.share[s]);
            out.samples[s] = out.share[s] * callee.samples;
        }
        out.sites_of = sites_of_;
        out.notes = notes_;
        out.called_back = called_back_;
        return out;
    }

private:
    const std::vector<CallSite>& sites_;
    const std::map<FunctionKey, CalledFunction>& functions_;
    std::map<FunctionKey, std::vector<std::size_t>> by_caller_, by_callee_;
    std::map<FunctionKey, double> inside_done_;
    std::map<FunctionKey, double> calls_at_sites_, calls_to_itself_;
    std::map<FunctionKey, std::size_t> sites_of_;
    std::map<FunctionKey, Inclusive> done_;
    std::set<FunctionKey> active_, recursion_said_;
    std::vector<std::string> notes_;
    std::vector<FunctionKey> called_back_;
};

} // namespace

CallShares share_calls(const std::vector<CallSite>& sites, const std::map<FunctionKey, CalledFunction>& functions) {
    return Sharer(sites, functions).shares();
}

std::map<FunctionKey, double> shares_inside(const std::vector<CallSite>& sites,
                                            const std::map<FunctionKey, CalledFunction>& functions,
                                            const std::set<FunctionKey>& roots) {
    Sharer sharer(sites, functions);
    std::map<FunctionKey, double> out;
    for (const auto& [key, f] : functions) out[key] = sharer.inside(key, roots);
    return out;
}

} // namespace roofline::measure
