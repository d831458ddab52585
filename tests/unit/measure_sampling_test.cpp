#include "measure/process_code.hpp"
#include "measure/sampling_profiler.hpp"

#include <cmath>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace roofline::measure;

extern "C" __attribute__((noinline)) double roofline_sampling_test_target(double x) {
    asm volatile("" : "+x"(x));
    return x * 3.0 + 1.0;
}

namespace {

// Every file mapping of this process, in address order, as the sampler records them.
std::vector<ProcessMapping> self_mappings() {
    std::vector<ProcessMapping> out;
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        std::istringstream in(line);
        std::string range, perms, dev, file;
        std::uint64_t pgoff = 0, inode = 0;
        in >> range >> perms >> std::hex >> pgoff >> dev >> std::dec >> inode >> file;
        if (file.empty() || file[0] != '/') continue;
        const auto dash = range.find('-');
        const auto lo = std::stoull(range.substr(0, dash), nullptr, 16);
        const auto hi = std::stoull(range.substr(dash + 1), nullptr, 16);
        out.push_back({static_cast<std::uint32_t>(getpid()), lo, hi - lo, pgoff, file});
    }
    return out;
}

// The file mapping holding `addr`.
ProcessMapping mapping_of(std::uint64_t addr) {
    for (const auto& m : self_mappings())
        if (addr >= m.start && addr - m.start < m.len) return m;
    return {};
}

} // namespace

extern "C" __attribute__((noinline)) int roofline_sampling_test_plt_caller() {
    // A call to getpid@plt in this executable and no other call (no arithmetic that
    // UBSan would check with a call of its own).
    return getpid() > 0 ? 2 : 0;
}

// A call into a shared library goes to a PLT stub; the stack repair must see
// the library's function behind it (fftw_execute, which tail-jumps on).
TEST(MeasureSampling, CallThroughThePltNamesTheImport) {
    ASSERT_GT(roofline_sampling_test_plt_caller(), 1);
    const auto maps = self_mappings();
    ProcessCode code(maps);
    const auto pid = static_cast<std::uint32_t>(getpid());
    const auto caller = code.function_at(pid, reinterpret_cast<std::uint64_t>(&roofline_sampling_test_plt_caller));
    ASSERT_TRUE(caller.has_value());
    const auto bytes = caller->elf->code_at(caller->symbol->start, caller->symbol->size);
    int calls = 0;
    for (std::size_t i = 0; i + 5 <= bytes.size(); ++i) {
        if (static_cast<unsigned char>(bytes[i]) != 0xE8) continue;
        const std::uint64_t return_address = caller->start + i + 5;
        const auto import = code.plt_callee(pid, return_address);
        if (!import) continue;
        ++calls;
        EXPECT_EQ(import->symbol->name, "getpid");
        EXPECT_EQ(import->start, reinterpret_cast<std::uint64_t>(&getpid));
        EXPECT_FALSE(code.direct_callee(pid, return_address).has_value());  // the stub is no function
    }
    EXPECT_EQ(calls, 1);
    // A direct call to a function of this file is not a PLT call.
    EXPECT_FALSE(code.plt_callee(pid, reinterpret_cast<std::uint64_t>(&roofline_sampling_test_target) + 5).has_value());
}

TEST(MeasureSampling, IpToFileOffset) {
    EXPECT_EQ(ip_to_file_offset(0x555555556123, 0x555555556000, 0x2000), 0x2123u);
    EXPECT_EQ(ip_to_file_offset(0x7f0000001000, 0x7f0000001000, 0), 0u);
}

TEST(MeasureSampling, FileOffsetToVaddr) {
    const std::vector<LoadSegment> segs = {{0, 0, 0x1000}, {0x1000, 0x401000, 0x2500}, {0x4000, 0x405010, 0x100}};
    EXPECT_EQ(file_offset_to_vaddr(0x10, segs), 0x10u);
    EXPECT_EQ(file_offset_to_vaddr(0x1234, segs), 0x401234u);
    EXPECT_EQ(file_offset_to_vaddr(0x4010, segs), 0x405020u);
    EXPECT_FALSE(file_offset_to_vaddr(0x3600, segs).has_value());  // between segments
    EXPECT_FALSE(file_offset_to_vaddr(0x9000, segs).has_value());
}

