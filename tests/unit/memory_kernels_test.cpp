// Memory-bandwidth kernels: registration metadata, and every kernel this CPU can
// run checked element by element against a scalar reference (so a kernel the
// compiler gutted, or one that overruns its arrays, fails loudly).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <ostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/isa_support.hpp"
#include "bench/kernel.hpp"
#include "bench/kernel_check.hpp"

namespace roofline {
// Readable test output instead of a byte dump of the parameter.
void PrintTo(const MemoryKernel& kernel, std::ostream* os) { *os << kernel.name; }
} // namespace roofline

namespace {

using roofline::Isa;
using roofline::MemoryKernel;

// Sizes used below; every kernel's block_elements must divide them.
constexpr std::size_t small_n = 448;   // 7 * 64: several blocks, not a power of two
constexpr std::size_t large_n = 12288; // 96 kB per array: larger than L1
constexpr std::size_t guard = 64;      // sentinel elements after each array
constexpr double sentinel = -12345.0;

const char* const all_patterns[] = {"load", "store", "copy", "triad", "2ld1st", "store_nt", "copy_nt", "triad_nt"};

struct Deleter {
    void operator()(double* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<double[], Deleter>;

// 64-byte aligned, as the bench guarantees to kernels.
Buffer aligned_doubles(std::size_t count) {
    const std::size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
    return Buffer(static_cast<double*>(std::aligned_alloc(64, bytes)));
}

double b_value(std::size_t i) { return static_cast<double>(i % 7) + 0.5; }
// Not integers, so that scalar*c rounds and FMA differs from mul+add for some i.
double c_value(std::size_t i) { return 2.1 - static_cast<double>(i % 3); }
constexpr double triad_scalar = 0.3;

// The vector kernels compute triad with FMA (one rounding) where the ISA has it
// (AVX2 and AVX-512 are compiled with -mfma) and with mul then add on SSE2.
double triad_reference(Isa isa, double b, double c) {
    if (isa == Isa::sse2) {
        const double product = triad_scalar * c; // its own rounding, as _mm_mul_pd
        return b + product;
    }
    return std::fma(triad_scalar, c, b);
}

struct Arrays {
    Buffer a, b, c;
    std::size_t n;

    explicit Arrays(std::size_t count)
        : a(aligned_doubles(count + guard)), b(aligned_doubles(count + guard)), c(aligned_doubles(count + guard)),
          n(count) {
        for (std::size_t i = 0; i < n + guard; ++i) {
            const bool in_range = i < n;
            a[i] = in_range ? -1.0 : sentinel;
            b[i] = in_range ? b_value(i) : sentinel;
            c[i] = in_range ? c_value(i) : sentinel;
        }
    }
    // Destination first, then sources, as kernel.hpp specifies.
    std::vector<double*> pointers(const MemoryKernel& k) const {
        if (k.pattern == "load") return {b.get()};
        if (k.pattern == "store" || k.pattern == "store_nt") return {a.get()};
        if (k.pattern == "copy" || k.pattern == "copy_nt") return {a.get(), b.get()};
        return {a.get(), b.get(), c.get()};
    }
};

std::string test_name(const testing::TestParamInfo<MemoryKernel>& info) {
    std::string name = info.param.name;
    for (char& ch : name) {
        if (ch == '.') ch = '_';
    }
    return name;
}

class MemoryKernelRun : public testing::TestWithParam<MemoryKernel> {};

TEST_P(MemoryKernelRun, MatchesScalarReference) {
    const MemoryKernel& k = GetParam();
    if (!roofline::isa_supported(k.isa)) {
        GTEST_SKIP() << k.name << ": this CPU does not support " << roofline::isa_name(k.isa);
    }
    ASSERT_NE(k.run, nullptr);
    for (const std::size_t n : {small_n, large_n}) {
        for (const std::uint64_t passes : {1u, 3u}) {
            SCOPED_TRACE(testing::Message() << "n=" << n << " passes=" << passes);
            Arrays arr(n);
            const std::vector<double*> ptrs = arr.pointers(k);
            ASSERT_EQ(static_cast<int>(ptrs.size()), k.arrays);
            const double returned = k.run(ptrs.data(), n, passes, triad_scalar);

            if (k.pattern == "load") {
                // Half-integers: every partial sum is exact, so summation order does not matter.
                // The array is read as four quarters side by side: the last block read is the
                // last quarter-block of each quarter.
                double sum = 0.0;
                for (std::size_t q = 1; q <= 4; ++q)
                    for (std::size_t i = q * n / 4 - k.block_elements / 4; i < q * n / 4; ++i) sum += b_value(i);
                EXPECT_EQ(returned, sum) << "load returns the sum of the last block it read";
            }
            std::size_t mismatches = 0;
            for (std::size_t i = 0; i < n && mismatches < 5; ++i) {
                double expected = -1.0; // untouched
                if (k.pattern == "store" || k.pattern == "store_nt") expected = triad_scalar;
                if (k.pattern == "copy" || k.pattern == "copy_nt") expected = b_value(i);
                if (k.pattern == "triad" || k.pattern == "triad_nt") expected = triad_reference(k.isa, b_value(i), c_value(i));
                if (k.pattern == "2ld1st") expected = b_value(i) + c_value(i);
                if (arr.a[i] != expected) {
                    ++mismatches;
                    ADD_FAILURE() << "a[" << i << "] = " << arr.a[i] << ", expected " << expected;
                }
                // Sources are read only.
                EXPECT_EQ(arr.b[i], b_value(i));
                EXPECT_EQ(arr.c[i], c_value(i));
            }
            for (std::size_t i = n; i < n + guard; ++i) {
                ASSERT_EQ(arr.a[i], sentinel) << "wrote past n at " << i;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllMemoryKernels, MemoryKernelRun, testing::ValuesIn(roofline::all_memory_kernels()),
                         test_name);

// The triad check above can only tell FMA from mul+add if the data makes them differ.
TEST(MemoryKernels, TriadDataDistinguishesFmaFromMulAdd) {
    std::size_t differing = 0;
    for (std::size_t i = 0; i < small_n; ++i) {
        if (triad_reference(Isa::sse2, b_value(i), c_value(i)) != triad_reference(Isa::avx2, b_value(i), c_value(i))) {
            ++differing;
        }
    }
    EXPECT_GT(differing, 0u);
}

TEST(MemoryKernels, BytesPerElementPerPattern) {
    struct Bytes {
        double nominal, write_allocate;
    };
    const std::map<std::string, Bytes> expected = {
        {"load", {8, 8}},      {"store", {8, 16}},   {"copy", {16, 24}},    {"triad", {24, 32}},
        {"2ld1st", {24, 32}},  {"store_nt", {8, 8}}, {"copy_nt", {16, 16}}, {"triad_nt", {24, 24}},
    };
    ASSERT_FALSE(roofline::all_memory_kernels().empty());
    for (const MemoryKernel& k : roofline::all_memory_kernels()) {
        SCOPED_TRACE(k.name);
        const auto it = expected.find(k.pattern);
        ASSERT_NE(it, expected.end()) << "unknown pattern " << k.pattern;
        EXPECT_EQ(k.nominal_bytes_per_element(), it->second.nominal);
        EXPECT_EQ(k.write_allocate_bytes_per_element(), it->second.write_allocate);
    }
}

TEST(MemoryKernels, FlopsAndArraysPerPattern) {
    struct Shape {
        int arrays, reads, writes, flops;
        bool nontemporal;
    };
    const std::map<std::string, Shape> expected = {
        {"load", {1, 1, 0, 0, false}},   {"store", {1, 0, 1, 0, false}},   {"copy", {2, 1, 1, 0, false}},
        {"triad", {3, 2, 1, 2, false}},  {"2ld1st", {3, 2, 1, 1, false}},  {"store_nt", {1, 0, 1, 0, true}},
        {"copy_nt", {2, 1, 1, 0, true}}, {"triad_nt", {3, 2, 1, 2, true}},
    };
    for (const MemoryKernel& k : roofline::all_memory_kernels()) {
        SCOPED_TRACE(k.name);
        const Shape& s = expected.at(k.pattern);
        EXPECT_EQ(k.arrays, s.arrays);
        EXPECT_EQ(k.reads_per_element, s.reads);
        EXPECT_EQ(k.writes_per_element, s.writes);
        EXPECT_EQ(k.flops_per_element, s.flops);
        EXPECT_EQ(k.nontemporal, s.nontemporal);
        EXPECT_NE(k.run, nullptr);
    }
}

TEST(MemoryKernels, NamesUniqueAndDescriptive) {
    std::set<std::string> names;
    for (const MemoryKernel& k : roofline::all_memory_kernels()) {
        EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
        const std::string expected =
            k.pattern + "." + roofline::isa_name(k.isa) + "." + std::to_string(k.vector_bits);
        EXPECT_EQ(k.name, expected);
    }
}

TEST(MemoryKernels, EveryIsaHasEveryPattern) {
    for (const Isa isa : {Isa::sse2, Isa::avx2, Isa::avx512}) {
        for (const char* pattern : all_patterns) {
            std::size_t found = 0;
            for (const MemoryKernel& k : roofline::all_memory_kernels()) {
                if (k.isa == isa && k.pattern == pattern) ++found;
            }
            EXPECT_EQ(found, 1u) << pattern << " for " << roofline::isa_name(isa);
        }
    }
}

TEST(MemoryKernels, BlockElementsAreWholeVectorsAndDivideTestSizes) {
    for (const MemoryKernel& k : roofline::all_memory_kernels()) {
        SCOPED_TRACE(k.name);
        const std::size_t lanes = static_cast<std::size_t>(k.vector_bits / 64);
        ASSERT_GT(k.block_elements, 0u);
        EXPECT_EQ(k.block_elements % lanes, 0u);
        EXPECT_EQ(small_n % k.block_elements, 0u);
        EXPECT_EQ(large_n % k.block_elements, 0u);
    }
}

} // namespace

// The after-timing check (BabelStream's check_solution) finds a wrong element
// anywhere it looks, and a load whose returned sum is off.
TEST(MemoryKernelOutput, CheckFindsWrongResults) {
    const MemoryKernel* copy = nullptr;
    const MemoryKernel* load = nullptr;
    for (const auto& k : roofline::all_memory_kernels()) {
        if (!roofline::isa_supported(k.isa)) continue;
        if (k.pattern == "copy" && !copy) copy = &k;
        if (k.pattern == "load" && !load) load = &k;
    }
    ASSERT_TRUE(copy && load);
    const std::size_t n = 64 * copy->block_elements;
    std::vector<double> dst(n), src(n);
    for (std::size_t i = 0; i < n; ++i) src[i] = 1.0 + static_cast<double>(i % 5);
    double* arrays[] = {dst.data(), src.data()};
    const double returned = copy->run(arrays, n, 1, 1.5);
    EXPECT_EQ(roofline::check_stream_output(*copy, arrays, n, returned, 1.5, 7), "");
    dst[n - 1] = -1;  // in the tail a stride could skip
    EXPECT_NE(roofline::check_stream_output(*copy, arrays, n, returned, 1.5, 7).find("element"), std::string::npos);
    dst[n - 1] = src[n - 1];
    dst[14] = 0;      // on the stride
    EXPECT_NE(roofline::check_stream_output(*copy, arrays, n, returned, 1.5, 7), "");

    double* one[] = {src.data()};
    const double sum = load->run(one, n, 1, 1.5);
    EXPECT_EQ(roofline::check_stream_output(*load, one, n, sum, 1.5, 1), "");
    EXPECT_NE(roofline::check_stream_output(*load, one, n, sum + 1, 1.5, 1), "");
}
