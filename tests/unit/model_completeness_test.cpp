// What a machine model holds, as `list` marks it and as plot, report and measure choose
// the latest complete one (core/model_completeness.hpp); how `list` shows it.
#include "core/model_completeness.hpp"
#include "render/store_listing.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace roofline;

namespace {

MemoryRoof roof(const char* level, double gbs) {
    MemoryRoof r;
    r.level = level;
    r.pattern = "load";
    r.gbs = gbs;
    return r;
}

MachineModel complete_model() {
    MachineModel m;
    ComputeRoof c;
    c.precision = "dp";
    c.gflops = 50;
    m.compute.push_back(c);
    m.memory.push_back(roof("L1", 200));
    m.memory.push_back(roof("DRAM", 20));
    return m;
}

} // namespace

// bench --isa sse2 once stored a "complete" model whose SSE2 peak then judged OpenBLAS's
// AVX-512 DGEMM "81.6% above its roof: a measurement error".
TEST(ModelCompleteness, ARunKeptToSomeKernelsIsNotTheMachinesModel) {
    auto kept = complete_model();
    kept.environment.restricted_to = "--isa sse2";
    EXPECT_FALSE(completeness_of(kept).complete());
    EXPECT_EQ(completeness_label(completeness_of(kept)), "restricted");
    EXPECT_EQ(completeness_lacks(completeness_of(kept)),
              "its run was kept to --isa sse2, so its roofs are not the machine's best");
    kept.memory.clear();
    EXPECT_EQ(completeness_label(completeness_of(kept)), "compute-only, restricted");
}

TEST(ModelCompleteness, ComputeAndALevelsBandwidthFromARunThatFinished) {
    const auto whole = completeness_of(complete_model());
    EXPECT_TRUE(whole.complete());
    EXPECT_EQ(completeness_label(whole), "complete");
    EXPECT_EQ(completeness_lacks(whole), "");

    auto memory_only = complete_model();
    memory_only.compute.clear();
    EXPECT_EQ(completeness_label(completeness_of(memory_only)), "memory-only");
    EXPECT_EQ(completeness_lacks(completeness_of(memory_only)), "no compute roof");

    auto compute_only = complete_model();
    compute_only.memory.clear();
    EXPECT_EQ(completeness_label(completeness_of(compute_only)), "compute-only");
    EXPECT_EQ(completeness_lacks(completeness_of(compute_only)), "no bandwidth roof of a memory level");

    auto interrupted = complete_model();
    interrupted.partial = true;
    EXPECT_FALSE(completeness_of(interrupted).complete());
    EXPECT_EQ(completeness_label(completeness_of(interrupted)), "interrupted");
    interrupted.compute.clear();
    EXPECT_EQ(completeness_label(completeness_of(interrupted)), "memory-only, interrupted");
    EXPECT_EQ(completeness_lacks(completeness_of(interrupted)),
              "no compute roof; its run was interrupted, so some roofs may be missing");

    EXPECT_EQ(completeness_label(completeness_of(MachineModel{})), "no roofs");
}

// Roofs that bound no point on their own do not make a model complete.
TEST(ModelCompleteness, WorkingSetsOfNoLevelNumaPairsAndBusesAreNoMemoryLevel) {
    for (const char* level : {"custom", "NUMA0->1", "PCIe", "network"}) {
        auto m = complete_model();
        m.memory = {roof(level, 30)};
        EXPECT_EQ(completeness_label(completeness_of(m)), "compute-only") << level;
    }
    auto hbm = complete_model();
    hbm.memory = {roof("HBM", 900)};
    EXPECT_TRUE(completeness_of(hbm).complete());
    auto unmeasured = complete_model();
    unmeasured.compute[0].gflops = 0;
    EXPECT_EQ(completeness_label(completeness_of(unmeasured)), "memory-only");
}

TEST(StoreListing, MarksPartialModelsInEveryFormat) {
    std::vector<StoredMachine> machines(4);
    for (std::size_t i = 0; i < machines.size(); ++i) machines[i].id = static_cast<std::int64_t>(i + 1);
    machines[0].completeness = completeness_of(complete_model());
    auto memory_only = complete_model();
    memory_only.compute.clear();
    machines[1].completeness = completeness_of(memory_only);
    machines[2].partial = true;
    machines[2].completeness = ModelCompleteness{true, true, true};
    machines[3].unreadable = "m.json: /cpu: missing";

    const auto text = render_store_listing("r.db", machines, {}, ReportFormat::text);
    EXPECT_NE(text.find("  yes\n"), std::string::npos) << text;
    EXPECT_NE(text.find("no (memory-only)"), std::string::npos) << text;
    EXPECT_NE(text.find("no (interrupted)"), std::string::npos) << text;
    EXPECT_NE(text.find("no (unreadable)"), std::string::npos) << text;

    const auto json = render_store_listing("r.db", machines, {}, ReportFormat::json);
    EXPECT_NE(json.find("\"complete\": true"), std::string::npos) << json;
    EXPECT_NE(json.find("\"contents\": \"memory-only\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"complete\": null"), std::string::npos) << json;  // unreadable: not known

    const auto csv = render_store_listing("r.db", machines, {}, ReportFormat::csv);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "kind,id,created,host,cpu,mode,partial,points,machine_id,source,contents");
    EXPECT_NE(csv.find(",memory-only\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",interrupted\n"), std::string::npos) << csv;
}
