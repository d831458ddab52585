// The cluster model of bench --mpi as JSON (schema roofline.cluster/1): every node's machine
// model, each roof across the nodes and the sick-node report.
#pragma once

#include "core/cluster_model.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace roofline {

// What roofline-netbench wrote (schema roofline.netbench/1); std::runtime_error when it is not that.
NetworkMeasurement network_from_netbench_json(const nlohmann::json& j);

nlohmann::json cluster_to_json(const ClusterModel& cluster, const std::vector<NodeModel>& nodes);

struct ClusterFile {
    std::vector<NodeModel> nodes;
    ClusterModel cluster;  // recomputed from the nodes' models with the file's threshold
};

// True when `text` is JSON of schema roofline.cluster/1 (anything else: false, never throws).
bool is_cluster_json(const std::string& text);

// Reads a cluster model written by bench --mpi; std::runtime_error naming `source` when it is
// not one (another schema, no nodes, a node's model that does not read).
ClusterFile cluster_from_json(const nlohmann::json& j, const std::string& source);

// Written whole or not at all (write_text_file_atomic).
void write_cluster_file(const std::string& path, const ClusterModel& cluster, const std::vector<NodeModel>& nodes);

} // namespace roofline
