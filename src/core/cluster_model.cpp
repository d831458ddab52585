#include "core/cluster_model.hpp"

#include "core/level.hpp"
#include "core/precision.hpp"
#include "core/statistics.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace roofline {
namespace {

std::string threads_text(int threads) { return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s"); }

// Each node's roofs by name: the best compute roof per precision and thread count, each
// memory level and pattern per thread count (NUMA pairs too: a node's remote memory).
std::map<std::string, std::pair<std::string, double>> roofs_of(const MachineModel& m) {
    std::map<std::string, std::pair<std::string, double>> out;
    for (const auto& c : m.compute) {
        if (!(c.gflops > 0)) continue;
        const auto name = fmt::format("{} peak, {}", precision_label(c.precision), threads_text(c.threads));
        auto& slot = out[name];
        slot = {"GFLOP/s", std::max(slot.second, c.gflops)};
    }
    for (const auto& r : m.memory) {
        if (!(r.gbs > 0) || r.level == "network") continue;  // the same network for every node
        // Working sets of no known level (older models' "custom") are told apart by their size.
        const auto level = is_custom_working_set(r.level) ? fmt::format("{} {} B", r.level, r.working_set_bytes) : r.level;
        const auto name = fmt::format("{} {}, {}", level, r.pattern, threads_text(r.threads));
        auto& slot = out[name];
        slot = {"GB/s", std::max(slot.second, r.gbs)};
    }
    return out;
}

} // namespace

std::vector<MemoryRoof> network_roofs(const NetworkMeasurement& network, int threads) {
    std::vector<MemoryRoof> out;
    if (network.scope != "between nodes") return out;
    for (const auto& [pattern, curve] : {std::pair{"pingpong", &network.pingpong}, std::pair{"alltoall", &network.alltoall}}) {
        const auto best = std::max_element(curve->begin(), curve->end(), [](auto& a, auto& b) { return a.gbs < b.gbs; });
        if (best == curve->end() || !(best->gbs > 0)) continue;
        MemoryRoof r;
        r.level = "network";
        r.pattern = pattern;
        r.threads = threads;
        r.gbs = best->gbs;
        r.gbs_write_allocate = best->gbs;
        r.working_set_bytes = static_cast<std::uint64_t>(best->bytes);
        out.push_back(r);
    }
    return out;
}

void add_network_roofs(MachineModel& node, const NetworkMeasurement& network) {
    int threads = 1;
    for (const auto& c : node.compute) threads = std::max(threads, c.threads);
    for (const auto& r : node.memory) threads = std::max(threads, r.threads);
    for (auto& r : network_roofs(network, threads)) node.memory.push_back(std::move(r));
}

ClusterModel cluster_model(const std::vector<NodeModel>& nodes, double threshold) {
    if (nodes.empty()) throw std::invalid_argument("a cluster of no nodes");
    if (!(threshold > 0 && threshold < 1))
        throw std::invalid_argument(fmt::format("a sick-node threshold of {} (it is a fraction in (0, 1))", threshold));
    ClusterModel c;
    c.threshold = threshold;
    std::set<std::string> seen;
    std::vector<std::map<std::string, std::pair<std::string, double>>> per_node;
    std::vector<std::string> order;  // roof names in the order first met
    for (const auto& n : nodes) {
        if (!seen.insert(n.node).second)
            throw std::invalid_argument(fmt::format("node '{}' is measured twice (one rank per node)", n.node));
        c.nodes.push_back(n.node);
        per_node.push_back(roofs_of(n.model));
        for (const auto& [name, figure] : per_node.back())
            if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    }
    for (const auto& name : order) {
        ClusterRoof roof;
        roof.name = name;
        std::vector<double> values;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto it = per_node[i].find(name);
            if (it == per_node[i].end()) {
                c.missing.emplace_back(c.nodes[i], name);
                continue;
            }
            roof.unit = it->second.first;
            roof.values.emplace_back(c.nodes[i], it->second.second);
            values.push_back(it->second.second);
        }
        roof.median = median(values);
        const auto [lo, hi] = std::minmax_element(roof.values.begin(), roof.values.end(),
                                                  [](auto& a, auto& b) { return a.second < b.second; });
        roof.min = lo->second;
        roof.max = hi->second;
        roof.slowest = lo->first;
        roof.spread = roof.median > 0 ? (roof.max - roof.min) / roof.median : 0;
        if (roof.values.size() >= 3)
            for (const auto& [node, value] : roof.values) {
                const double shortfall = 1 - value / roof.median;
                if (shortfall > threshold) c.sick.push_back({node, roof.name, value, roof.median, shortfall});
            }
        c.roofs.push_back(std::move(roof));
    }
    std::stable_sort(c.sick.begin(), c.sick.end(), [](auto& a, auto& b) { return a.shortfall > b.shortfall; });
    return c;
}

} // namespace roofline
