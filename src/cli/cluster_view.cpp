#include "cli/cluster_view.hpp"

#include "core/machine_file.hpp"
#include "io/cluster_json.hpp"
#include "io/json_node.hpp"
#include "io/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace roofline::cli {

std::optional<std::string> cluster_model_path(const StoredSource& machine) {
    if (machine.stored) return std::nullopt;
    const auto text = read_file_if_exists(machine.path);
    if (text && is_cluster_json(*text)) return machine.path;
    return std::nullopt;
}

std::string not_judged_text(const ClusterView& view) {
    constexpr std::size_t shown = 10;  // the rest as "...": thousands of points must not flood the terminal
    const auto& all = view.not_judged;
    return fmt::format("{}{}", fmt::join(all.begin(), all.begin() + std::min(all.size(), shown), "; "),
                       all.size() > shown ? "; ..." : "");
}

ClusterView cluster_view(const std::string& path, const std::vector<Point>& points, const RooflineRequest& request,
                         bool with_empty_nodes) {
    const ClusterFile file = cluster_from_json(parse_json_bounded(read_text_file(path), path), path);
    std::vector<std::string> names;
    for (const auto& n : file.nodes) names.push_back(n.node);
    auto assignment = assign_to_nodes(names, points);

    const auto node_roofline = [&](const NodeModel& node, const std::vector<Point>& judged) {
        try {
            MachineFile machine;
            machine.model = node.model;
            Roofline r = roofline_from_machine_file(machine, select_roofline(node.model, judged, request));
            r.label = fmt::format("node {}", node.node);
            return r;
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(fmt::format("{}: node {}: {}", path, node.node, e.what()));
        }
    };
    // Under the sum, each node at the threads the job ran on it: its share's, where it has one.
    std::map<std::string, std::vector<Point>> job_selection;
    for (const auto& [node, shares] : assignment.by_node) job_selection[node] = shares;
    ClusterView view;
    view.not_judged = std::move(assignment.not_judged);
    view.nodes = file.nodes.size();
    for (const auto& node : file.nodes) {
        auto it = assignment.by_node.find(node.node);
        std::vector<Point> mine = it == assignment.by_node.end() ? std::vector<Point>{} : std::move(it->second);
        if (mine.empty() && !with_empty_nodes) continue;
        Roofline r = node_roofline(node, mine);
        view.parts.push_back({r.label, std::move(r), std::move(mine)});
    }
    if (!assignment.job.empty()) {
        std::vector<Roofline> each;
        for (const auto& node : file.nodes) {
            const auto shares = job_selection.find(node.node);
            each.push_back(node_roofline(node, shares == job_selection.end() ? assignment.job : shares->second));
        }
        const std::string name = fmt::format("all {} nodes", file.nodes.size());
        try {
            view.parts.push_back({name, aggregate_roofline(each, name + " (the sum of the nodes' roofs)"),
                                  std::move(assignment.job)});
            view.whole = true;
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
        }
    }
    return view;
}

} // namespace roofline::cli
