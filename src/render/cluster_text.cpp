#include "render/cluster_text.hpp"

#include "core/byte_sizes.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>

namespace roofline {

std::string format_cluster_summary(const ClusterModel& c) {
    std::string out = fmt::format("Cluster: {} node{}\n", c.nodes.size(), c.nodes.size() == 1 ? "" : "s");
    out += fmt::format("  {:<28} {:>8} {:>10} {:>10} {:>10} {:>7}  {}\n", "roof", "unit", "median", "min", "max",
                       "spread", "slowest node");
    for (const auto& r : c.roofs)
        out += fmt::format("  {:<28} {:>8} {:>10} {:>10} {:>10} {:>6.1f}%  {}\n", r.name, r.unit, format_number(r.median),
                           format_number(r.min), format_number(r.max), 100 * r.spread, terminal_text(r.slowest));
    if (c.network) {
        auto best = [](const std::vector<NetworkSample>& curve) {
            const NetworkSample* b = nullptr;
            for (const auto& s : curve)
                if (!b || s.gbs > b->gbs) b = &s;
            return b;
        };
        out += fmt::format("Network ({}, {} node{}):", c.network->scope, c.network->nodes, c.network->nodes == 1 ? "" : "s");
        if (const auto* p = best(c.network->pingpong))
            out += fmt::format(" ping-pong {} GB/s one way at {}", format_number(p->gbs),
                               format_bytes(static_cast<std::uint64_t>(p->bytes)));
        if (!c.network->pingpong.empty())
            out += fmt::format(", latency {} us", format_number(c.network->pingpong.front().seconds * 1e6));
        if (const auto* a = best(c.network->alltoall))
            out += fmt::format("; all-to-all {} GB/s a rank at {} a pair", format_number(a->gbs),
                               format_bytes(static_cast<std::uint64_t>(a->bytes)));
        out += "\n";
    }
    for (const auto& [node, roof] : c.missing)
        out += fmt::format("  note: node {} has no {} roof\n", terminal_text(node), roof);
    if (c.nodes.size() < 3) {
        out += "Sick nodes: not judged (it takes 3 nodes to tell which one is off the median)\n";
        return out;
    }
    if (c.sick.empty()) {
        out += fmt::format("Sick nodes: none (no node is more than {:.0f}% under a roof's median)\n", 100 * c.threshold);
        return out;
    }
    out += fmt::format("Sick nodes (more than {:.0f}% under a roof's median):\n", 100 * c.threshold);
    for (const auto& s : c.sick)
        out += fmt::format("  {:<20} {:<28} {} of median {} ({:.1f}% short)\n", terminal_text(s.node), s.roof,
                           format_number(s.value), format_number(s.median), 100 * s.shortfall);
    return out;
}

} // namespace roofline
