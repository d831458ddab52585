#include "measure/process_code.hpp"
#include "measure/function_regions.hpp"

#include "core/closest_words.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace roofline::measure {
namespace {

bool is_matched(const RegionCounts& region, const std::string& symbol) {
    const auto f = folded_function_name(symbol);
    return std::find(region.matched.begin(), region.matched.end(), f) != region.matched.end();
}

bool close(double a, double b) { return std::fabs(a - b) <= 0.01 * std::max(std::fabs(a), std::fabs(b)); }

// "ns::Grid<double>::sweep(int) [clone .isra.0]" -> "sweep"
std::string short_name(const std::string& name) {
    std::string s = folded_function_name(name);
    const auto paren = s.find('(');
    if (paren != std::string::npos && paren > 0) s.resize(paren);
    const auto colons = s.rfind("::");
    if (colons != std::string::npos) s = s.substr(colons + 2);
    return s;
}

// "mm.0" -> "mm": GCC's number for a nested C function or a gfortran contained procedure,
// which the Valgrind tool's matching ignores too (rl_fnmatch.c).
std::string without_gcc_nesting_number(std::string s) {
    for (;;) {
        std::size_t i = s.size();
        while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
        if (i == s.size() || i < 2 || s[i - 1] != '.') return s;
        const auto c = static_cast<unsigned char>(s[i - 2]);
        if (!std::isalnum(c) && c != '_') return s;
        s.resize(i - 1);
    }
}

// Call-stack samples with one of the region's functions on the stack, and
// the samples that may have it there unseen (not unwound to the thread's start).
struct StackSamples {
    long long with = 0;
    long long attributed = 0;  // of `with`: not unwound far enough, placed by the instrument run
    long long maybe = 0;
    std::set<int> threads;  // that had it on their stack
};

// For each function of the samples' stacks, the share of its instructions that
// the instrument run saw executed while the region was open; -1 when unknown.
// A function the instrument run did not see (a library picks other kernels for
// the CPU Valgrind shows it) gets the share of its file's instructions instead.
std::vector<double> inner_shares(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                                 const SamplingResult& sampling) {
    std::vector<double> shares(sampling.stack_functions.size(), -1);
    if (region.inner_instructions.empty()) return shares;
    std::map<std::string, double> total, inner, file_total, file_inner;
    std::map<std::string, std::string> file_of;
    for (const auto& f : exclusive) {
        const auto name = folded_function_name(f.name);
        total[name] += f.instructions;
        if (f.object.empty()) continue;
        file_of[f.name] = canonical_file(f.object);
        file_total[file_of[f.name]] += f.instructions;
    }
    for (const auto& [name, n] : region.inner_instructions) {
        inner[folded_function_name(name)] += n;
        if (const auto it = file_of.find(name); it != file_of.end()) file_inner[it->second] += n;
    }
    auto share = [](const std::map<std::string, double>& in, const std::map<std::string, double>& all,
                    const std::string& key) {
        const auto t = all.find(key);
        if (t == all.end() || t->second <= 0) return -1.0;
        const auto i = in.find(key);
        return std::min(1.0, (i == in.end() ? 0 : i->second) / t->second);
    };
    for (std::size_t i = 0; i < shares.size(); ++i) {
        // Code without a symbol is named by its function's entry in the file's unwind table,
        // "(no symbol: FILE+0xENTRY)", by the sampler and the Valgrind tool alike: its own share,
        // as a named function's; the file's when the instrument run did not see that name.
        shares[i] = share(inner, total, folded_function_name(sampling.stack_functions[i]));
        if (shares[i] < 0 && i < sampling.stack_function_files.size() && !sampling.stack_function_files[i].empty())
            shares[i] = share(file_inner, file_total, canonical_file(sampling.stack_function_files[i]));
    }
    return shares;
}

StackSamples stack_samples(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                           const SamplingResult& sampling) {
    std::vector<char> matches(sampling.stack_functions.size());
    for (std::size_t i = 0; i < matches.size(); ++i) matches[i] = is_matched(region, sampling.stack_functions[i]);
    const auto shares = inner_shares(region, exclusive, sampling);
    // A stack not unwound to its start may still hold the function above where unwinding stopped. Every
    // function seen on it ran inside that call, if it was there: one whose instructions all ran while the
    // region was open places the sample inside; one that never ran then places it outside.
    enum { inside, outside, unresolved };
    auto place = [&](const SampledStack& stack) {
        bool out = false;
        for (const int f : stack.functions) {
            const double share = shares[static_cast<std::size_t>(f)];
            if (share >= 0.99) return inside;
            if (share >= 0 && share <= 0.01) out = true;
        }
        return out ? outside : unresolved;
    };
    StackSamples out;
    std::vector<const SampledStack*> placed_inside;
    for (const auto& stack : sampling.stacks) {
        const bool has = std::any_of(stack.functions.begin(), stack.functions.end(),
                                     [&](int f) { return matches[static_cast<std::size_t>(f)] != 0; });
        if (has) {
            ++out.with;
            out.threads.insert(stack.tid);
        } else if (!stack.complete) {
            const auto where = place(stack);
            if (where == inside) placed_inside.push_back(&stack);
            if (where == unresolved) ++out.maybe;
        }
    }
    // Placed inside: its time on a thread that called it; on another thread, work done for it meanwhile
    // (process scope), which is not its wall time.
    for (const auto* stack : placed_inside)
        if (out.threads.count(stack->tid)) ++out.attributed;
    out.with += out.attributed;
    return out;
}

// Share of a thread's life (first to last sample) it spent on a CPU.
double on_cpu_share(const SampledThread& t, double period_seconds) {
    const double life = static_cast<double>(t.last_ns - t.first_ns) / 1e9 + period_seconds;
    return life > 0 ? static_cast<double>(t.samples) * period_seconds / life : 0;
}

constexpr long long kMinStackSamples = 10;  // below, ±30% and more: no time (call stacks or a leaf's self time)
constexpr double kMaxUnseenShare = 0.05;    // samples that may hide it, against those that show it

// Inclusive CPU time from call stacks; fills `t` and returns true, or says why not in `why`.
bool time_from_stacks(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                      const SamplingResult& sampling, FunctionRegionTime& t, std::string& why) {
    const auto in = stack_samples(region, exclusive, sampling);
    const double period = sampling.period_seconds;
    if (in.with < kMinStackSamples) {
        why = in.with == 0 ? "no call-stack sample had it on the stack"
                           : fmt::format("only {} call-stack samples had it on the stack (at least {} are needed "
                                         "for a time; a longer run, or a shorter --sample-period, gives more)",
                                         in.with, kMinStackSamples);
        return false;
    }
    if (static_cast<double>(in.maybe) > kMaxUnseenShare * static_cast<double>(in.with)) {
        why = fmt::format("{} of {} call stacks could not be unwound to their thread's start (code without "
                          "call-frame information, a stack deeper than the copy, or tail calls through pointers), "
                          "and {} of them may hide it: its {} samples could be {:.0f}% short",
                          sampling.stacks_incomplete, sampling.stacks.size(), in.maybe, in.with,
                          100.0 * static_cast<double>(in.maybe) / static_cast<double>(in.with));
        return false;
    }
    const int calling = static_cast<int>(in.threads.size());
    t.threads = 1;
    std::string threads_note;
    if (region.threads > calling) {
        // Other threads worked while it was open: its time is the calling thread's wall time in the calls,
        // which its CPU time is only if that thread never slept.
        if (calling > 1) {
            why = fmt::format("it ran on {} threads while {} did its work: no single thread's time is its wall time",
                              calling, region.threads);
            return false;
        }
        const auto thread = sampling.threads.find(*in.threads.begin());
        const double share = thread == sampling.threads.end() ? 0 : on_cpu_share(thread->second, period);
        if (share < 0.9) {
            why = fmt::format("{} threads did its work, and the thread that called it was on a CPU only {:.0f}% of its "
                              "life: its CPU time in the calls may be less than their wall time",
                              region.threads, 100 * share);
            return false;
        }
        t.threads = region.threads;
        threads_note = fmt::format("; {} threads did its work while the calling thread, on a CPU {:.0f}% of its life, "
                                   "was in it",
                                   region.threads, 100 * std::min(1.0, share));
    } else if (calling > 1) {
        threads_note = fmt::format("; summed over the {} threads that called it", calling);
    }
    t.source = TimeSource::sampled_stacks;
    t.samples = in.with;
    t.seconds = static_cast<double>(in.with) * sampling.seconds_per_sample();
    t.note = fmt::format("inclusive CPU time from {} call-stack samples (+/-{:.0f}%, 1/sqrt(n)){}; {} of {} stacks not "
                         "exact (unwinding stopped early, or a tail call through a pointer was bridged){}",
                         in.with, 100.0 / std::sqrt(static_cast<double>(in.with)),
                         in.attributed ? fmt::format(", {} of them placed in it by the instrument run (stopped in "
                                                     "code that runs only inside it)",
                                                     in.attributed)
                                       : std::string{},
                         sampling.stacks_incomplete, sampling.stacks.size(), threads_note);
    return true;
}

} // namespace

