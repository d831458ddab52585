// Every reference kernel runs and its result matches the value known on paper
// (bench/reference_kernel_run.hpp); no timing is judged here.
#include "bench/isa_support.hpp"
#include "bench/reference_kernel_run.hpp"
#include "bench/thread_team.hpp"
#include "topo/topology.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace roofline {
namespace {

TEST(ReferenceKernelRun, EveryKernelChecksOut) {
    ReferenceRunOptions quick;
    quick.samples = 2;
    quick.min_sample_seconds = 1e-4;
    for (const auto& k : reference_kernels()) {
        for (const std::int64_t n : {std::int64_t{3}, std::int64_t{37}, k.n_for_working_set(200e3)}) {
            const auto run = run_reference_kernel(k, n, quick);
            EXPECT_TRUE(run.checked) << k.name << " n=" << n << ": " << run.check_error;
            EXPECT_EQ(run.n, n);
            EXPECT_EQ(run.samples, 2);
            EXPECT_GT(run.seconds, 0) << k.name;
            EXPECT_LE(run.fastest, run.slowest);
            EXPECT_DOUBLE_EQ(run.counts.flops, k.counts(n).flops);
        }
    }
}

TEST(ReferenceKernelRun, ParametersReachTheKernelAndItsCheck) {
    ReferenceRunOptions quick;
    quick.samples = 1;
    quick.min_sample_seconds = 1e-4;
    for (const auto& [name, param, values] :
         {std::tuple{"atb_ours", "m", std::vector<std::int64_t>{8, 16, 24, 32, 48, 64}},
          std::tuple{"atb_openblas", "m", std::vector<std::int64_t>{8, 64}},
          std::tuple{"spmv_random", "nnzr", std::vector<std::int64_t>{1, 5, 33}}}) {
        const auto* k = find_reference_kernel(name);
        for (const auto v : values) {
            quick.params = {{param, v}};
            for (const std::int64_t n : {std::int64_t{1}, std::int64_t{300}, std::int64_t{1000}}) {
                const auto run = run_reference_kernel(*k, n, quick);
                EXPECT_TRUE(run.checked) << name << " " << param << "=" << v << " n=" << n << ": " << run.check_error;
                EXPECT_DOUBLE_EQ(run.counts.flops, k->counts(n, quick.params).flops);
            }
        }
    }
    quick.params = {{"m", 12}};
    EXPECT_THROW(run_reference_kernel(*find_reference_kernel("atb_ours"), 100, quick), std::invalid_argument);
}

// atb_ours picks its register block by the CPU (8 x 16 with AVX-512 where m % 16 == 0): the
// counts and details are those of the block that ran, and the result checks out either way.
TEST(ReferenceKernelRun, AtbCountsAreThoseOfTheBlockThatRan) {
    ReferenceRunOptions quick;
    quick.samples = 1;
    quick.min_sample_seconds = 1e-4;
    const auto* k = find_reference_kernel("atb_ours");
    for (const std::int64_t m : {8, 16, 40, 48}) {
        quick.params = {{"m", m}};
        const auto run = run_reference_kernel(*k, 500, quick);
        const AtbBlock block = atb_block(m, isa_supported(Isa::avx512) ? 512 : isa_supported(Isa::avx2) ? 256 : 128);
        EXPECT_TRUE(run.checked) << "m=" << m << ": " << run.check_error;
        EXPECT_EQ(run.details.at("block_rows"), block.rows) << "m=" << m;
        EXPECT_EQ(run.details.at("block_cols"), block.cols) << "m=" << m;
        EXPECT_EQ(run.details.at("vector_bits"), block.vector_bits) << "m=" << m;
        EXPECT_DOUBLE_EQ(run.counts.loaded, atb_ours_counts(500, m, block).loaded) << "m=" << m;
        EXPECT_DOUBLE_EQ(run.counts.flops, k->counts(500, quick.params).flops) << "the block does not change the FLOPs";
    }
    quick.params = {{"m", 16}};
    EXPECT_TRUE(run_reference_kernel(*find_reference_kernel("atb_openblas"), 500, quick).details.empty());
}

TEST(ReferenceKernelRun, ColdCachesTimeOneCallASample) {
    for (const auto mode : {CacheMode::cold_data, CacheMode::cold_code, CacheMode::cold}) {
        ReferenceRunOptions o;
        o.samples = 3;
        o.cache = mode;
        for (const char* name : {"stream_triad", "spmv_laplace3d", "sum_sp_simd"}) {
            const auto* k = find_reference_kernel(name);
            const auto run = run_reference_kernel(*k, k->n_for_working_set(64e3), o);
            EXPECT_TRUE(run.checked) << name << " " << cache_mode_name(mode) << ": " << run.check_error;
            EXPECT_EQ(run.calls_per_sample, 1) << name;
            EXPECT_EQ(run.samples, 3);
        }
    }
    EXPECT_EQ(parse_cache_mode("cold-data"), CacheMode::cold_data);
    EXPECT_EQ(parse_cache_mode("warm"), CacheMode::warm);
    EXPECT_FALSE(parse_cache_mode("tepid").has_value());
    for (const auto mode : {CacheMode::warm, CacheMode::cold_data, CacheMode::cold_code, CacheMode::cold})
        EXPECT_EQ(parse_cache_mode(cache_mode_name(mode)), mode);
}

// A team runs the kernel on arrays of its own per thread; every thread's result is checked.
TEST(ReferenceKernelRun, EveryThreadOfATeamChecksOut) {
    const auto topology = Topology::discover();
    const int threads = std::min<int>(2, static_cast<int>(topology.cores().size()));
    ThreadTeam team(topology, threads);
    ReferenceRunOptions quick;
    quick.samples = 2;
    quick.min_sample_seconds = 1e-4;
    for (const auto& k : reference_kernels()) {
        const auto run = run_reference_kernel(k, k.n_for_working_set(100e3), quick, team);
        EXPECT_TRUE(run.checked) << k.name << ": " << run.check_error;
        EXPECT_EQ(run.threads, threads);
        EXPECT_GT(run.seconds, 0);
    }
    quick.cache = CacheMode::cold;
    const auto cold = run_reference_kernel(*find_reference_kernel("daxpy"), 1000, quick, team);
    EXPECT_TRUE(cold.checked) << cold.check_error;
    EXPECT_EQ(cold.calls_per_sample, 1);
}

TEST(ReferenceKernelRun, MedianIsBetweenTheExtremes) {
    ReferenceRunOptions o;
    o.samples = 5;
    o.min_sample_seconds = 1e-4;
    o.median = true;
    const auto run = run_reference_kernel(*find_reference_kernel("ddot"), 1000, o);
    EXPECT_GE(run.seconds, run.fastest);
    EXPECT_LE(run.seconds, run.slowest);
}

TEST(ReferenceKernelRun, ImpossibleSizesAreRefused) {
    EXPECT_THROW(run_reference_kernel(*find_reference_kernel("stream_copy"), 0, {}), std::invalid_argument);
    EXPECT_THROW(run_reference_kernel(*find_reference_kernel("jacobi2d"), 2, {}), std::invalid_argument);
}

} // namespace
} // namespace roofline
