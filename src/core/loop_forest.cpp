#include "core/loop_forest.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace roofline {

namespace {

std::vector<std::vector<std::size_t>> predecessors_of(const ControlFlowGraph& graph) {
    std::vector<std::vector<std::size_t>> preds(graph.blocks.size());
    for (std::size_t b = 0; b < graph.blocks.size(); ++b)
        for (const std::size_t s : graph.blocks[b].successors) {
            if (s >= graph.blocks.size())
                throw std::invalid_argument(
                    fmt::format("block {} has successor {}, but the graph has {} blocks", b, s, graph.blocks.size()));
            preds[s].push_back(b);
        }
    return preds;
}

// The reachable blocks in reverse postorder of a depth-first walk from the entry (iterative:
// a function may have thousands of blocks).
std::vector<std::size_t> reverse_postorder(const ControlFlowGraph& graph) {
    std::vector<std::size_t> postorder;
    if (graph.blocks.empty()) return postorder;
    std::vector<bool> seen(graph.blocks.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> stack{{graph.entry, 0}};  // block, next successor
    seen[graph.entry] = true;
    while (!stack.empty()) {
        auto& [block, next] = stack.back();
        const auto& successors = graph.blocks[block].successors;
        if (next < successors.size()) {
            const std::size_t s = successors[next++];
            if (!seen[s]) {
                seen[s] = true;
                stack.emplace_back(s, 0);
            }
        } else {
            postorder.push_back(block);
            stack.pop_back();
        }
    }
    std::reverse(postorder.begin(), postorder.end());
    return postorder;
}

bool contains(const std::vector<std::size_t>& sorted, std::size_t value) {
    return std::binary_search(sorted.begin(), sorted.end(), value);
}

// Strongly connected components of the reachable blocks over the edges `keep` accepts
// (Tarjan's algorithm, iterative).
template <typename Keep>
std::vector<std::vector<std::size_t>> strongly_connected(const ControlFlowGraph& graph, const std::vector<bool>& reachable,
                                                         Keep keep) {
    const std::size_t n = graph.blocks.size();
    constexpr std::size_t unvisited = static_cast<std::size_t>(-1);
    std::vector<std::size_t> index(n, unvisited), low(n, 0);
    std::vector<bool> on_stack(n, false);
    std::vector<std::size_t> component_stack;
    std::vector<std::vector<std::size_t>> components;
    std::size_t counter = 0;
    for (std::size_t root = 0; root < n; ++root) {
        if (!reachable[root] || index[root] != unvisited) continue;
        std::vector<std::pair<std::size_t, std::size_t>> walk{{root, 0}};
        index[root] = low[root] = counter++;
        component_stack.push_back(root);
        on_stack[root] = true;
        while (!walk.empty()) {
            auto& [v, next] = walk.back();
            const auto& successors = graph.blocks[v].successors;
            if (next < successors.size()) {
                const std::size_t w = successors[next++];
                if (!reachable[w] || !keep(v, w)) continue;
                if (index[w] == unvisited) {
                    index[w] = low[w] = counter++;
                    component_stack.push_back(w);
                    on_stack[w] = true;
                    walk.emplace_back(w, 0);
                } else if (on_stack[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            const std::size_t done = v;
            walk.pop_back();
            if (!walk.empty()) low[walk.back().first] = std::min(low[walk.back().first], low[done]);
            if (low[done] == index[done]) {
                std::vector<std::size_t> component;
                std::size_t w = 0;
                do {
                    w = component_stack.back();
                    component_stack.pop_back();
                    on_stack[w] = false;
                    component.push_back(w);
                } while (w != done);
                std::sort(component.begin(), component.end());
                components.push_back(std::move(component));
            }
        }
    }
    return components;
}

} // namespace

std::vector<std::size_t> immediate_dominators(const ControlFlowGraph& graph) {
    const auto preds = predecessors_of(graph);
    const auto order = reverse_postorder(graph);
    std::vector<std::size_t> idom(graph.blocks.size(), kNoLoop);
    if (order.empty()) return idom;
    std::vector<std::size_t> rank(graph.blocks.size(), kNoLoop);  // position in reverse postorder
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
    const auto intersect = [&](std::size_t a, std::size_t b) {
        while (a != b) {
            while (rank[a] > rank[b]) a = idom[a];
            while (rank[b] > rank[a]) b = idom[b];
        }
        return a;
    };
    idom[graph.entry] = graph.entry;
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 1; i < order.size(); ++i) {
            const std::size_t b = order[i];
            std::size_t new_idom = kNoLoop;
            for (const std::size_t p : preds[b]) {
                if (idom[p] == kNoLoop) continue;  // not reached yet (or never)
                new_idom = new_idom == kNoLoop ? p : intersect(p, new_idom);
            }
            if (new_idom != idom[b]) {
                idom[b] = new_idom;
                changed = true;
            }
        }
    }
    return idom;
}

bool dominates(const std::vector<std::size_t>& idom, std::size_t a, std::size_t b) {
    if (b >= idom.size() || idom[b] == kNoLoop) return false;
    for (;;) {
        if (b == a) return true;
        if (idom[b] == b) return false;  // reached the entry
        b = idom[b];
    }
}

LoopForest find_loops(const ControlFlowGraph& graph) {
    const std::size_t n = graph.blocks.size();
    LoopForest forest;
    forest.innermost_loop.assign(n, kNoLoop);
    forest.reachable.assign(n, false);
    if (n == 0) return forest;
    if (graph.entry >= n) throw std::invalid_argument(fmt::format("entry block {} of a graph of {} blocks", graph.entry, n));
    const auto preds = predecessors_of(graph);
    const auto idom = immediate_dominators(graph);
    for (std::size_t b = 0; b < n; ++b) forest.reachable[b] = idom[b] != kNoLoop;

    // Back edges, grouped by header: a header's loops are one loop.
    std::map<std::size_t, std::vector<BackEdge>> by_header;
    for (std::size_t u = 0; u < n; ++u) {
        if (!forest.reachable[u]) continue;
        for (const std::size_t h : graph.blocks[u].successors)
            if (dominates(idom, h, u)) by_header[h].push_back({u, h});
    }

    // Natural loop bodies: the header and every block that reaches a back edge's source
    // without passing the header.
    std::vector<Loop> loops;
    for (auto& [header, back_edges] : by_header) {
        std::vector<bool> in_body(n, false);
        in_body[header] = true;
        std::vector<std::size_t> work;
        for (const auto& e : back_edges)
            if (!in_body[e.from]) {
                in_body[e.from] = true;
                work.push_back(e.from);
            }
        while (!work.empty()) {
            const std::size_t b = work.back();
            work.pop_back();
            for (const std::size_t p : preds[b])
                if (forest.reachable[p] && !in_body[p]) {
                    in_body[p] = true;
                    work.push_back(p);
                }
        }
        Loop loop;
        loop.header = header;
        loop.entries = {header};
        loop.back_edges = std::move(back_edges);
        for (std::size_t b = 0; b < n; ++b)
            if (in_body[b]) loop.blocks.push_back(b);
        loops.push_back(std::move(loop));
    }

    // A graph is reducible exactly when it has no cycle left once its back edges are gone:
    // every cycle left is entered at more than one block. Each is a loop too: the cycle's
    // blocks and the natural loops headed in it (a natural loop holding one of its blocks
    // holds all of them, so loops stay nested or apart).
    const auto is_back_edge = [&](std::size_t from, std::size_t to) {
        return dominates(idom, to, from);
    };
    const std::size_t natural = loops.size();
    for (auto& component : strongly_connected(graph, forest.reachable,
                                              [&](std::size_t v, std::size_t w) { return !is_back_edge(v, w); })) {
        if (component.size() < 2) continue;  // a block's edge to itself is a back edge
        IrreducibleCycle cycle;
        for (const std::size_t b : component) {
            bool entered = b == graph.entry;
            for (const std::size_t p : preds[b]) entered = entered || (forest.reachable[p] && !contains(component, p));
            if (entered) cycle.entries.push_back(b);
        }
        cycle.blocks = std::move(component);
        Loop loop;
        loop.irreducible = true;
        loop.entries = cycle.entries;
        loop.header = *std::min_element(cycle.entries.begin(), cycle.entries.end(), [&](std::size_t a, std::size_t b) {
            return graph.blocks[a].start < graph.blocks[b].start;
        });
        std::vector<bool> in_body(n, false);
        for (const std::size_t b : cycle.blocks) in_body[b] = true;
        for (std::size_t l = 0; l < natural; ++l)
            if (contains(cycle.blocks, loops[l].header))
                for (const std::size_t b : loops[l].blocks) in_body[b] = true;
        for (std::size_t b = 0; b < n; ++b)
            if (in_body[b]) loop.blocks.push_back(b);
        for (const std::size_t u : loop.blocks)
            for (const std::size_t e : graph.blocks[u].successors)
                if (contains(cycle.entries, e)) loop.back_edges.push_back({u, e});
        loops.push_back(std::move(loop));
        forest.irreducible.push_back(std::move(cycle));
    }
    std::sort(forest.irreducible.begin(), forest.irreducible.end(),
              [](const auto& a, const auto& b) { return a.blocks < b.blocks; });

    // Nesting: natural loops with different headers are disjoint or nested (a header
    // dominates its body), and so are the irreducible ones, so a loop's parent is the
    // smallest larger loop holding its header (an inner natural loop of an irreducible
    // one may hold that one's header, never all of it).
    std::vector<std::size_t> parent(loops.size(), kNoLoop);
    for (std::size_t i = 0; i < loops.size(); ++i)
        for (std::size_t j = 0; j < loops.size(); ++j) {
            if (i == j || loops[j].blocks.size() <= loops[i].blocks.size() || !contains(loops[j].blocks, loops[i].header))
                continue;
            if (parent[i] == kNoLoop || loops[j].blocks.size() < loops[parent[i]].blocks.size()) parent[i] = j;
        }

    // Order the forest: outer loops first, siblings by their header's address.
    const auto by_address = [&](std::size_t a, std::size_t b) {
        return std::pair(graph.blocks[loops[a].header].start, loops[a].header) <
               std::pair(graph.blocks[loops[b].header].start, loops[b].header);
    };
    std::vector<std::vector<std::size_t>> children(loops.size());
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < loops.size(); ++i) (parent[i] == kNoLoop ? roots : children[parent[i]]).push_back(i);
    std::sort(roots.begin(), roots.end(), by_address);
    for (auto& c : children) std::sort(c.begin(), c.end(), by_address);
    std::vector<std::size_t> new_index(loops.size(), kNoLoop);
    std::vector<std::size_t> preorder;
    std::vector<std::size_t> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        const std::size_t i = stack.back();
        stack.pop_back();
        new_index[i] = preorder.size();
        preorder.push_back(i);
        stack.insert(stack.end(), children[i].rbegin(), children[i].rend());
    }
    for (const std::size_t old : preorder) {
        Loop loop = std::move(loops[old]);
        loop.parent = parent[old] == kNoLoop ? kNoLoop : new_index[parent[old]];
        for (const std::size_t c : children[old]) loop.children.push_back(new_index[c]);
        loop.depth = loop.parent == kNoLoop ? 1 : forest.loops[loop.parent].depth + 1;
        for (const std::size_t b : loop.blocks) forest.innermost_loop[b] = forest.loops.size();  // inner ones come later
        forest.loops.push_back(std::move(loop));
    }
    for (const std::size_t r : roots) forest.roots.push_back(new_index[r]);

    return forest;
}

} // namespace roofline
