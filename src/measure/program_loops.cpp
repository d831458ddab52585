#include "measure/program_loops.hpp"

#include "measure/merge.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace roofline::measure {

namespace {

// The same file however it was named (the tool's resolved path, the kernel's mapping).
std::string canonical(const std::string& path) {
    std::error_code ec;
    const auto c = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : c.string();
}

struct FunctionResult {
    double flops = 0, instructions = 0;
    MeasuredLoopFunction function;
    std::vector<MeasuredLoop> loops;
};

} // namespace

ProgramLoops program_loops(const std::vector<InstructionCounts>& instructions,
                           const std::vector<RegionCounts>& functions, const RegionCounts& program,
                           const SamplingResult* sampling, double min_share) {
    ProgramLoops out;
    out.sampled = sampling != nullptr;
    out.sample_period_seconds = sampling ? sampling->period_seconds : 0;

    // Samples by file (canonical) and link-time address.
    std::map<std::string, std::map<std::uint64_t, long long>> samples_in;
    long long all_samples = 0;
    if (sampling)
        for (const auto& [at, n] : sampling->code_addresses) {
            samples_in[canonical(at.first)][at.second] += n;
            all_samples += n;
        }

    std::map<std::string, std::vector<const InstructionCounts*>> by_object;
    for (const auto& ic : instructions)
        if (!ic.counts.object.empty()) by_object[ic.counts.object].push_back(&ic);

    std::vector<FunctionResult> results;
    for (const auto& [object, counted] : by_object) {
        const ElfSymbols symbols(object);
        if (!symbols.loaded()) {
            out.notes.push_back(fmt::format("{}: not a readable ELF file: its loops are not found", object));
            continue;
        }
        const SourceLines lines(object);
        const auto& samples = samples_in[canonical(object)];
        std::map<const ElfSymbols::Symbol*, std::vector<InstructionCounts>> by_function;
        for (const auto* ic : counted)
            if (const auto* symbol = symbols.symbol_at(ic->address)) by_function[symbol].push_back(*ic);
        for (const auto& [symbol, mine] : by_function) {
            const auto found = function_loops(symbols, lines, *symbol);
            if (!found) continue;
            // An incomplete graph may hide every loop of the function: said even when none was found.
            for (const auto& n : found->notes) out.notes.push_back(n);
            if (found->loops.empty()) continue;
            const auto counts = loop_counts(*found, mine);
            if (counts.unplaced > 0)
                out.notes.push_back(fmt::format("{}: {} counted instruction(s) start where the decoded code has none: "
                                                "counted outside its loops",
                                                symbol->name, counts.unplaced));
            // The tool's own total of the function must be what its loops and the rest add up to.
            // (a named copy: clang before 16 cannot capture a structured binding in a lambda)
            const std::string& function_name = symbol->name;
            const auto tool = std::find_if(functions.begin(), functions.end(),
                                           [&](const RegionCounts& f) { return f.name == function_name; });
            if (tool != functions.end() && (tool->instructions != counts.function.instructions ||
                                            tool->total_flops() != counts.function.total_flops()))
                out.notes.push_back(fmt::format(
                    "{}: its loops and the code outside them hold {:.0f} instructions and {:.0f} FLOPs, the tool's "
                    "total for the function {:.0f} and {:.0f} (another function of the same name?)",
                    symbol->name, counts.function.instructions, counts.function.total_flops(), tool->instructions,
                    tool->total_flops()));
            FunctionResult fr{counts.function.total_flops(), counts.function.instructions,
                              {symbol->name, object, counts.function, counts.outside, found->loops.size(), 0, 0},
                              {}};
            std::vector<long long> self_samples(found->loops.size(), 0), inclusive_samples(found->loops.size(), 0);
            for (auto it = samples.lower_bound(found->cfg.start); it != samples.end() && it->first < found->cfg.end; ++it) {
                std::size_t l = loop_at(*found, it->first);
                fr.function.samples += it->second;
                if (l != kNoLoop) self_samples[l] += it->second;
                else fr.function.outside_samples += it->second;
                for (; l != kNoLoop; l = found->forest.loops[l].parent) inclusive_samples[l] += it->second;
            }
            for (std::size_t l = 0; l < found->loops.size(); ++l) {
                const auto& shape = found->forest.loops[l];
                MeasuredLoop m;
                m.function = symbol->name;
                m.object = object;
                m.loop = found->loops[l];
                m.depth = shape.depth;
                if (shape.parent != kNoLoop) m.parent = found->loops[shape.parent].name;
                m.counts = counts.loops[l];
                m.self_samples = self_samples[l];
                m.inclusive_samples = inclusive_samples[l];
                fr.loops.push_back(std::move(m));
            }
            results.push_back(std::move(fr));
        }
    }
    std::stable_sort(results.begin(), results.end(), [](const FunctionResult& a, const FunctionResult& b) {
        return std::pair(a.flops, a.instructions) > std::pair(b.flops, b.instructions);
    });

    const auto share_of = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
    for (auto& fr : results) {
        bool kept = false;
        for (auto& m : fr.loops) {
            ++out.loops_found;
            const double share = std::max({share_of(m.counts.inclusive.total_flops(), program.total_flops()),
                                           share_of(m.counts.inclusive.instructions, program.instructions),
                                           share_of(static_cast<double>(m.inclusive_samples),
                                                    static_cast<double>(all_samples))});
            if (share >= min_share) {
                out.loops.push_back(std::move(m));
                kept = true;
            }
        }
        if (kept) out.functions.push_back(std::move(fr.function));
    }
    return out;
}

