#include "cli/cluster_bench.hpp"

#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/usage_error.hpp"
#include "io/cluster_json.hpp"
#include "io/results_store.hpp"
#include "render/cluster_text.hpp"
#include "topo/environment.hpp"
#include "core/message_name.hpp"

#include <fmt/core.h>

#include <cstdlib>

namespace roofline::cli {

app::ClusterBenchPlan join_cluster_bench(const std::string& cluster_output, double wait_seconds) {
    const auto rank = measure::detect_mpi_rank([](const char* name) { return std::getenv(name); });
    if (!rank)
        throw UsageError("--mpi characterizes the nodes of an MPI launch: run it as 'mpirun -np N roofline bench "
                         "--mpi -o cluster.json' (one rank per node is enough; extra ranks on a node wait)");
    return app::join_cluster_bench({*rank, node_name(), cluster_output, wait_seconds});
}

int gather_cluster(const app::ClusterBenchPlan& plan, const ClusterOutput& out) {
    const auto gathered = app::gather_cluster(plan, {out.threshold, out.wait_seconds, out.network_problem});
    for (const auto& p : gathered.problems) print_stderr("roofline: error: {}\n", p);
    if (gathered.nodes.empty()) {
        print_stderr("roofline: error: no node was measured; nothing written\n");
        return kExitFailure;
    }
    if (!gathered.network_warning.empty())
        print_stderr("roofline: warning: no network roof: {}\n", gathered.network_warning);
    bool failed = !gathered.problems.empty();
    try {
        write_cluster_file(out.path, gathered.cluster, gathered.nodes);
    } catch (const std::exception& e) {
        print_stderr("roofline: error: {}\n", e.what());
        failed = true;
    }
    if (!out.no_store) {
        try {
            auto store = ResultsStore::open_db_option(out.db);
            for (const auto& n : gathered.nodes) store->save_machine(n.model);
        } catch (const std::exception& e) {
            print_stderr("roofline: error: the nodes' models are not stored: {}\n", e.what());
            failed = true;
        }
    }
    if (!out.quiet) fmt::print("{}", format_cluster_summary(gathered.cluster));
    app::remove_meeting_place(plan);
    if (!out.quiet) print_stderr("cluster model: {}\n", message_name(out.path));
    return failed ? kExitFailure : kExitOk;
}

} // namespace roofline::cli