std::string function_of_region(const std::string& region) {
    const std::string prefix = "<function ";
    if (region.rfind(prefix, 0) != 0 || region.size() <= prefix.size() + 1 || region.back() != '>') return {};
    return region.substr(prefix.size(), region.size() - prefix.size() - 1);
}

std::vector<std::string> functions_to_time(const std::vector<RegionCounts>& counts, long long max_timed_calls) {
    std::vector<std::string> out;
    for (const auto& c : counts) {
        if (function_of_region(c.name).empty() || c.calls > max_timed_calls) continue;
        for (const auto& m : c.matched)
            if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    return out;
}

bool is_leaf(const RegionCounts& region, const std::vector<RegionCounts>& exclusive) {
    double flops = 0, bytes = 0;
    bool any = false;
    for (const auto& f : exclusive) {
        if (!is_matched(region, f.name)) continue;
        any = true;
        flops += f.total_flops();
        bytes += f.bytes_loaded + f.bytes_stored;
    }
    return any && close(flops, region.total_flops()) && close(bytes, region.bytes_loaded + region.bytes_stored);
}

FunctionRegionTime function_region_time(const RegionCounts& region, const std::vector<RegionCounts>& exclusive,
                                        const CallTimingResult* timing, const SamplingResult* sampling,
                                        long long max_timed_calls) {
    FunctionRegionTime t;
    std::string why_not_timed;
    if (region.calls > max_timed_calls) {
        why_not_timed = fmt::format("called {} times, more than are timed call by call ({}, --max-timed-calls)",
                                    region.calls, max_timed_calls);
    } else if (!timing) {
        why_not_timed = "its calls were not timed";
    } else {
        long long calls = 0, unfinished = 0, unwound = 0;
        int breakpoints = 0;
        double seconds = 0, traced = 0;
        for (const auto& f : timing->functions) {
            if (std::find(region.matched.begin(), region.matched.end(), f.name) == region.matched.end()) continue;
            calls += f.calls;
            unfinished += f.unfinished;
            unwound += f.unwound;
            breakpoints += f.breakpoints;
            seconds += f.seconds;
            // As the tracer saw the calls, the stops included (set by time_function_calls).
            traced += f.interval_seconds > 0 ? f.interval_seconds
                                             : f.seconds + static_cast<double>(f.calls) * timing->stop_seconds;
        }
        // Calls not much longer than the stop overhead taken off each cannot be timed this way.
        const double per_call = calls > 0 ? seconds / static_cast<double>(calls) : 0;
        if (unfinished > 0)
            why_not_timed = fmt::format(
                "{} of its calls never returned (longjmp, exit, or their thread ended), so their time is unknown",
                unfinished);
        else if (calls == 0)
            why_not_timed = !timing->ok ? "timing its calls failed: " + timing->error
                            : breakpoints == 0
                                ? "not found in the program's files when it started (a library opened later by dlopen?)"
                                : "no call returned in the timed run";
        else if (per_call < 2 * timing->stop_seconds)
            // What was measured is the traced interval; the call's own length is that less the stop,
            // an estimate, and may come out as nothing: say the measured figure and how the stop was had.
            why_not_timed = fmt::format(
                "its calls are too short to time through ptrace stops: {:.3g} us each from entry to return as "
                "traced, against {:.3g} us for a stop ({})",
                traced / static_cast<double>(calls) * 1e6, timing->stop_seconds * 1e6,
                timing->stop_from_wall_time ? "from the traced run's extra wall time" : "as calibrated");
        if (why_not_timed.empty()) {
            t.source = TimeSource::timed_calls;
            t.threads = std::max(1, region.threads);
            t.seconds = seconds;
            t.timed_calls = calls;
            t.note = fmt::format("wall time of {} call{} timed at entry and return, less {:.3g} us each for the stop",
                                 calls, calls == 1 ? "" : "s", timing->stop_seconds * 1e6);
            if (calls < region.calls)
                t.note += fmt::format("; {} more ran inside them (recursion, or other threads meanwhile)",
                                      region.calls - calls);
            if (unwound > 0) t.note += fmt::format("; {} left by an exception, timed up to the throw", unwound);
            return t;
        }
    }
    if (sampling && sampling->call_stacks) {
        std::string why;
        if (time_from_stacks(region, exclusive, *sampling, t, why)) {
            t.note += " (" + why_not_timed + ")";
            return t;
        }
        why_not_timed += "; " + why;
    }
    if (sampling && is_leaf(region, exclusive)) {
        long long samples = 0;
        double seconds = 0;
        for (const auto& [name, f] : sampling->functions) {
            if (!is_matched(region, name)) continue;
            samples += f.samples;
            seconds += f.seconds;
        }
        if (samples >= kMinStackSamples) {
            t.source = TimeSource::leaf_self_time;
            t.threads = 1;
            t.seconds = seconds;
            t.samples = samples;
            t.note = fmt::format("self CPU time of a leaf, {} samples ({})", samples, why_not_timed);
            return t;
        }
        // As for call stacks: a time from a handful of samples (±30% and more) is not given.
        why_not_timed += samples == 0 ? "; no samples in it"
                                      : fmt::format("; only {} samples in it (at least {} are needed for its self "
                                                    "time)",
                                                    samples, kMinStackSamples);
    } else if (sampling && !sampling->call_stacks) {
        why_not_timed += "; its callees or other threads do part of its work, so its self time would not do";
    }
    t.note = "unknown: " + why_not_timed;
    return t;
}

std::vector<std::string> closest_names(const std::string& wanted, const std::vector<std::string>& candidates,
                                       std::size_t count) {
    const std::string key = short_name(wanted);
    std::vector<std::pair<std::size_t, std::string>> scored;
    std::set<std::string> seen;
    for (const auto& c : candidates) {
        const std::string name = folded_function_name(c);
        if (!seen.insert(name).second) continue;
        const std::string k = short_name(name);
        // "mm" against "mm.0": short names are compared without GCC's nesting number too.
        std::size_t d = std::min(edit_distance(key, k), edit_distance(key, without_gcc_nesting_number(k)));
        const bool contains = key.size() >= 3 && (k.find(key) != std::string::npos || key.find(k) != std::string::npos);
        if (contains) d = std::min<std::size_t>(d, 1);
        if (d <= std::max<std::size_t>(1, key.size() / 3) || contains) scored.emplace_back(d, name);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& [d, name] : scored) {
        if (out.size() == count) break;
        out.push_back(name);
    }
    return out;
}

} // namespace roofline::measure
