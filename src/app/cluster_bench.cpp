#include "app/cluster_bench.hpp"

#include "io/cluster_json.hpp"
#include "io/install_layout.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/rank_rendezvous.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace roofline::app {
namespace {

namespace fs = std::filesystem;

std::string rank_node_file(const std::string& dir, int rank) { return fmt::format("{}/rank{}.node", dir, rank); }
std::string node_failure_file(const std::string& dir, int rank) { return fmt::format("{}/node{}.failed", dir, rank); }
std::string network_results_file(const std::string& dir) { return dir + "/network.json"; }

// Every node's model (or its failure) is there, or `seconds` passed.
bool wait_for_node_models(const ClusterBenchPlan& plan, double seconds) {
    std::vector<int> leaders;
    for (const auto& [rank, node] : plan.leaders) leaders.push_back(rank);
    return measure::wait_for_ranks(leaders, seconds, [&](int rank) {
        return fs::exists(node_model_path(plan, rank)) || fs::exists(node_failure_file(plan.dir, rank));
    }).empty();
}

} // namespace

ClusterBenchPlan join_cluster_bench(const ClusterJoinRequest& request) {
    ClusterBenchPlan plan;
    plan.rank = request.rank;
    plan.node = request.node;
    plan.dir = fmt::format("{}.nodes/{}", request.cluster_output, measure::job_file_name(request.rank.job));
    std::error_code ec;
    fs::create_directories(plan.dir, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create {} (where the ranks meet): {}", plan.dir, ec.message()));
    write_text_file_atomic(rank_node_file(plan.dir, plan.rank.rank), plan.node);
    std::map<int, std::string> nodes;
    std::vector<int> ranks(static_cast<std::size_t>(plan.rank.size));
    std::iota(ranks.begin(), ranks.end(), 0);
    const auto missing = measure::wait_for_ranks(ranks, request.wait_seconds, [&](int r) {
        auto text = read_file_if_exists(rank_node_file(plan.dir, r));
        if (text) nodes[r] = *text;
        return text.has_value();
    });
    if (!missing.empty())
        throw std::runtime_error(fmt::format(
            "rank {}: only {} of {} ranks said which node they run on within {} s in {} (across nodes, -o must be on "
            "a file system every node shares)",
            plan.rank.rank, nodes.size(), plan.rank.size, request.wait_seconds, plan.dir));
    std::map<std::string, int> first;  // node -> its lowest rank
    for (const auto& [r, node] : nodes)
        if (!first.count(node)) first[node] = r, plan.leaders.emplace_back(r, node);
    plan.leader = first.at(plan.node) == plan.rank.rank;
    return plan;
}

std::string node_model_path(const ClusterBenchPlan& plan, int rank) { return fmt::format("{}/node{}.json", plan.dir, rank); }

void report_node_failure(const ClusterBenchPlan& plan, const std::string& why) {
    try {
        write_text_file_atomic(node_failure_file(plan.dir, plan.rank.rank), why);
    } catch (const std::exception&) {
        // rank 0 then waits for this node until its time is up, and says so
    }
}

std::string measure_network(const ClusterBenchPlan& plan, bool quick, double wait_seconds) {
    std::string why;
    const std::string program = netbench_path(self_executable(), why);
    if (program.empty()) return why;
    if (!wait_for_node_models(plan, wait_seconds)) return "not every node was measured in time";
    std::string leaders;
    for (const auto& [rank, node] : plan.leaders) leaders += (leaders.empty() ? "" : ",") + std::to_string(rank);
    std::vector<std::string> argv{program, "-o", network_results_file(plan.dir), "--leaders", leaders};
    if (quick) argv.push_back("--quick");
    // A rank that never joins would hold the others in MPI_Init: coreutils' timeout ends them.
    if (const auto timeout = measure::find_executable("timeout"); !timeout.empty())
        argv.insert(argv.begin(), {timeout, "--kill-after=10", "300"});
    try {
        const auto run = measure::run_child(argv, {});
        if (!run.status.exited || run.status.exit_code != 0)
            return fmt::format("roofline-netbench {}", run.status.describe());
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

ClusterGathering gather_cluster(const ClusterBenchPlan& plan, const ClusterGatherRequest& request) {
    wait_for_node_models(plan, request.wait_seconds);
    ClusterGathering g;
    for (const auto& [rank, node] : plan.leaders) {
        if (auto why = read_file_if_exists(node_failure_file(plan.dir, rank))) {
            g.problems.push_back(fmt::format("node {} (rank {}): {}", node, rank, *why));
            continue;
        }
        try {
            g.nodes.push_back({node, rank, read_machine_file(node_model_path(plan, rank))});
        } catch (const std::exception& e) {
            g.problems.push_back(fmt::format("node {} (rank {}) wrote no model within {} s: {}", node, rank,
                                             request.wait_seconds, e.what()));
        }
    }
    if (g.nodes.empty()) return g;
    std::optional<NetworkMeasurement> network;
    if (!request.network_problem.empty()) {
        g.network_warning = request.network_problem;
    } else if (const auto text = read_file_if_exists(network_results_file(plan.dir))) {
        try {
            network = network_from_netbench_json(parse_json_bounded(*text, network_results_file(plan.dir)));
            for (auto& n : g.nodes) add_network_roofs(n.model, *network);
        } catch (const std::exception& e) {
            g.network_warning = e.what();
            network.reset();
        }
    }
    g.cluster = cluster_model(g.nodes, request.threshold);
    g.cluster.network = network;
    return g;
}

void remove_meeting_place(const ClusterBenchPlan& plan) {
    std::error_code ec;
    fs::remove_all(plan.dir, ec);
    fs::remove(fs::path(plan.dir).parent_path(), ec);  // removed only when empty
}

} // namespace roofline::app
