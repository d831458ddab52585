// An MPI job's points against a cluster model (bench --mpi): each node's share of a region
// ("NAME [node H]", the per-node points of measure) is judged against that node's own
// roofline, and the job's total over all the nodes against the sum of the nodes' roofs; never
// a multi-node total divided by the node count on one node's roof. Pure.
#pragma once

#include "core/roofline.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

// A node's share of a job's region: "NAME [node HOST]"; and back (nullopt for another name).
std::string node_point_name(const std::string& name, const std::string& host);
std::optional<std::pair<std::string, std::string>> split_node_point_name(const std::string& point_name);

struct ClusterAssignment {
    std::map<std::string, std::vector<Point>> by_node;  // a node's shares, under that node's roofline
    std::vector<Point> job;                              // totals over every node of the model
    std::vector<std::string> not_judged;                 // "NAME: why", for a note
};

// Sorts `points` for the cluster of `nodes`: "NAME [node H]" to node H; a job total
// (details mpi_hosts) over as many hosts as the model has nodes to `job`; with a one-node
// model, a point that is not an MPI total to that node. Everything else (an MPI rank's share,
// a node the model lacks, a total over some of the nodes) is named in `not_judged` with why.
ClusterAssignment assign_to_nodes(const std::vector<std::string>& nodes, const std::vector<Point>& points);

// The roofline of the whole cluster: each roof and ceiling the sum of the nodes' (those every
// node has, matched by name and level), the threads summed, the spread the largest. Throws
// std::invalid_argument for no nodes or nodes in different work units or precisions.
Roofline aggregate_roofline(const std::vector<Roofline>& nodes, const std::string& label);

} // namespace roofline
