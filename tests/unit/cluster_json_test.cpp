// io/cluster_json: roofline-netbench's results read, the cluster model written.
#include "io/cluster_json.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace roofline;

TEST(ClusterJson, NetbenchResultsAreReadAndImpossibleOnesRefused) {
    const auto j = nlohmann::json::parse(R"({"schema": "roofline.netbench/1", "scope": "between nodes", "ranks": 4,
        "nodes": 2, "pingpong": [{"bytes": 8, "gbs": 0.004, "seconds": 2e-6}], "alltoall": []})");
    const auto n = network_from_netbench_json(j);
    EXPECT_EQ(n.scope, "between nodes");
    EXPECT_EQ(n.nodes, 2);
    ASSERT_EQ(n.pingpong.size(), 1u);
    EXPECT_DOUBLE_EQ(n.pingpong[0].seconds, 2e-6);
    EXPECT_TRUE(n.alltoall.empty());
    auto bad = j;
    bad["pingpong"][0]["seconds"] = 0;
    EXPECT_THROW(network_from_netbench_json(bad), std::runtime_error);
    bad = j;
    bad["schema"] = "roofline.points/1";
    EXPECT_THROW(network_from_netbench_json(bad), std::runtime_error);
    bad = j;
    bad.erase("scope");
    EXPECT_THROW(network_from_netbench_json(bad), std::runtime_error);
}

TEST(ClusterJson, TheClusterModelHasItsNodesRoofsSickNodesAndNetwork) {
    std::vector<NodeModel> nodes(3);
    for (int i = 0; i < 3; ++i) {
        nodes[i].node = "n" + std::to_string(i);
        nodes[i].rank = 2 * i;
        ComputeRoof c;
        c.precision = "dp";
        c.gflops = i == 2 ? 40 : 100;
        nodes[i].model.compute.push_back(c);
    }
    auto cluster = cluster_model(nodes);
    cluster.network = NetworkMeasurement{"between nodes", 3, {{8, 0.01, 1e-6}}, {}};
    const auto j = cluster_to_json(cluster, nodes);
    EXPECT_EQ(j.at("schema"), "roofline.cluster/1");
    EXPECT_EQ(j.at("nodes").size(), 3u);
    EXPECT_EQ(j.at("nodes")[2].at("rank"), 4);
    EXPECT_EQ(j.at("roofs")[0].at("slowest_node"), "n2");
    EXPECT_EQ(j.at("sick_nodes")[0].at("node"), "n2");
    EXPECT_EQ(j.at("network").at("pingpong")[0].at("bytes"), 8);
}

TEST(ClusterJson, AWrittenClusterModelReadsBackTheSame) {
    std::vector<NodeModel> nodes(3);
    for (int i = 0; i < 3; ++i) {
        nodes[i].node = "n" + std::to_string(i);
        nodes[i].rank = i;
        ComputeRoof c;
        c.precision = "dp";
        c.gflops = i == 1 ? 10 : 100;
        nodes[i].model.compute.push_back(c);
    }
    auto cluster = cluster_model(nodes, 0.2);
    cluster.network = NetworkMeasurement{"between nodes", 3, {{8, 0.01, 1e-6}}, {}};
    const auto text = cluster_to_json(cluster, nodes).dump();
    EXPECT_TRUE(is_cluster_json(text));
    EXPECT_FALSE(is_cluster_json("{\"schema\": \"roofline.machine/1\"}"));
    EXPECT_FALSE(is_cluster_json("not json"));
    const auto back = cluster_from_json(nlohmann::json::parse(text), "c.json");
    ASSERT_EQ(back.nodes.size(), 3u);
    EXPECT_DOUBLE_EQ(back.cluster.threshold, 0.2);
    ASSERT_EQ(back.cluster.sick.size(), 1u);
    EXPECT_EQ(back.cluster.sick[0].node, "n1");
    ASSERT_TRUE(back.cluster.network);
    EXPECT_DOUBLE_EQ(back.cluster.network->pingpong[0].seconds, 1e-6);
    auto j = nlohmann::json::parse(text);
    j["nodes"] = nlohmann::json::array();
    try {
        cluster_from_json(j, "c.json");
        FAIL() << "a cluster without nodes was read";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "c.json: a cluster model without nodes");
    }
}
