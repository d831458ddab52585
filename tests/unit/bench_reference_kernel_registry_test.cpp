// Every reference kernel is one registered thing (bench/reference_kernel_registry.hpp): each
// row of core's table of counts has code in bench's registry and each piece of code a row,
// joined by the typed id, and every entry runs on a tiny size with its result checked.
#include "bench/reference_kernel_registry.hpp"
#include "bench/reference_kernel_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace {

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

TEST(ReferenceKernelRegistry, EveryKernelHasCountsAndCode) {
    const auto& table = reference_kernels();
    const auto code = reference_kernel_code();
    const auto problems = reference_registry_problems(table, code);
    EXPECT_TRUE(problems.empty()) << problems.front();
    ASSERT_EQ(table.size(), kReferenceKernelCount);
    EXPECT_EQ(code.size(), table.size()) << "every kernel's code once";
    const auto& registry = reference_kernel_registry();
    ASSERT_EQ(registry.size(), table.size());
    std::set<std::string> names;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto id = static_cast<ReferenceKernelId>(i);
        EXPECT_EQ(table[i].id, id) << table[i].name << ": the rows are in the ids' order";
        EXPECT_EQ(&reference_kernel(id), &table[i]);
        EXPECT_EQ(registry[i].kernel, &table[i]) << "the registry is in core's order (--list)";
        EXPECT_NE(registry[i].make, nullptr) << table[i].name;
        EXPECT_EQ(&registered_reference_kernel(id), &registry[i]);
        EXPECT_EQ(find_registered_reference_kernel(table[i].name), &registry[i]);
        EXPECT_TRUE(names.insert(table[i].name).second) << table[i].name << " twice";
    }
    EXPECT_EQ(find_registered_reference_kernel("stream_traid"), nullptr);
}

// A row with no code, code with no row, code given twice: each is said, naming the kernel.
TEST(ReferenceKernelRegistry, MismatchesAreFound) {
    const auto& table = reference_kernels();
    const auto code = reference_kernel_code();

    auto no_code = code;
    no_code.erase(std::find_if(no_code.begin(), no_code.end(),
                               [](const ReferenceKernelCode& c) { return c.id == ReferenceKernelId::ddot; }));
    EXPECT_TRUE(mentions(reference_registry_problems(table, no_code), "ddot has counts but no code"));

    auto twice = code;
    twice.push_back(twice.front());
    EXPECT_TRUE(mentions(reference_registry_problems(table, twice), "has code 2 times"));

    auto no_counts = table;
    no_counts.pop_back();  // its code stays
    EXPECT_TRUE(mentions(reference_registry_problems(no_counts, code), "has no counts"));

    auto out_of_order = table;
    std::swap(out_of_order[0], out_of_order[1]);
    EXPECT_TRUE(mentions(reference_registry_problems(out_of_order, code), "row 0 of the table has id 1"));
}

TEST(ReferenceKernelRegistry, EveryEntryRunsOnATinySizeAndChecksOut) {
    ReferenceRunOptions quick;
    quick.samples = 1;
    quick.min_sample_seconds = 1e-5;
    for (const auto& entry : reference_kernel_registry()) {
        const std::int64_t n = entry.kernel->n_for_working_set(4096);
        const auto run = run_reference_kernel(entry, n, quick);
        EXPECT_TRUE(run.checked) << entry.name() << " n=" << n << ": " << run.check_error;
        EXPECT_EQ(run.n, n);
        EXPECT_DOUBLE_EQ(run.counts.flops, entry.kernel->counts(n).flops) << entry.name();
    }
}

} // namespace
} // namespace roofline
