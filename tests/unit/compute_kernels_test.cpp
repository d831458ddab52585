#include "bench/isa_support.hpp"
#include "bench/kernel.hpp"
#include "bench/kernel_check.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace roofline;

TEST(ComputeKernels, EverySupportedKernelComputesWhatItsMetadataSays) {
    int checked = 0;
    for (const auto& k : all_compute_kernels()) {
        if (!isa_supported(k.isa)) continue;
        EXPECT_EQ(check_compute_kernel(k), "") << k.name;
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

TEST(ComputeKernels, CheckCatchesAWrongKernel) {
    const ComputeKernel* original = nullptr;
    for (const auto& k : all_compute_kernels())
        if (isa_supported(k.isa) && k.fma_chains > 0) { original = &k; break; }
    if (!original) GTEST_SKIP() << "no FMA kernel runs on this CPU";
    ComputeKernel lying = *original;
    lying.steps_per_iteration += 1;  // metadata no longer matches the code
    EXPECT_NE(check_compute_kernel(lying), "");
}

TEST(ComputeKernels, MetadataIsConsistent) {
    std::set<std::string> names;
    for (const auto& k : all_compute_kernels()) {
        EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
        EXPECT_GT(k.chains(), 0) << k.name;
        EXPECT_EQ(k.lanes() * (k.precision == "sp" ? 32 : 64), k.vector_bits) << k.name;
        const double expected = k.lanes() * (2.0 * k.fma_chains + k.add_chains + k.mul_chains) * k.steps_per_iteration;
        EXPECT_DOUBLE_EQ(k.flops_per_iteration(), expected) << k.name;
        if (k.mix == "chain") {
            EXPECT_EQ(k.chains(), 1) << k.name;
        }
    }
}

TEST(IntensityKernels, EachComputesItsKnownSumAndSpansTheRange) {
    if (!isa_supported(Isa::avx2)) GTEST_SKIP() << "needs AVX2";
    double lo = 1e9, hi = 0;
    for (const auto& k : all_intensity_kernels()) {
        EXPECT_EQ(check_intensity_kernel(k), "") << k.name;
        lo = std::min(lo, k.intensity());
        hi = std::max(hi, k.intensity());
    }
    EXPECT_DOUBLE_EQ(lo, 1.0 / 16);
    EXPECT_DOUBLE_EQ(hi, 64.0);
}
