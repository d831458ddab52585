#include "cli/cluster_bench.hpp"

#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/usage_error.hpp"
#include "core/cluster_model.hpp"
#include "io/cluster_json.hpp"
#include "io/install_layout.hpp"
#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/cluster_text.hpp"
#include "measure/child_process.hpp"
#include "measure/rank_rendezvous.hpp"
#include "topo/environment.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <memory>
#include <numeric>

namespace roofline::cli {
namespace {

namespace fs = std::filesystem;

std::string rank_file(const std::string& dir, int rank) { return fmt::format("{}/rank{}.node", dir, rank); }
std::string failure_file(const std::string& dir, int rank) { return fmt::format("{}/node{}.failed", dir, rank); }
std::string network_file(const std::string& dir) { return dir + "/network.json"; }

} // namespace

ClusterBenchPlan join_cluster_bench(const std::string& cluster_output, double wait_seconds) {
    const auto rank = measure::detect_mpi_rank([](const char* name) { return std::getenv(name); });
    if (!rank)
        throw UsageError("--mpi characterizes the nodes of an MPI launch: run it as 'mpirun -np N roofline bench "
                         "--mpi -o cluster.json' (one rank per node is enough; extra ranks on a node wait)");
    ClusterBenchPlan plan;
    plan.rank = *rank;
    plan.node = node_name();
    plan.dir = fmt::format("{}.nodes/{}", cluster_output, measure::job_file_name(rank->job));
    std::error_code ec;
    fs::create_directories(plan.dir, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create {} (where the ranks meet): {}", plan.dir, ec.message()));
    write_text_file_atomic(rank_file(plan.dir, rank->rank), plan.node);
    std::map<int, std::string> nodes;
    std::vector<int> ranks(static_cast<std::size_t>(rank->size));
    std::iota(ranks.begin(), ranks.end(), 0);
    const auto missing = measure::wait_for_ranks(ranks, wait_seconds, [&](int r) {
        auto text = read_file_if_exists(rank_file(plan.dir, r));
        if (text) nodes[r] = *text;
        return text.has_value();
    });
    if (!missing.empty())
        throw std::runtime_error(fmt::format(
            "rank {}: only {} of {} ranks said which node they run on within {} s in {} (across nodes, -o must be on "
            "a file system every node shares)",
            rank->rank, nodes.size(), rank->size, wait_seconds, plan.dir));
    std::map<std::string, int> first;  // node -> its lowest rank
    for (const auto& [r, node] : nodes)
        if (!first.count(node)) first[node] = r, plan.leaders.emplace_back(r, node);
    plan.leader = first.at(plan.node) == rank->rank;
    return plan;
}

std::string node_model_path(const ClusterBenchPlan& plan, int rank) { return fmt::format("{}/node{}.json", plan.dir, rank); }

void report_node_failure(const ClusterBenchPlan& plan, const std::string& why) {
    try {
        write_text_file_atomic(failure_file(plan.dir, plan.rank.rank), why);
    } catch (const std::exception&) {
        // rank 0 then waits for this node until its time is up, and says so
    }
}

namespace {

// Every node's model (or its failure) is there, or `seconds` passed.
bool wait_for_nodes(const ClusterBenchPlan& plan, double seconds) {
    std::vector<int> leaders;
    for (const auto& [rank, node] : plan.leaders) leaders.push_back(rank);
    return measure::wait_for_ranks(leaders, seconds, [&](int rank) {
        return fs::exists(node_model_path(plan, rank)) || fs::exists(failure_file(plan.dir, rank));
    }).empty();
}

} // namespace

std::string measure_network(const ClusterBenchPlan& plan, bool quick, double wait_seconds) {
    std::string why;
    const std::string program = netbench_path(self_executable(), why);
    if (program.empty()) return why;
    if (!wait_for_nodes(plan, wait_seconds)) return "not every node was measured in time";
    std::string leaders;
    for (const auto& [rank, node] : plan.leaders) leaders += (leaders.empty() ? "" : ",") + std::to_string(rank);
    std::vector<std::string> argv{program, "-o", network_file(plan.dir), "--leaders", leaders};
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

int gather_cluster(const ClusterBenchPlan& plan, const ClusterOutput& out) {
    wait_for_nodes(plan, out.wait_seconds);
    std::vector<NodeModel> nodes;
    std::vector<std::string> problems;
    for (const auto& [rank, node] : plan.leaders) {
        if (auto why = read_file_if_exists(failure_file(plan.dir, rank))) {
            problems.push_back(fmt::format("node {} (rank {}): {}", node, rank, *why));
            continue;
        }
        try {
            nodes.push_back({node, rank, read_machine_file(node_model_path(plan, rank))});
        } catch (const std::exception& e) {
            problems.push_back(fmt::format("node {} (rank {}) wrote no model within {} s: {}", node, rank,
                                           out.wait_seconds, e.what()));
        }
    }
    for (const auto& p : problems) print_stderr("roofline: error: {}\n", p);
    if (nodes.empty()) {
        print_stderr("roofline: error: no node was measured; nothing written\n");
        return kExitFailure;
    }
    std::optional<NetworkMeasurement> network;
    if (!out.network_problem.empty()) {
        print_stderr("roofline: warning: no network roof: {}\n", out.network_problem);
    } else if (const auto text = read_file_if_exists(network_file(plan.dir))) {
        try {
            network = network_from_netbench_json(parse_json_bounded(*text, network_file(plan.dir)));
            for (auto& n : nodes) add_network_roofs(n.model, *network);
        } catch (const std::exception& e) {
            print_stderr("roofline: warning: no network roof: {}\n", e.what());
            network.reset();
        }
    }
    ClusterModel cluster = cluster_model(nodes, out.threshold);
    cluster.network = network;
    bool failed = !problems.empty();
    try {
        write_cluster_file(out.path, cluster, nodes);
    } catch (const std::exception& e) {
        print_stderr("roofline: error: {}\n", e.what());
        failed = true;
    }
    if (!out.no_store) {
        try {
            auto store = ResultsStore::open_db_option(out.db);
            for (const auto& n : nodes) store->save_machine(n.model);
        } catch (const std::exception& e) {
            print_stderr("roofline: error: the nodes' models are not stored: {}\n", e.what());
            failed = true;
        }
    }
    if (!out.quiet) fmt::print("{}", format_cluster_summary(cluster));
    std::error_code ec;
    fs::remove_all(plan.dir, ec);  // the meeting place; the nodes' models are in the cluster file
    fs::remove(fs::path(plan.dir).parent_path(), ec);  // removed only when empty
    if (!out.quiet) print_stderr("cluster model: {}\n", out.path);
    return failed ? kExitFailure : kExitOk;
}

} // namespace roofline::cli
