// report and plot with a cluster model (bench --mpi -o cluster.json) as the machine: each
// node's share of an MPI job's regions against that node's roofline, the job's totals against
// the sum of the nodes' roofs (core/cluster_roofline.hpp).
#pragma once

#include "cli/stored_source.hpp"
#include "core/cluster_roofline.hpp"
#include "core/machine_roofline.hpp"
#include "core/roofline.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::cli {

// The cluster model a --machine names, when it is one (a file of schema roofline.cluster/1).
std::optional<std::string> cluster_model_path(const StoredSource& machine);

// One roofline and the points judged against it.
struct ClusterPart {
    std::string name;  // "node H", or "all N nodes"
    Roofline roofline;
    std::vector<Point> points;
};

struct ClusterView {
    std::vector<ClusterPart> parts;       // every node in the model's order (with_empty_nodes), then the whole
    std::vector<std::string> not_judged;  // "NAME: why"
    std::size_t nodes = 0;                // in the model
    bool whole = false;                   // the last part is the sum of the nodes
};

// "A: why; B: why; ..." for a note: the first ten of `not_judged`; empty when none.
std::string not_judged_text(const ClusterView& view);

// Reads the cluster model at `path` and sorts `points` onto its nodes. A node without points
// is a part only when `with_empty_nodes` (a chart shows every node's roofs); the whole cluster
// is a part when some point is a job total.
ClusterView cluster_view(const std::string& path, const std::vector<Point>& points, const RooflineRequest& request,
                         bool with_empty_nodes);

} // namespace roofline::cli
