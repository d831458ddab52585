// core/cluster_model: roofs across nodes and the sick-node report.
#include "core/cluster_model.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace roofline;

namespace {

NodeModel node(const std::string& name, int rank, double dp_gflops, double dram_gbs) {
    NodeModel n;
    n.node = name;
    n.rank = rank;
    ComputeRoof c;
    c.precision = "dp";
    c.threads = 2;
    c.gflops = dp_gflops;
    n.model.compute.push_back(c);
    c.gflops = dp_gflops / 2;  // a weaker roof of the same precision and threads: the best one counts
    n.model.compute.push_back(c);
    MemoryRoof m;
    m.level = "DRAM";
    m.pattern = "triad";
    m.threads = 2;
    m.gbs = dram_gbs;
    n.model.memory.push_back(m);
    return n;
}

const ClusterRoof& roof(const ClusterModel& c, const std::string& name) {
    for (const auto& r : c.roofs)
        if (r.name == name) return r;
    throw std::runtime_error("no roof " + name);
}

} // namespace

TEST(ClusterModel, EachRoofAcrossTheNodesWithMedianSlowestAndSpread) {
    const auto c = cluster_model({node("n1", 0, 100, 40), node("n2", 1, 98, 41), node("n3", 2, 102, 20),
                                  node("n4", 3, 95, 39)});
    EXPECT_EQ(c.nodes, (std::vector<std::string>{"n1", "n2", "n3", "n4"}));
    const auto& dp = roof(c, "DP peak, 2 threads");
    EXPECT_EQ(dp.unit, "GFLOP/s");
    EXPECT_EQ(dp.values.size(), 4u);
    EXPECT_DOUBLE_EQ(dp.median, 99);
    EXPECT_DOUBLE_EQ(dp.max, 102);
    EXPECT_EQ(dp.slowest, "n4");
    EXPECT_DOUBLE_EQ(dp.spread, 7.0 / 99);
    const auto& dram = roof(c, "DRAM triad, 2 threads");
    EXPECT_EQ(dram.unit, "GB/s");
    EXPECT_DOUBLE_EQ(dram.median, 39.5);
    // The sick node: n3's DRAM at half the median (a degraded DIMM); n4's 4% slower compute is not.
    ASSERT_EQ(c.sick.size(), 1u);
    EXPECT_EQ(c.sick[0].node, "n3");
    EXPECT_EQ(c.sick[0].roof, "DRAM triad, 2 threads");
    EXPECT_NEAR(c.sick[0].shortfall, 1 - 20 / 39.5, 1e-12);
    // A stricter threshold catches n4's compute too, the worst shortfall first.
    const auto strict = cluster_model({node("n1", 0, 100, 40), node("n2", 1, 98, 41), node("n3", 2, 102, 20),
                                       node("n4", 3, 95, 39)},
                                      0.03);
    ASSERT_EQ(strict.sick.size(), 2u);
    EXPECT_EQ(strict.sick[0].node, "n3");
    EXPECT_EQ(strict.sick[1].node, "n4");
}

TEST(ClusterModel, TwoNodesCannotTellWhichIsSick) {
    const auto c = cluster_model({node("a", 0, 100, 40), node("b", 1, 50, 10)});
    EXPECT_TRUE(c.sick.empty());
    EXPECT_DOUBLE_EQ(roof(c, "DRAM triad, 2 threads").spread, 30.0 / 25);
}

TEST(ClusterModel, ARoofANodeLacksIsListed) {
    auto partial = node("c", 2, 100, 40);
    partial.model.memory.clear();
    const auto c = cluster_model({node("a", 0, 100, 40), node("b", 1, 100, 40), partial});
    ASSERT_EQ(c.missing.size(), 1u);
    EXPECT_EQ(c.missing[0], (std::pair<std::string, std::string>{"c", "DRAM triad, 2 threads"}));
    EXPECT_EQ(roof(c, "DRAM triad, 2 threads").values.size(), 2u);
}

TEST(ClusterModel, BadInputsAreRefused) {
    EXPECT_THROW(cluster_model({}), std::invalid_argument);
    EXPECT_THROW(cluster_model({node("a", 0, 1, 1), node("a", 1, 1, 1)}), std::invalid_argument);
    EXPECT_THROW(cluster_model({node("a", 0, 1, 1)}, 0), std::invalid_argument);
    EXPECT_THROW(cluster_model({node("a", 0, 1, 1)}, 1.5), std::invalid_argument);
}

TEST(ClusterModel, TheNetworkPlateauBecomesEachNodesNetworkRoof) {
    NetworkMeasurement net;
    net.scope = "between nodes";
    net.nodes = 2;
    net.pingpong = {{8, 0.003, 2.5e-6}, {1 << 20, 11.5, 9e-5}, {4 << 20, 11.0, 3.8e-4}};
    net.alltoall = {{1024, 0.5, 2e-6}, {1 << 18, 6.0, 4e-5}};
    const auto roofs = network_roofs(net, 64);
    ASSERT_EQ(roofs.size(), 2u);
    EXPECT_EQ(roofs[0].level, "network");
    EXPECT_EQ(roofs[0].pattern, "pingpong");
    EXPECT_DOUBLE_EQ(roofs[0].gbs, 11.5) << "the best size: the plateau";
    EXPECT_EQ(roofs[0].threads, 64);
    EXPECT_EQ(roofs[1].pattern, "alltoall");
    EXPECT_DOUBLE_EQ(roofs[1].gbs, 6.0);
    net.scope = "within one node";
    EXPECT_TRUE(network_roofs(net, 64).empty()) << "shared memory is not a network";
    // The network roof is the same for every node: not a roof to tell nodes apart by.
    auto a = node("a", 0, 100, 40), b = node("b", 1, 100, 40), c = node("c", 2, 100, 40);
    net.scope = "between nodes";
    for (auto* n : {&a, &b, &c})
        for (const auto& r : network_roofs(net, 2)) n->model.memory.push_back(r);
    for (const auto& r : cluster_model({a, b, c}).roofs) EXPECT_EQ(r.name.find("network"), std::string::npos);
    // Added to a node at its widest thread count, compute included (a --only compute model).
    NodeModel compute_only = node("d", 3, 100, 40);
    compute_only.model.memory.clear();
    add_network_roofs(compute_only.model, net);
    ASSERT_EQ(compute_only.model.memory.size(), 2u);
    EXPECT_EQ(compute_only.model.memory[0].threads, 2);
}
