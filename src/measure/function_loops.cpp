#include "measure/function_loops.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>

namespace roofline::measure {

std::optional<FunctionLoops> function_loops(const ElfSymbols& symbols, const SourceLines& lines,
                                            const std::string& function) {
    const auto* symbol = symbols.symbol_named(function);
    return symbol ? function_loops(symbols, lines, *symbol) : std::nullopt;
}

std::optional<FunctionLoops> function_loops(const ElfSymbols& symbols, const SourceLines& lines,
                                            const ElfSymbols::Symbol& symbol) {
    auto cfg = function_cfg(symbols, symbol);
    if (!cfg) return std::nullopt;
    FunctionLoops found;
    found.cfg = std::move(*cfg);
    found.forest = find_loops(found.cfg.graph);
    const auto& blocks = found.cfg.graph.blocks;
    const auto& instructions = found.cfg.instructions;

    for (const auto& loop : found.forest.loops) {
        NamedLoop named;
        named.header = blocks[loop.header].start;
        for (const std::size_t b : loop.blocks) {
            auto it = std::lower_bound(instructions.begin(), instructions.end(), blocks[b].start);
            for (; it != instructions.end() && *it < blocks[b].end; ++it) named.instructions.push_back(*it);
        }
        std::sort(named.instructions.begin(), named.instructions.end());
        named.source = lines.range_of(named.instructions);
        named.name = named.source ? source_range_text(*named.source)
                                  : fmt::format("{}+{:#x}", found.cfg.function, named.header - found.cfg.start);
        if (loop.irreducible) named.name += fmt::format(" (entered at {} places)", loop.entries.size());
        found.loops.push_back(std::move(named));
    }
    std::map<std::string, int> uses;
    for (const auto& l : found.loops) ++uses[l.name];
    for (auto& l : found.loops)
        if (l.source && uses[l.name] > 1) l.name += fmt::format(" @+{:#x}", l.header - found.cfg.start);

    for (const auto& reason : found.cfg.incomplete)
        found.notes.push_back(fmt::format("{}: its control-flow graph is incomplete, loops may be missing: {}",
                                          found.cfg.function, reason));
    for (std::size_t l = 0; l < found.forest.loops.size(); ++l) {
        const auto& loop = found.forest.loops[l];
        if (!loop.irreducible) continue;
        std::string entries;
        for (const std::size_t e : loop.entries)
            entries += fmt::format("{}+{:#x}", entries.empty() ? "" : ", ", blocks[e].start - found.cfg.start);
        found.notes.push_back(fmt::format(
            "{}: a cycle entered at more than one place ({}) is not a natural loop: it is listed as the loop '{}' "
            "(its entries' runs less its jumps back to them are its entries)",
            found.cfg.function, entries, found.loops[l].name));
    }
    return found;
}

} // namespace roofline::measure
