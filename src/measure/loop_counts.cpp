#include "measure/loop_counts.hpp"

#include <algorithm>
#include <map>

namespace roofline::measure {

void add_counts(RegionCounts& into, const RegionCounts& from, double factor) {
    for (const auto& [k, v] : from.flops) into.flops[k] += factor * v;
    for (const auto& [k, v] : from.flops_by_width) into.flops_by_width[k] += factor * v;
    into.bytes_loaded += factor * from.bytes_loaded;
    into.bytes_stored += factor * from.bytes_stored;
    for (const auto& [k, v] : from.bytes_by_level) into.bytes_by_level[k] += factor * v;
    for (const auto& [k, v] : from.cache_traffic) into.cache_traffic[k] += factor * v;
    into.instructions += factor * from.instructions;
}

std::size_t loop_at(const FunctionLoops& found, std::uint64_t address) {
    const auto& cfg = found.cfg;
    const auto& blocks = cfg.graph.blocks;
    if (!std::binary_search(cfg.instructions.begin(), cfg.instructions.end(), address)) return kNoLoop;
    // Blocks are in address order: the last one starting at or before the address.
    const auto it = std::upper_bound(blocks.begin(), blocks.end(), address,
                                     [](std::uint64_t v, const CfgBlock& b) { return v < b.start; });
    if (it == blocks.begin()) return kNoLoop;
    const auto b = static_cast<std::size_t>(it - blocks.begin()) - 1;
    return address < blocks[b].end ? found.forest.innermost_loop[b] : kNoLoop;
}

FunctionLoopCounts loop_counts(const FunctionLoops& found, const std::vector<InstructionCounts>& instructions) {
    const auto& cfg = found.cfg;
    const auto& blocks = cfg.graph.blocks;
    FunctionLoopCounts out;
    out.loops.resize(found.loops.size());
    out.function.name = out.outside.name = cfg.function;

    std::map<std::uint64_t, const InstructionCounts*> at;  // this function's, by address
    for (const auto& ic : instructions)
        if (ic.address >= cfg.start && ic.address < cfg.end) at[ic.address] = &ic;

    for (const auto& [address, ic] : at) {
        add_counts(out.function, ic->counts);
        if (!std::binary_search(cfg.instructions.begin(), cfg.instructions.end(), address)) ++out.unplaced;
        std::size_t loop = loop_at(found, address);
        if (loop == kNoLoop) {
            add_counts(out.outside, ic->counts);
            continue;
        }
        add_counts(out.loops[loop].self, ic->counts);
        for (; loop != kNoLoop; loop = found.forest.loops[loop].parent) add_counts(out.loops[loop].inclusive, ic->counts);
    }

    const auto runs = [&](std::uint64_t a) { return at.count(a) ? at.at(a)->counts.instructions : 0.0; };
    const auto taken = [&](std::uint64_t a) { return at.count(a) ? at.at(a)->taken : 0.0; };
    const auto jump_at = [&](std::uint64_t a) -> const FunctionCfg::Jump* {
        const auto it = std::lower_bound(cfg.jumps.begin(), cfg.jumps.end(), a,
                                         [](const FunctionCfg::Jump& j, std::uint64_t v) { return j.at < v; });
        return it != cfg.jumps.end() && it->at == a ? &*it : nullptr;
    };
    for (std::size_t l = 0; l < found.loops.size(); ++l) {
        const auto& loop = found.forest.loops[l];
        auto& counts = out.loops[l];
        counts.self.name = counts.inclusive.name = found.loops[l].name;
        for (const std::size_t entry : loop.entries) counts.header_runs += runs(blocks[entry].start);
        for (const auto& edge : loop.back_edges) {
            const std::uint64_t header = blocks[edge.to].start;
            // The back edge leaves its block's last instruction: as that jump's taken side,
            // or by falling through (a conditional jump's other side, or any other instruction).
            const auto last_it = std::lower_bound(cfg.instructions.begin(), cfg.instructions.end(), blocks[edge.from].end);
            if (last_it == cfg.instructions.begin()) continue;
            const std::uint64_t last = *std::prev(last_it);
            const auto* jump = jump_at(last);
            if (jump && jump->target == header)
                counts.iterations += jump->conditional ? taken(last) : runs(last);
            else
                counts.iterations += jump && jump->conditional ? runs(last) - taken(last) : runs(last);
        }
        counts.entries = std::max(0.0, counts.header_runs - counts.iterations);
    }
    return out;
}

} // namespace roofline::measure
