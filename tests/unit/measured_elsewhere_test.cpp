#include "core/measured_elsewhere.hpp"

#include <gtest/gtest.h>

namespace roofline {
namespace {

MachineModel model_of(std::string host, std::string cpu) {
    MachineModel m;
    m.environment.hostname = std::move(host);
    m.cpu.model = std::move(cpu);
    return m;
}

Provenance measured_on(std::string host, std::string cpu) {
    Provenance p;
    p.host = std::move(host);
    p.cpu = std::move(cpu);
    return p;
}

TEST(MeasuredElsewhere, SameHostAndCpuSaysNothing) {
    EXPECT_FALSE(measured_elsewhere("p.json", measured_on("node1", "AMD EPYC 9654"), model_of("node1", "AMD EPYC 9654")));
}

TEST(MeasuredElsewhere, AnotherHostOrCpuIsSaidWithBoth) {
    const auto model = model_of("node2", "Intel(R) Xeon(R) Gold 6148");
    const auto found = measured_elsewhere("p.json", measured_on("node1", "AMD EPYC 9654"), model);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->host, "node1");
    EXPECT_EQ(found->cpu, "AMD EPYC 9654");
    EXPECT_EQ(found->machine_host, "node2");
    EXPECT_EQ(found->machine_cpu, "Intel(R) Xeon(R) Gold 6148");
    const auto text = measured_elsewhere_text({*found});
    EXPECT_NE(text.find("the points were measured on node1 (AMD EPYC 9654) and are judged on the roofs of node2 "
                        "(Intel(R) Xeon(R) Gold 6148)"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("same CPU model"), std::string::npos) << text;
    // A hostname two machines share ("localhost", a container's): the CPU tells them apart.
    EXPECT_TRUE(measured_elsewhere("p.json", measured_on("localhost", "AMD EPYC 9654"),
                                   model_of("localhost", "Intel(R) Xeon(R) Gold 6148")));
    // Another node with the same CPU model: said, and that the CPU model is the same.
    const auto twin = measured_elsewhere("p.json", measured_on("node1", "AMD EPYC 9654"), model_of("node3", "AMD EPYC 9654"));
    ASSERT_TRUE(twin);
    EXPECT_NE(measured_elsewhere_text({*twin}).find("the same CPU model, but another host"), std::string::npos);
}

TEST(MeasuredElsewhere, WhatEitherSideDoesNotSayIsNotADifference) {
    // A spec sheet names no host: nothing was measured anywhere.
    EXPECT_FALSE(measured_elsewhere("p.json", measured_on("node1", "AMD EPYC 9654"), model_of("", "AMD EPYC 9654")));
    // A set written by hand: no host, no CPU.
    EXPECT_FALSE(measured_elsewhere("p.json", measured_on("", ""), model_of("node1", "AMD EPYC 9654")));
    // Only the host known on the set's side, and it agrees.
    EXPECT_FALSE(measured_elsewhere("p.json", measured_on("node1", ""), model_of("node1", "AMD EPYC 9654")));
}

TEST(MeasuredElsewhere, AnMpiJobAgreesWhenTheModelsHostIsOneOfItsHosts) {
    auto p = measured_on("node1", "AMD EPYC 9654");
    p.mpi = MpiProvenance{"Open MPI", "1", -1, 2, {"node1", "node2"}};
    EXPECT_FALSE(measured_elsewhere("job.json", p, model_of("node2", "AMD EPYC 9654")));
    const auto found = measured_elsewhere("job.json", p, model_of("node9", "AMD EPYC 9654"));
    ASSERT_TRUE(found);
    EXPECT_EQ(found->host, "node1, node2");
}

TEST(MeasuredElsewhere, SeveralSetsAreEachNamed) {
    const auto model = model_of("vm", "AMD EPYC");
    const auto found = sets_measured_elsewhere(
        {{"a.json", measured_on("node1", "Intel Xeon")}, {"b.json", measured_on("vm", "AMD EPYC")},
         {"c.json", measured_on("node2", "Intel Xeon")}},
        3, model);
    ASSERT_EQ(found.size(), 2u);
    const auto text = measured_elsewhere_text(found);
    EXPECT_NE(text.find("the points of a.json were measured on node1 (Intel Xeon), those of c.json on node2 (Intel "
                        "Xeon), and are judged on the roofs of vm (AMD EPYC)"),
              std::string::npos)
        << text;
    // One set of two measured elsewhere: named, since the other was not.
    const auto one = sets_measured_elsewhere({{"a.json", measured_on("node1", "Intel Xeon")}}, 2, model);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_NE(measured_elsewhere_text(one).find("the points of a.json were measured on node1"), std::string::npos);
    EXPECT_EQ(measured_elsewhere_text({}), "");
}

} // namespace
} // namespace roofline
