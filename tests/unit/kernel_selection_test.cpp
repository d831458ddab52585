#include "bench/isa_support.hpp"
#include "bench/kernel_selection.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace roofline;

TEST(KernelSelection, FilterByIsaAndName) {
    BenchOptions o;
    EXPECT_TRUE(kernel_allowed(o, "copy.avx2.256", Isa::avx2));
    o.isa = "sse2";
    EXPECT_FALSE(kernel_allowed(o, "copy.avx2.256", Isa::avx2));
    EXPECT_TRUE(kernel_allowed(o, "copy.sse2.128", Isa::sse2));
    o.isa.clear();
    o.kernels = {"copy.sse2.128"};
    EXPECT_FALSE(kernel_allowed(o, "load.sse2.128", Isa::sse2));
    EXPECT_TRUE(kernel_allowed(o, "copy.sse2.128", Isa::sse2));
}

// Naming memory kernels only: the compute part is off and the patterns follow.
TEST(KernelSelection, NamedKernelsDecideTheParts) {
    BenchOptions o;
    o.kernels = {"copy.sse2.128", "load.sse2.128"};
    resolve_kernel_selection(o);
    EXPECT_FALSE(o.compute);
    EXPECT_TRUE(o.memory);
    EXPECT_EQ(o.patterns, (std::vector<std::string>{"copy", "load"}));
    BenchOptions bad;
    bad.kernels = {"no.such.kernel"};
    EXPECT_THROW(resolve_kernel_selection(bad), std::invalid_argument);
}

TEST(KernelSelection, CatalogCountsMatchTheKernels) {
    const auto catalog = kernel_catalog();
    ASSERT_FALSE(catalog.empty());
    const auto copy = std::find_if(catalog.begin(), catalog.end(), [](auto& k) { return k.name == "copy.sse2.128"; });
    ASSERT_NE(copy, catalog.end());
    EXPECT_EQ(copy->bytes, 16);
    EXPECT_EQ(copy->bytes_write_allocate, 24);
    EXPECT_TRUE(copy->supported);  // SSE2 is part of x86-64
    for (const auto& k : catalog) EXPECT_EQ(k.supported, isa_supported(*parse_isa(k.isa))) << k.name;
}
