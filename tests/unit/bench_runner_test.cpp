#include "bench/bench_runner.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {
MachineModel model_with(double l1_one, double l1_two, double l3_one, double l3_two) {
    MachineModel m;
    m.caches = {{1, 32768, 64, 8, 1, 2}, {3, 32u << 20, 64, 16, 2, 1}};
    auto roof = [](const char* level, int threads, double gbs) {
        MemoryRoof r;
        r.level = level;
        r.pattern = "load";
        r.threads = threads;
        r.gbs = gbs;
        return r;
    };
    m.memory = {roof("L1", 1, l1_one), roof("L1", 2, l1_two), roof("L3", 1, l3_one), roof("L3", 2, l3_two)};
    return m;
}
} // namespace

TEST(BenchRunner, WarnsWhenAPrivateCacheDoesNotScale) {
    const auto warnings = private_cache_scaling_warnings(model_with(220, 225, 100, 100));
    ASSERT_EQ(warnings.size(), 1u);  // L1 is per core; the shared L3 may saturate
    EXPECT_NE(warnings[0].find("L1 load"), std::string::npos);
}

TEST(BenchRunner, NoWarningWhenPrivateCachesScale) {
    EXPECT_TRUE(private_cache_scaling_warnings(model_with(220, 440, 100, 180)).empty());
}

TEST(BenchRunner, RejectsImpossibleOptions) {
    const Topology topology = Topology::discover();
    BenchOptions o;
    o.thread_counts = {0};
    EXPECT_THROW(validate_bench_options(topology, o), std::invalid_argument);
    o.thread_counts = {static_cast<int>(topology.cores().size()) + 1};
    EXPECT_THROW(validate_bench_options(topology, o), std::invalid_argument);
    o.thread_counts = {1};
    o.precisions = {"hp"};
    EXPECT_THROW(validate_bench_options(topology, o), std::invalid_argument);
    o.precisions = {"dp"};
    o.validate = true;
    o.memory = false;
    EXPECT_THROW(validate_bench_options(topology, o), std::invalid_argument);
    o.memory = true;
    EXPECT_NO_THROW(validate_bench_options(topology, o));
}
