// Cluster bench (`mpirun -np N roofline bench --mpi`): every node of a cluster characterized once.
// The ranks meet through files in a directory they share (next to the cluster model's file):
// each says which node it runs on; the lowest rank of each node measures it while the node's
// other ranks only wait; every rank joins the network benchmark; rank 0 gathers the nodes'
// models into the cluster model (core/cluster_model). This rank and its node are inputs (cli
// reads them from the launcher's variables and the host name), so fake ranks can be tested in
// threads. Nothing printed or written but the meeting place: cli measures a node (a bench run),
// writes the cluster model, stores the nodes and says what went wrong.
#pragma once

#include "core/cluster_model.hpp"
#include "measure/mpi_rank.hpp"

#include <string>
#include <utility>
#include <vector>

namespace roofline::app {

struct ClusterJoinRequest {
    measure::MpiRank rank;       // which rank this is, of how many, in which launch
    std::string node;            // the node it runs on (host name, or ROOFLINE_NODE_NAME)
    std::string cluster_output;  // the cluster model's file: the ranks meet next to it
    double wait_seconds = 0;     // for the other ranks to say where they run
};

struct ClusterBenchPlan {
    measure::MpiRank rank;
    std::string node;                                  // this rank's node
    std::string dir;                                   // where the ranks meet
    std::vector<std::pair<int, std::string>> leaders;  // (rank, node): one rank per node, rank order
    bool leader = false;                               // this rank measures its node
};

// Every rank: says where it runs and waits for the others. std::runtime_error when the meeting
// place cannot be made or not every rank showed up in time.
ClusterBenchPlan join_cluster_bench(const ClusterJoinRequest& request);

// Where a leader writes its node's machine model.
std::string node_model_path(const ClusterBenchPlan& plan, int rank);
// A leader whose measurement failed says so, so that rank 0 does not wait for it.
void report_node_failure(const ClusterBenchPlan& plan, const std::string& why);

// Every rank, after its part: waits (at most `wait_seconds`) until every node is measured, then
// runs roofline-netbench as a child that joins the same MPI job (one-way ping-pong between two
// nodes, all-to-all among one rank per node; rank 0's child writes the results). Returns what
// went wrong ("" when it ran), for rank 0 to say: the nodes' roofs are kept either way.
std::string measure_network(const ClusterBenchPlan& plan, bool quick, double wait_seconds);

struct ClusterGatherRequest {
    double threshold = 0.1;       // sick-node threshold (fraction)
    double wait_seconds = 0;      // for the leaders' models, after rank 0's own part
    std::string network_problem;  // what measure_network said went wrong ("": look for its results)
};

struct ClusterGathering {
    std::vector<NodeModel> nodes;       // the nodes measured, with the network roofs when measured
    std::vector<std::string> problems;  // a node that failed or wrote no model: one line each
    ClusterModel cluster;               // of `nodes`; empty when there are none
    std::string network_warning;        // why there is no network roof ("" when there is, or no node)
};

// Rank 0: waits for the nodes' models (or their failures) and gathers them with the network's.
ClusterGathering gather_cluster(const ClusterBenchPlan& plan, const ClusterGatherRequest& request);

// Rank 0, once the cluster model is written: the meeting place is removed (its parent too, when
// empty); the nodes' models are in the cluster file.
void remove_meeting_place(const ClusterBenchPlan& plan);

} // namespace roofline::app
