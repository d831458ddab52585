// bench --mpi: `mpirun -np N roofline bench --mpi` characterizes every node of a cluster once.
// The ranks meet through files in a directory they share (next to -o): each says which node
// it runs on (its host name, or ROOFLINE_NODE_NAME: a test's way to simulate nodes on one
// machine); the lowest rank of each node measures it while the node's other ranks only wait;
// rank 0 gathers the nodes' models into the cluster model (core/cluster_model) and writes it.
#pragma once

#include "measure/mpi_rank.hpp"

#include <string>
#include <utility>
#include <vector>

namespace roofline::cli {

struct ClusterBenchPlan {
    measure::MpiRank rank;
    std::string node;                              // this rank's node
    std::string dir;                               // where the ranks meet
    std::vector<std::pair<int, std::string>> leaders;  // (rank, node): one rank per node, rank order
    bool leader = false;                           // this rank measures its node
};

// Every rank: says where it runs and waits (at most `wait_seconds`) for the others. UsageError
// outside an MPI launch; std::runtime_error when not every rank showed up in time.
ClusterBenchPlan join_cluster_bench(const std::string& cluster_output, double wait_seconds);

// Where a leader writes its node's machine model.
std::string node_model_path(const ClusterBenchPlan& plan, int rank);
// A leader whose measurement failed says so, so that rank 0 does not wait for it.
void report_node_failure(const ClusterBenchPlan& plan, const std::string& why);

// Every rank, after its part: waits (at most `wait_seconds`) until every node is measured, then
// runs roofline-netbench as a child that joins the same MPI job (one-way ping-pong between two
// nodes, all-to-all among one rank per node; rank 0's child writes the results). Returns what
// went wrong ("" when it ran), for rank 0 to say: the nodes' roofs are kept either way.
std::string measure_network(const ClusterBenchPlan& plan, bool quick, double wait_seconds);

struct ClusterOutput {
    std::string path;         // the cluster model file
    std::string db;
    bool no_store = false;
    bool quiet = false;
    double threshold = 0.1;   // sick-node threshold (fraction)
    double wait_seconds = 0;  // for the leaders' models, after rank 0's own part
    std::string network_problem;  // what measure_network said went wrong ("": look for its results)
};

// Rank 0: gathers the nodes' models, writes the cluster model, stores each node's model and
// prints the summary with the sick-node report. Returns the exit code: 1 when a node's model
// is missing (the others are still written).
int gather_cluster(const ClusterBenchPlan& plan, const ClusterOutput& out);

} // namespace roofline::cli
