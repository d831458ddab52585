#include "core/cluster_roofline.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace roofline {
namespace {

constexpr const char* kNodeOpen = " [node ";
constexpr const char* kRankOpen = " [rank ";

bool ends_with_bracket_tag(const std::string& name, const char* open) {
    const auto at = name.rfind(open);
    return at != std::string::npos && !name.empty() && name.back() == ']';
}

} // namespace

std::string node_point_name(const std::string& name, const std::string& host) {
    return fmt::format("{}{}{}]", name, kNodeOpen, host);
}

std::optional<std::pair<std::string, std::string>> split_node_point_name(const std::string& point_name) {
    if (!ends_with_bracket_tag(point_name, kNodeOpen)) return std::nullopt;
    const auto at = point_name.rfind(kNodeOpen);
    const std::size_t host_start = at + std::string(kNodeOpen).size();
    if (host_start >= point_name.size() - 1) return std::nullopt;  // "NAME [node ]": no host
    return std::pair{point_name.substr(0, at), point_name.substr(host_start, point_name.size() - 1 - host_start)};
}

ClusterAssignment assign_to_nodes(const std::vector<std::string>& nodes, const std::vector<Point>& points) {
    ClusterAssignment out;
    const std::set<std::string> known(nodes.begin(), nodes.end());
    std::size_t rank_shares = 0;
    for (const auto& p : points) {
        if (const auto split = split_node_point_name(p.name)) {
            if (known.count(split->second)) out.by_node[split->second].push_back(p);
            else out.not_judged.push_back(fmt::format("{}: node {} is not in the cluster model", p.name, split->second));
            continue;
        }
        if (ends_with_bracket_tag(p.name, kRankOpen)) {
            ++rank_shares;
            continue;
        }
        const auto hosts = p.details.find("mpi_hosts");
        if (hosts != p.details.end()) {
            const auto n = static_cast<std::size_t>(hosts->second);
            if (n == 1 && nodes.size() == 1) out.by_node[nodes.front()].push_back(p);  // the node is the whole
            else if (n == nodes.size()) out.job.push_back(p);
            else
                out.not_judged.push_back(fmt::format("{}: the job's total over {} node(s), the cluster model has {} "
                                                     "(its per-node points are judged against their nodes)",
                                                     p.name, n, nodes.size()));
            continue;
        }
        if (nodes.size() == 1) out.by_node[nodes.front()].push_back(p);
        else
            out.not_judged.push_back(fmt::format("{}: not from an MPI job over these nodes (judge it against one "
                                                 "node's model with --machine)", p.name));
    }
    if (rank_shares > 0)
        out.not_judged.push_back(fmt::format("{} MPI rank share(s) (NAME [rank R]): each node's share (NAME [node H]) "
                                             "is judged against its node instead", rank_shares));
    return out;
}

Roofline aggregate_roofline(const std::vector<Roofline>& nodes, const std::string& label) {
    if (nodes.empty()) throw std::invalid_argument("a cluster roofline needs at least one node");
    const Roofline& first = nodes.front();
    for (const auto& n : nodes)
        if (n.work_unit != first.work_unit || n.precision != first.precision)
            throw std::invalid_argument(fmt::format("the nodes' rooflines differ in unit or precision ({} {} and {} {})",
                                                    first.work_unit, first.precision, n.work_unit, n.precision));
    Roofline sum;
    sum.label = label;
    sum.work_unit = first.work_unit;
    sum.precision = first.precision;
    sum.compute = {first.compute.name, "", 0, 0};
    for (const auto& n : nodes) {
        sum.threads += n.threads;
        sum.compute.value += n.compute.value;
        sum.compute.spread = std::max(sum.compute.spread, n.compute.spread);
    }
    // A roof or ceiling every node has (by level and name), summed.
    for (const auto& roof : first.bandwidth) {
        Roof total{roof.name, roof.level, 0, 0, roof.store_share};
        bool everywhere = true;
        for (const auto& n : nodes) {
            const auto it = std::find_if(n.bandwidth.begin(), n.bandwidth.end(),
                                         [&](const Roof& r) { return r.level == roof.level; });
            if (it == n.bandwidth.end()) {
                everywhere = false;
                break;
            }
            // Each node's top roof at the level: patterns may differ between nodes.
            if (it->name != roof.name) total.name = roof.level + " (each node's best pattern)";
            total.value += it->value;
            total.spread = std::max(total.spread, it->spread);
        }
        if (everywhere) sum.bandwidth.push_back(total);
    }
    for (const auto& ceiling : first.ceilings) {
        Ceiling total = ceiling;
        total.value = 0;
        bool everywhere = true;
        for (const auto& n : nodes) {
            const auto it = std::find_if(n.ceilings.begin(), n.ceilings.end(), [&](const Ceiling& c) {
                return c.name == ceiling.name && c.kind == ceiling.kind && c.level == ceiling.level;
            });
            if (it == n.ceilings.end()) {
                everywhere = false;
                break;
            }
            total.value += it->value;
        }
        if (everywhere) sum.ceilings.push_back(total);
    }
    return sum;
}

} // namespace roofline
