#include "cli/measure_loops.hpp"

#include "render/loop_table.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

namespace roofline::cli {

ListedShare listed_share_line(const measure::FunctionListShare& s, const char* noun, bool own_code) {
    return {noun, s.listed, s.left_out, s.all_flops, s.listed_flops, s.left_out_flops, s.largest_left_out_flops,
            s.all_seconds, s.listed_seconds, s.lower_min_share_percent, s.lower_lists, own_code, s.left_out_seconds};
}

void print_loops(const measure::ProgramLoops& loops, double min_share_percent, std::set<std::string>& said) {
    std::vector<LoopRow> rows;
    for (const auto& m : loops.loops) {
        LoopRow r;
        r.function = m.function;
        r.name = m.loop.name;
        r.depth = m.depth;
        r.self_flops = m.counts.self.total_flops();
        r.inclusive_flops = m.counts.inclusive.total_flops();
        r.call_flops = m.counts.calls.total_flops();
        r.self_bytes = m.counts.self.bytes_loaded + m.counts.self.bytes_stored;
        if (const auto it = m.counts.self.bytes_by_level.find("DRAM"); it != m.counts.self.bytes_by_level.end())
            r.self_dram_bytes = it->second;
        r.iterations = m.counts.iterations;
        r.entries = m.counts.entries;
        if (loops.sampled) r.self_samples = m.self_samples;
        r.seconds_per_sample = loops.seconds_per_sample();
        rows.push_back(std::move(r));
    }
    std::string within;
    for (const auto& f : loops.within_functions) within += (within.empty() ? "" : ", ") + terminal_text(f);
    if (!within.empty()) within = " run inside the calls of " + within + " (--region-function)";
    if (!loops.region.empty()) within = " run inside region " + terminal_text(loops.region) + within;
    // The title on one line, what the columns mean in short lines under it.
    fmt::print("\n{}", render_loop_table(
                           fmt::format("loops{} with at least {}% of the {}'s FLOPs, instructions or samples ({} of "
                                       "{} found in its machine code; --min-share):\n"
                                       "  counts from the instrument engine, by instruction; iterations: times its "
                                       "machine-code body ran (vectorized or unrolled, once per several source "
                                       "iterations)\n"
                                       "  self: the loop's own code, its inner loops left out (as are L1 bytes, "
                                       "FLOP/byte and DRAM bytes; a write-back is counted where its line is "
                                       "evicted)\n"
                                       "  incl: with them and the functions it calls\n"
                                       "  call: those functions' counts, each shared among its call sites by their calls\n"
                                       "  {}",
                                       within, min_share_percent, loops.region.empty() ? "program" : "region",
                                       loops.loops.size(), loops.loops_found,
                                       loops.sampled ? "CPU s: the samples of its own code in a sampled native run, "
                                                       "+/- one over the square root of their number"
                                                     : "no sampled run, so no time"),
                           rows));
    fmt::print("{}", render_listed_share(listed_share_line(loops.kept_share, "loop", true)));
    for (const auto& n : loops.notes)
        if (said.insert(n).second) fmt::print("note: {}\n", n);
}

} // namespace roofline::cli
