// bench --mpi: `mpirun -np N roofline bench --mpi` characterizes every node of a cluster once.
// The ranks' meeting, the network benchmark and the gathering are app/cluster_bench's; here the
// rank and node this process is (the launcher's variables; the host name, or ROOFLINE_NODE_NAME:
// a test's way to simulate nodes on one machine), and rank 0's cluster model written, stored
// and said.
#pragma once

#include "app/cluster_bench.hpp"

#include <string>

namespace roofline::cli {

// Every rank: says where it runs and waits (at most `wait_seconds`) for the others. UsageError
// outside an MPI launch; std::runtime_error when not every rank showed up in time.
app::ClusterBenchPlan join_cluster_bench(const std::string& cluster_output, double wait_seconds);

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
int gather_cluster(const app::ClusterBenchPlan& plan, const ClusterOutput& out);

} // namespace roofline::cli