std::vector<Point> loop_points(const ProgramLoops& loops) {
    std::vector<Point> points;
    if (!loops.sampled) return points;
    const auto timed = [&](Point& p, const std::string& series, const RegionCounts& counts, long long samples) {
        p.series = series;
        apply_counts(p, counts);
        p.seconds = static_cast<double>(samples) * loops.sample_period_seconds;
        p.threads = 1;  // CPU time summed over threads: compare with one thread's roofline
        p.source = PointOrigin::instrument_sampling;
        p.details["samples"] = static_cast<double>(samples);
        p.details["sample_period_seconds"] = loops.sample_period_seconds;
    };
    for (const auto& f : loops.functions) {
        const auto mine = [&](const MeasuredLoop& m) { return m.function == f.function && m.object == f.object; };
        // A loop with FLOPs but no samples (a vectorized loop's remainder, seldom run) has no
        // time and no point: its FLOPs are said on its function's point.
        double unsampled_flops = 0;
        for (const auto& m : loops.loops)
            if (mine(m) && m.self_samples <= 0) unsampled_flops += m.counts.self.total_flops();
        // The function's own point first: its series is drawn from it to its loops.
        if (f.samples > 0 && f.counts.total_flops() > 0) {
            Point p;
            p.name = f.function;
            p.label = f.function;
            timed(p, f.function, f.counts, f.samples);
            p.details["loop_function_loops"] = static_cast<double>(f.loops);
            p.details["loop_outside_flops"] = f.outside.total_flops();
            p.details["loop_outside_instructions"] = f.outside.instructions;
            p.details["loop_outside_samples"] = static_cast<double>(f.outside_samples);
            p.details["loop_unsampled_flops"] = unsampled_flops;
            points.push_back(std::move(p));
        }
        for (const auto& m : loops.loops) {
            if (!mine(m)) continue;
            // A point needs a time and work: a loop of no FLOPs of its own (an outer loop's
            // control, a copy) has no place on the chart, and stays in the table.
            if (m.self_samples <= 0 || m.counts.self.total_flops() <= 0) continue;
            Point p;
            p.name = m.function + ": " + m.loop.name;
            p.label = m.loop.name;
            timed(p, m.function, m.counts.self, m.self_samples);
            p.details["loop_depth"] = m.depth;
            p.details["loop_iterations"] = m.counts.iterations;
            p.details["loop_entries"] = m.counts.entries;
            p.details["loop_inclusive_flops"] = m.counts.inclusive.total_flops();
            p.details["loop_inclusive_samples"] = static_cast<double>(m.inclusive_samples);
            if (m.loop.source) {
                p.details["loop_first_line"] = m.loop.source->first_line;
                p.details["loop_last_line"] = m.loop.source->last_line;
            }
            points.push_back(std::move(p));
        }
    }
    return points;
}

} // namespace roofline::measure
