// A cluster's nodes side by side (bench --mpi, issue 14): each roof's value on every node,
// the median, the slowest node and the spread, and the nodes that fall short of the median
// by more than a threshold on some roof (a degraded DIMM shows on the DRAM roofs, a
// throttling CPU on the compute roofs): the sick-node report. Pure.
#pragma once

#include "core/machine_model.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

struct NodeModel {
    std::string node;    // the node's name (host name)
    int rank = 0;        // the MPI rank that measured it
    MachineModel model;
};

// One roof across the nodes: the best compute roof per precision and thread count, and
// each memory level and pattern per thread count.
struct ClusterRoof {
    std::string name;  // "DP peak, 2 threads", "DRAM triad, 1 thread"
    std::string unit;  // "GFLOP/s" or "GB/s"
    std::vector<std::pair<std::string, double>> values;  // (node, value) for every node that has it, node order
    double median = 0;
    double min = 0;
    double max = 0;
    double spread = 0;    // (max - min) / median
    std::string slowest;  // the node with the minimum
};

struct SickNode {
    std::string node;
    std::string roof;
    double value = 0;
    double median = 0;
    double shortfall = 0;  // 1 - value / median
};

// The network between the nodes (roofline-netbench): one-way ping-pong bandwidth between two
// nodes and each rank's all-to-all bandwidth among one rank per node, per message size.
struct NetworkSample {
    double bytes = 0;    // the message (ping-pong) or the block per pair (all-to-all)
    double gbs = 0;
    double seconds = 0;  // one way, or one all-to-all
};
struct NetworkMeasurement {
    std::string scope;   // "between nodes", or "within one node" (a single node: shared memory)
    int nodes = 0;
    std::vector<NetworkSample> pingpong, alltoall;
};

// A node's network roofs: the plateau (the best size) of each curve, as memory roofs of level
// "network" (patterns "pingpong", "alltoall") at `threads`; none when measured within one node.
std::vector<MemoryRoof> network_roofs(const NetworkMeasurement& network, int threads);
// Adds them to a node's model at its highest thread count (compute or memory), the roofline
// its charts and reports take by default: the network serves the whole node.
void add_network_roofs(MachineModel& node, const NetworkMeasurement& network);

struct ClusterModel {
    std::vector<std::string> nodes;   // in rank order
    std::vector<ClusterRoof> roofs;
    double threshold = 0.1;           // a node this far under a roof's median is reported
    std::vector<SickNode> sick;       // worst shortfall first
    // Roofs a node lacks that others have (a node interrupted, or with fewer cores).
    std::vector<std::pair<std::string, std::string>> missing;  // (node, roof)
    std::optional<NetworkMeasurement> network;  // set by the caller when it was measured
};

// `nodes` in rank order, one per node; throws std::invalid_argument for a node named twice,
// no nodes, or a threshold outside (0, 1). A roof needs at least 3 nodes to judge one of them
// against the median (with 2, the median is their mean and neither can be called the sick one):
// with fewer, roofs and spreads are given and no node is reported.
ClusterModel cluster_model(const std::vector<NodeModel>& nodes, double threshold = 0.1);

} // namespace roofline
