// The cluster bench's use case (app/cluster_bench.hpp) with fake ranks in threads: they meet
// through files, the lowest rank of each node is its leader, a rank that never comes is said,
// and rank 0 gathers the models the leaders wrote and the failures they said.
#include "app/cluster_bench.hpp"
#include "io/machine_json.hpp"
#include "io/temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace roofline::app {
namespace {

const std::string kMachine = std::string(ROOFLINE_TEST_DATA_DIR) + "/report-machine.json";

// Ranks 0..nodes.size()-1 of one launch join at once, rank r on nodes[r].
std::vector<ClusterBenchPlan> join_fake_ranks(const std::vector<std::string>& nodes, const std::string& output) {
    std::vector<ClusterBenchPlan> plans(nodes.size());
    std::vector<std::thread> ranks;
    const int size = static_cast<int>(nodes.size());
    for (int r = 0; r < size; ++r)
        ranks.emplace_back([&, r] {
            plans[r] = join_cluster_bench({{r, size, "job-42", "test"}, nodes[r], output, 30});
        });
    for (auto& t : ranks) t.join();
    return plans;
}

TEST(ClusterBench, FakeRanksOnTwoNodesMeetAndTheLowestRankOfEachMeasures) {
    TempDir dir("roofline-cluster-bench-test");
    const auto plans = join_fake_ranks({"node-a", "node-a", "node-b"}, dir.file("cluster.json"));
    const std::vector<std::pair<int, std::string>> leaders{{0, "node-a"}, {2, "node-b"}};
    for (const auto& plan : plans) {
        EXPECT_EQ(plan.leaders, leaders);
        EXPECT_EQ(plan.dir, plans[0].dir);
    }
    EXPECT_TRUE(plans[0].leader);
    EXPECT_FALSE(plans[1].leader);  // node-a is rank 0's
    EXPECT_TRUE(plans[2].leader);

    // node-a measured; node-b's bench failed and said so.
    write_machine_file(node_model_path(plans[0], 0), read_machine_file(kMachine));
    report_node_failure(plans[2], "its bench run ended with exit code 1");
    const auto gathered = gather_cluster(plans[0], {0.1, 5, "roofline-netbench was not built"});
    ASSERT_EQ(gathered.nodes.size(), 1u);
    EXPECT_EQ(gathered.nodes[0].node, "node-a");
    EXPECT_EQ(gathered.nodes[0].rank, 0);
    EXPECT_EQ(gathered.cluster.nodes, std::vector<std::string>{"node-a"});
    EXPECT_FALSE(gathered.cluster.network);
    ASSERT_EQ(gathered.problems.size(), 1u);
    EXPECT_EQ(gathered.problems[0], "node node-b (rank 2): its bench run ended with exit code 1");
    EXPECT_EQ(gathered.network_warning, "roofline-netbench was not built");

    remove_meeting_place(plans[0]);
    EXPECT_FALSE(std::filesystem::exists(plans[0].dir));
}

TEST(ClusterBench, ARankThatNeverComesIsSaidWithHowManyCame) {
    TempDir dir("roofline-cluster-bench-test");
    ClusterJoinRequest alone;  // rank 0 of 2; rank 1 never starts
    alone.rank = {0, 2, "job-7", "test"};
    alone.node = "node-a";
    alone.cluster_output = dir.file("cluster.json");
    alone.wait_seconds = 0.2;
    try {
        (void)join_cluster_bench(alone);
        FAIL() << "rank 1 never came, and no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("rank 0: only 1 of 2 ranks said which node they run on"),
                  std::string::npos) << e.what();
    }
}

TEST(ClusterBench, NoNodeModelIsNothingToGather) {
    TempDir dir("roofline-cluster-bench-test");
    const auto plans = join_fake_ranks({"node-a"}, dir.file("cluster.json"));
    const auto gathered = gather_cluster(plans[0], {0.1, 0.2, ""});
    EXPECT_TRUE(gathered.nodes.empty());
    ASSERT_EQ(gathered.problems.size(), 1u);
    EXPECT_NE(gathered.problems[0].find("node node-a (rank 0) wrote no model within 0.2 s"), std::string::npos)
        << gathered.problems[0];
    EXPECT_TRUE(gathered.network_warning.empty());
}

} // namespace
} // namespace roofline::app
