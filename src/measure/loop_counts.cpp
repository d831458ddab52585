#include "measure/loop_counts.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace roofline::measure {

void add_counts(RegionCounts& into, const RegionCounts& from, double factor) {
    for (const auto& [k, v] : from.flops) into.flops[k] += factor * v;
    for (const auto& [k, v] : from.flops_by_width) into.flops_by_width[k] += factor * v;
    into.bytes_loaded += factor * from.bytes_loaded;
    into.bytes_stored += factor * from.bytes_stored;
    for (const auto& [k, v] : from.bytes_by_level) into.bytes_by_level[k] += factor * v;
    for (const auto& [k, v] : from.cache_traffic) into.cache_traffic[k] += factor * v;
    into.instructions += factor * from.instructions;
    into.flops_x87 += factor * from.flops_x87;
    into.fp_flag_ops += factor * from.fp_flag_ops;
    // Which files ran the FLOPs: a sum's own split, else a function's or instruction's file.
    if (!from.flops_by_object.empty())
        for (const auto& [file, flops] : from.flops_by_object) into.flops_by_object[file] += factor * flops;
    else if (const double flops = from.total_flops(); !from.object.empty() && flops > 0)
        into.flops_by_object[from.object] += factor * flops;
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
    const auto last_instruction = [&](std::size_t block) -> std::optional<std::uint64_t> {
        const auto it = std::lower_bound(cfg.instructions.begin(), cfg.instructions.end(), blocks[block].end);
        if (it == cfg.instructions.begin() || *std::prev(it) < blocks[block].start) return std::nullopt;
        return *std::prev(it);
    };
    // How often control left `block` for `to`: by its last jump's taken side, or by falling through
    // (a conditional jump's other side, or any other instruction).
    const auto edge_runs = [&](std::size_t block, std::uint64_t to) {
        const auto last = last_instruction(block);
        if (!last) return 0.0;
        const auto* jump = jump_at(*last);
        if (jump && jump->target == to) return jump->conditional ? taken(*last) : runs(*last);
        return jump && jump->conditional ? runs(*last) - taken(*last) : runs(*last);
    };
    // Work, not loop control: FLOPs, stores or calls.
    const auto does_work = [&](std::size_t block) {
        const auto from = at.lower_bound(blocks[block].start), to = at.lower_bound(blocks[block].end);
        for (auto it = from; it != to; ++it)
            if (it->second->counts.total_flops() > 0 || it->second->counts.bytes_stored > 0) return true;
        const auto call = std::lower_bound(cfg.calls.begin(), cfg.calls.end(), blocks[block].start,
                                           [](const FunctionCfg::Call& c, std::uint64_t v) { return c.at < v; });
        return call != cfg.calls.end() && call->at < blocks[block].end;
    };
    for (std::size_t l = 0; l < found.loops.size(); ++l) {
        const auto& loop = found.forest.loops[l];
        auto& counts = out.loops[l];
        counts.self.name = counts.inclusive.name = found.loops[l].name;
        for (const std::size_t entry : loop.entries) counts.header_runs += runs(blocks[entry].start);
        for (const auto& edge : loop.back_edges) counts.back_edges += edge_runs(edge.from, blocks[edge.to].start);
        counts.entries = std::max(0.0, counts.header_runs - counts.back_edges);
        // Exits taken at a header that only tests (no jump back from it, no work in it): tests
        // that ran no body. A header that does work (a loop entered in its middle) ran the body.
        // A loop also tested at its bottom (a jump back that may leave it: a rotated loop) whose
        // other blocks neither work nor read data (a search: its body is its header's compare)
        // takes its header's exits as breaks after its body began: a search's `if (a[i] == key)
        // return` compared 4 elements in 4 runs of its header, not 3. Where the other blocks do the
        // work, a header that only tests is the loop's own test even so: `while (i < n) { s +=
        // a[i] * a[i]; i++; if (s > lim) break; }` (gcc -O1, clang -O2: the test at the top, the
        // break a conditional jump back) ran its body n times in n + 1 runs of its header.
        const auto in_loop = [&](std::size_t b) { return std::binary_search(loop.blocks.begin(), loop.blocks.end(), b); };
        const auto tests_and_may_leave = [&](std::size_t block) {
            const auto last = last_instruction(block);
            const auto* test = last ? jump_at(*last) : nullptr;
            return test && test->conditional &&
                   std::any_of(blocks[block].successors.begin(), blocks[block].successors.end(),
                               [&](std::size_t next) { return !in_loop(next); });
        };
        const auto works_or_reads = [&](std::size_t block) {
            if (does_work(block)) return true;
            const auto from = at.lower_bound(blocks[block].start), to = at.lower_bound(blocks[block].end);
            return std::any_of(from, to, [](const auto& ic) { return ic.second->counts.bytes_loaded > 0; });
        };
        const bool body_beyond_headers = std::any_of(loop.blocks.begin(), loop.blocks.end(), [&](std::size_t b) {
            return std::find(loop.entries.begin(), loop.entries.end(), b) == loop.entries.end() && works_or_reads(b);
        });
        const bool body_in_header = !body_beyond_headers &&
                                    std::any_of(loop.back_edges.begin(), loop.back_edges.end(),
                                                [&](const BackEdge& e) { return tests_and_may_leave(e.from); });
        double exits_at_top = 0;
        for (const std::size_t entry : loop.entries) {
            if (body_in_header) break;
            const bool jumps_back = std::any_of(loop.back_edges.begin(), loop.back_edges.end(),
                                                [&](const BackEdge& e) { return e.from == entry; });
            const auto last = last_instruction(entry);
            const auto* test = last ? jump_at(*last) : nullptr;
            if (jumps_back || !test || !test->conditional || does_work(entry)) continue;
            for (const std::size_t next : blocks[entry].successors)
                if (!in_loop(next)) exits_at_top += edge_runs(entry, blocks[next].start);
        }
        counts.iterations = std::max(0.0, counts.header_runs - exits_at_top);
    }
    return out;
}

} // namespace roofline::measure
