#include "measure/process_code.hpp"
#include "measure/timed_build_loops.hpp"

#include "measure/clone_names.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/function_loops.hpp"
#include "measure/loop_counts.hpp"
#include "measure/source_lines.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

namespace roofline::measure {

namespace {

bool overlap(const SourceRange& a, const SourceRange& b) {
    return a.file == b.file && a.first_line <= b.last_line && b.first_line <= a.last_line;
}

// One machine loop of either build, as the match sees it.
struct MachineLoop {
    bool timed = false;
    std::size_t index = 0;  // counted: into ProgramLoops::loops; timed: into the timed FunctionLoops
    int depth = 1;
    std::optional<SourceRange> source;
    std::string name;
};

struct Groups {
    std::vector<std::size_t> parent;
    std::size_t find(std::size_t i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
    void join(std::size_t a, std::size_t b) { parent[find(a)] = find(b); }
};

// The timed build's samples of one function: its loops' self and inclusive samples, and those of its code in no loop.
struct TimedFunction {
    FunctionLoops found;
    std::vector<double> self, inclusive;
    double samples = 0, outside = 0;
};

TimedFunction time_function(FunctionLoops found, const std::map<std::uint64_t, long long>& samples) {
    TimedFunction t;
    t.found = std::move(found);
    t.self.assign(t.found.loops.size(), 0);
    t.inclusive.assign(t.found.loops.size(), 0);
    for (auto it = samples.lower_bound(t.found.cfg.start); it != samples.end() && it->first < t.found.cfg.end; ++it) {
        const auto n = static_cast<double>(it->second);
        t.samples += n;
        auto loop = loop_at(t.found, it->first);
        if (loop == kNoLoop) {
            t.outside += n;
            continue;
        }
        t.self[loop] += n;
        for (; loop != kNoLoop; loop = t.found.forest.loops[loop].parent) t.inclusive[loop] += n;
    }
    return t;
}

} // namespace

ProgramLoops loops_timed_in_other_build(ProgramLoops counted, const std::string& counted_file,
                                        const std::string& timed_file, const SamplingResult& sampling,
                                        const RegionCounts& program, double min_share, const OtherBuildRegion& region) {
    ProgramLoops out;
    out.notes = std::move(counted.notes);
    out.region = counted.region;
    const bool in_region = region.whole_loops != nullptr;
    // The region's share of `part` of the whole run's `whole` (runs of instructions): 1 for the whole run.
    const auto region_share = [&](double part, double whole) {
        if (!in_region) return 1.0;
        return whole > 0 ? std::min(1.0, std::max(0.0, part / whole)) : 0.0;
    };
    const auto whole_loop = [&](const MeasuredLoop& m) -> const MeasuredLoop* {
        if (!in_region) return nullptr;
        for (const auto& w : region.whole_loops->loops)
            if (w.function == m.function && w.object == m.object && w.loop.name == m.loop.name) return &w;
        return nullptr;
    };
    const auto whole_function = [&](const MeasuredLoopFunction& f) -> const MeasuredLoopFunction* {
        if (!in_region) return nullptr;
        for (const auto& w : region.whole_loops->functions)
            if (w.function == f.function && w.object == f.object) return &w;
        return nullptr;
    };
    out.sampled = true;
    out.calls_timed = false;
    out.cache_scope = counted.cache_scope;
    out.sample_period_seconds = sampling.period_seconds;
    out.sampled_runs = sampling.runs;
    const auto counted_path = canonical_file(counted_file), timed_path = canonical_file(timed_file);
    const auto timed_name = std::filesystem::path(timed_file).filename().string();
    const auto counted_name = std::filesystem::path(counted_file).filename().string();
    out.notes.push_back(fmt::format(
        "--loops with --counts-from: {0}'s loops are found and counted in the counting build {1} (its FLOPs and "
        "bytes, by instruction under Valgrind) and timed by the samples of {0}, whose machine code differs: each "
        "build's loops are found in its own code and matched by function and source lines (DWARF), the machine "
        "loops of one source loop (vector body, peel, remainder) joined in each build",
        timed_name, counted_name));

    std::map<std::uint64_t, long long> timed_samples;
    for (const auto& [at, n] : sampling.code_addresses)
        if (canonical_file(at.first) == timed_path) timed_samples[at.second] += n;
    // A region's: the whole run's times its share of the program's instructions.
    const double all_samples =
        static_cast<double>(sampling.samples) *
        (in_region && region.whole_program ? region_share(program.instructions, region.whole_program->instructions) : 1.0);
    const auto share_of = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
    // The cut, as program_loops makes it, tallied for the line under the table.
    ListedShareTally tally(program.total_flops());
    const auto kept = [&](const RegionCounts& inclusive, double samples, const RegionCounts& self, double self_samples) {
        const double share = std::max({share_of(inclusive.total_flops(), program.total_flops()),
                                       share_of(inclusive.instructions, program.instructions),
                                       share_of(samples, all_samples)});
        tally.add(share >= min_share, self.total_flops(), self_samples, share);
        return share >= min_share;
    };

    const ElfSymbols counted_symbols(counted_file);
    const ElfSymbols symbols(timed_file);
    const SourceLines lines(timed_file);
    std::size_t left_out_calls = 0;
    // The counting build's functions found in the timed build: by name, else a GCC clone
    // (foo.constprop.0 in one, foo in the other) when it is the only one of its origin.
    std::vector<std::string> counted_names, timed_names;
    for (const auto& f : counted.functions)
        if (canonical_file(f.object) == counted_path) counted_names.push_back(f.function);
    for (const auto& symbol : symbols.functions()) timed_names.push_back(symbol.name);
    const auto matched = match_clones(counted_names, timed_names);
    for (auto& f : counted.functions) {
        std::vector<std::size_t> mine;
        for (std::size_t i = 0; i < counted.loops.size(); ++i)
            if (counted.loops[i].function == f.function && counted.loops[i].object == f.object) mine.push_back(i);
        if (canonical_file(f.object) != counted_path) {
            // A library's: the same file in both runs, its samples found by address (program_loops).
            bool any = false;
            for (const auto i : mine) {
                auto& m = counted.loops[i];
                if (!kept(m.counts.inclusive, static_cast<double>(m.inclusive_samples) + m.call_samples, m.counts.self,
                          static_cast<double>(m.self_samples)))
                    continue;
                out.loops.push_back(std::move(m));
                any = true;
            }
            if (any) out.functions.push_back(std::move(f));
            out.loops_found += mine.size();
            continue;
        }
        const auto match = matched.find(f.function);
        const auto* symbol = match != matched.end() && !match->second.timed.empty()
                                 ? symbols.symbol_named(match->second.timed)
                                 : nullptr;
        auto found = symbol ? function_loops(symbols, lines, *symbol) : std::nullopt;
        if (!found) {
            const auto& candidates = match != matched.end() ? match->second.candidates : std::vector<std::string>{};
            out.notes.push_back(
                candidates.empty()
                    ? fmt::format("{}: not a function of {} (inlined there, or named otherwise): its {} loop(s) "
                                  "counted in {} have no time and are left out",
                                  f.function, timed_name, mine.size(), counted_name)
                    : fmt::format("{}: not a function of {} by that name, and of the functions there named after the "
                                  "same origin ({}: GCC's clones) none is its alone, so none is taken for it: its {} "
                                  "loop(s) counted in {} have no time and are left out",
                                  f.function, timed_name, fmt::join(candidates, ", "), mine.size(), counted_name));
            continue;
        }
        if (match->second.by_origin)
            out.notes.push_back(fmt::format(
                "{0}: timed as {1} of {2}, the only function there of the same origin ({3}; GCC names a clone "
                "after its origin: .constprop, .isra, .part, .cold), its loops matched by source lines as any",
                f.function, match->second.timed, timed_name, clone_origin(f.function)));
        const auto timed = time_function(std::move(*found), timed_samples);
        for (const auto& n : timed.found.notes) out.notes.push_back(timed_name + ": " + n);

        // Every machine loop of both builds; joined where one source loop became several.
        std::vector<MachineLoop> all;
        for (const auto i : mine) {
            const auto& m = counted.loops[i];
            all.push_back({false, i, m.depth, m.loop.source, m.loop.name});
        }
        for (std::size_t l = 0; l < timed.found.loops.size(); ++l)
            all.push_back({true, l, timed.found.forest.loops[l].depth, timed.found.loops[l].source,
                           timed.found.loops[l].name});
        Groups groups{std::vector<std::size_t>(all.size())};
        std::iota(groups.parent.begin(), groups.parent.end(), std::size_t{0});
        // At one depth loops of one function are disjoint in the machine code: overlapping lines there
        // are one source loop (an outer loop's lines hold its inner loops', and stay apart by depth).
        for (std::size_t a = 0; a < all.size(); ++a)
            for (std::size_t b = a + 1; b < all.size(); ++b)
                if (all[a].source && all[b].source && all[a].depth == all[b].depth &&
                    overlap(*all[a].source, *all[b].source))
                    groups.join(a, b);
        std::map<std::size_t, std::vector<std::size_t>> by_group;  // in the order of the counted loops
        for (std::size_t a = 0; a < all.size(); ++a) by_group[groups.find(a)];
        std::vector<std::size_t> order;
        for (std::size_t a = 0; a < all.size(); ++a) {
            auto& members = by_group[groups.find(a)];
            if (members.empty()) order.push_back(groups.find(a));
            members.push_back(a);
        }

        std::vector<MeasuredLoop> source_loops;
        std::vector<std::vector<std::string>> counted_names;  // per source loop: its counted machine loops' names
        std::vector<std::string> alone;
        double loops_self_samples = 0;
        for (const auto g : order) {
            const auto& members = by_group[g];
            const bool has_counted = std::any_of(members.begin(), members.end(), [&](auto a) { return !all[a].timed; });
            const bool has_timed = std::any_of(members.begin(), members.end(), [&](auto a) { return all[a].timed; });
            if (!has_counted || !has_timed) {
                for (const auto a : members) {
                    const auto& ml = all[a];
                    const double n = ml.timed ? timed.self[ml.index] : 0;
                    alone.push_back(ml.timed ? fmt::format("{} of {} ({:.0f} samples, not in a loop's time)", ml.name,
                                                           timed_name, n)
                                             : fmt::format("{} of {} ({:.0f} FLOPs, not in a loop's counts)", ml.name,
                                                           counted_name,
                                                           counted.loops[ml.index].counts.self.total_flops()));
                }
                continue;
            }
            MeasuredLoop s;
            s.function = f.function;
            s.object = f.object;
            s.depth = all[members.front()].depth;
            SourceRange range = *all[members.front()].source;
            std::uint64_t header = UINT64_MAX;
            double self_samples = 0, inclusive_samples = 0;
            // A region's: its counted machine loops' runs inside it and over the whole run.
            double region_self = 0, whole_self = 0, region_inclusive = 0, whole_inclusive = 0;
            for (const auto a : members) {
                const auto& ml = all[a];
                range.first_line = std::min(range.first_line, ml.source->first_line);
                range.last_line = std::max(range.last_line, ml.source->last_line);
                if (ml.timed) {
                    self_samples += timed.self[ml.index];
                    inclusive_samples += timed.inclusive[ml.index];
                    continue;
                }
                const auto& m = counted.loops[ml.index];
                if (const auto* w = whole_loop(m)) {
                    region_self += m.counts.self.instructions;
                    region_inclusive += m.counts.inclusive.instructions;
                    whole_self += w->counts.self.instructions;
                    whole_inclusive += w->counts.inclusive.instructions;
                }
                add_counts(s.counts.self, m.counts.self);
                add_counts(s.counts.inclusive, m.counts.inclusive);
                add_counts(s.counts.calls, m.counts.calls);
                s.counts.header_runs += m.counts.header_runs;
                s.counts.iterations += m.counts.iterations;
                s.counts.back_edges += m.counts.back_edges;
                s.counts.entries += m.counts.entries;
                header = std::min(header, m.loop.header);
                s.loop.instructions.insert(s.loop.instructions.end(), m.loop.instructions.begin(),
                                           m.loop.instructions.end());
                s.notes.insert(s.notes.end(), m.notes.begin(), m.notes.end());
                if (s.parent.empty()) s.parent = m.parent;  // its counted name, renamed below
            }
            std::sort(s.loop.instructions.begin(), s.loop.instructions.end());
            s.loop.header = header;
            s.loop.source = range;
            s.loop.name = source_range_text(range);
            self_samples *= region_share(region_self, whole_self);
            inclusive_samples *= region_share(region_inclusive, whole_inclusive);
            s.self_samples = std::llround(self_samples);
            s.inclusive_samples = std::llround(inclusive_samples);
            loops_self_samples += self_samples;
            counted_names.emplace_back();
            for (const auto a : members)
                if (!all[a].timed) counted_names.back().push_back(all[a].name);
            source_loops.push_back(std::move(s));
        }
        std::map<std::string, int> uses;
        for (const auto& s : source_loops) ++uses[s.loop.name];
        std::map<std::string, std::string> renamed;  // a counted machine loop's name -> its source loop's
        for (std::size_t i = 0; i < source_loops.size(); ++i) {
            auto& s = source_loops[i];
            // Two source loops on the same lines (a macro's): told apart by the counting build's header.
            if (uses[s.loop.name] > 1) {
                const auto* counted_symbol = counted_symbols.symbol_named(f.function);
                s.loop.name += fmt::format(" @+{:#x}", s.loop.header - (counted_symbol ? counted_symbol->start : 0));
            }
            for (const auto& n : counted_names[i]) renamed[n] = s.loop.name;
        }
        for (auto& s : source_loops) {
            const auto p = renamed.find(s.parent);
            s.parent = p == renamed.end() ? "" : p->second;
        }
        if (!alone.empty())
            out.notes.push_back(fmt::format(
                "{}: {} loop(s) of one build have no loop of the same depth and source lines in the other (the "
                "compilers made them differently; both builds' function still holds them): {}",
                f.function, alone.size(), fmt::to_string(fmt::join(alone, "; "))));

        const auto* wf = whole_function(f);
        f.samples = std::llround(timed.samples *
                                 (wf ? region_share(f.counts.instructions, wf->counts.instructions) : region_share(0, 0)));
        f.outside_samples = std::llround(
            timed.outside * (wf ? region_share(f.outside.instructions, wf->outside.instructions) : region_share(0, 0)));
        f.loops = source_loops.size();
        bool any = false;
        for (auto& s : source_loops) {
            ++out.loops_found;
            if (!kept(s.counts.inclusive, static_cast<double>(s.inclusive_samples), s.counts.self,
                      static_cast<double>(s.self_samples)))
                continue;
            if (s.counts.calls.total_flops() > 0) ++left_out_calls;
            out.loops.push_back(std::move(s));
            any = true;
        }
        if (any) out.functions.push_back(std::move(f));
    }
    if (left_out_calls > 0)
        out.notes.push_back(fmt::format(
            "{} loop(s) call functions that did FLOPs: with --counts-from they get no point 'with its calls' (their "
            "callees' samples are not shared out by the counting build's call counts)",
            left_out_calls));
    out.kept_share = tally.finish(all_samples, out.seconds_per_sample());
    return out;
}

} // namespace roofline::measure