TEST(MeasureSampling, ElfSymbolOfOwnFunction) {
    EXPECT_EQ(roofline_sampling_test_target(1.0), 4.0);
    const auto addr = reinterpret_cast<std::uint64_t>(&roofline_sampling_test_target);
    const auto m = mapping_of(addr + 4);
    ASSERT_FALSE(m.file.empty());
    ElfSymbols elf(m.file);
    ASSERT_TRUE(elf.loaded());
    const auto vaddr = file_offset_to_vaddr(ip_to_file_offset(addr + 4, m.start, m.pgoff), elf.segments());
    ASSERT_TRUE(vaddr.has_value());
    EXPECT_EQ(elf.function_at(*vaddr), "roofline_sampling_test_target");
    const auto* sym = elf.symbol_named("roofline_sampling_test_target");
    ASSERT_NE(sym, nullptr);
    EXPECT_EQ(*vaddr, sym->start + 4);
    EXPECT_FALSE(sym->ifunc);
    EXPECT_EQ(elf.function_at(0), "");
}

TEST(MeasureSampling, NotAnElf) {
    EXPECT_FALSE(ElfSymbols("/proc/self/status").loaded());
    EXPECT_FALSE(ElfSymbols("/nonexistent/file").loaded());
}

TEST(MeasureSampling, ShortRunsArePooledUpTo20Seconds) {
    EXPECT_EQ(sampled_runs_for(0.5), 3);
    EXPECT_EQ(sampled_runs_for(7), 2);  // 3 runs would be 21 s
    EXPECT_EQ(sampled_runs_for(25), 1);
    EXPECT_EQ(sampled_runs_for(0), 1);   // no time known: one run
    EXPECT_EQ(sampled_runs_for(std::nan("")), 1);
}

TEST(MeasureSampling, PooledRunsAddSamplesAndAverageTheirTime) {
    SamplingResult a, b;
    for (auto* r : {&a, &b}) {
        r->ok = true;
        r->period_seconds = 1e-4;
    }
    a.samples = 30, b.samples = 10;
    a.wall_seconds = 0.3, b.wall_seconds = 0.1;
    a.functions["f"] = {20, 20e-4, ""};
    a.functions["g"] = {10, 10e-4, ""};
    b.functions["f"] = {10, 10e-4, ""};
    a.code_addresses[{"/bin/app", 0x1000}] = 20;
    b.code_addresses[{"/bin/app", 0x1000}] = 6;
    b.code_addresses[{"/bin/app", 0x2000}] = 4;
    b.lost = 2;
    const auto p = pool_sampling_runs({a, b});
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.runs, 2);
    EXPECT_EQ(p.samples, 40);
    EXPECT_EQ(p.lost, 2);
    EXPECT_DOUBLE_EQ(p.wall_seconds, 0.2);
    EXPECT_DOUBLE_EQ(p.seconds_per_sample(), 0.5e-4);
    EXPECT_EQ(p.functions.at("f").samples, 30);
    EXPECT_DOUBLE_EQ(p.functions.at("f").seconds, 30 * 0.5e-4);  // a run's time: the mean of the two
    EXPECT_DOUBLE_EQ(p.functions.at("g").seconds, 10 * 0.5e-4);
    EXPECT_EQ(p.code_addresses.at({"/bin/app", 0x1000}), 26);
    EXPECT_EQ(p.code_addresses.at({"/bin/app", 0x2000}), 4);
    EXPECT_FALSE(pool_sampling_runs({}).ok);
}

TEST(MeasureSampling, SamplesABusyChild) {
    const auto r = sample_functions({"sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"}, {});
    if (!r.ok) GTEST_SKIP() << "sampling unavailable here: " << r.error;
    EXPECT_GT(r.samples, 10);
    long long sum = 0;
    for (const auto& [name, f] : r.functions) sum += f.samples;
    EXPECT_EQ(sum, r.samples);
    EXPECT_NEAR(r.period_seconds, 1e-4, 1e-12);
    EXPECT_EQ(r.lost, 0);
}
