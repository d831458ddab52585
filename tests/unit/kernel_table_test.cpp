// render/kernel_table: bench --list's table and its count line, in the singular for one kernel.
#include "render/kernel_table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace roofline {
namespace {

KernelInfo listed_kernel(const char* name, bool supported) {
    KernelInfo k;
    k.name = name;
    k.kind = KernelKind::memory;
    k.isa = "sse2";
    k.vector_bits = 128;
    k.precision = "dp";
    k.what = "copy";
    k.unit = "element";
    k.bytes = 16;
    k.bytes_write_allocate = 24;
    k.supported = supported;
    return k;
}

TEST(BenchKernelList, CountsInTheSingularForOne) {
    EXPECT_NE(kernel_table_text({listed_kernel("copy.sse2.128", true)}).find("\n1 kernel, which runs on this CPU."),
              std::string::npos);
    EXPECT_NE(kernel_table_text({listed_kernel("copy.avx512.512", false)}).find("\n1 kernel, which does not run on this CPU."),
              std::string::npos);
    const auto two = kernel_table_text({listed_kernel("copy.sse2.128", true), listed_kernel("copy.avx512.512", false)});
    EXPECT_NE(two.find("\n2 kernels, 1 of them runs on this CPU."), std::string::npos) << two;
    const auto three = kernel_table_text({listed_kernel("a", true), listed_kernel("b", true), listed_kernel("c", false)});
    EXPECT_NE(three.find("\n3 kernels, 2 of them run on this CPU."), std::string::npos) << three;
    EXPECT_EQ(kernel_table_text({}).find("kernels,"), std::string::npos);
    EXPECT_EQ(two.find("1 kernels"), std::string::npos);
}

} // namespace
} // namespace roofline
