// The naming of code without a symbol (tools/vgtool/rl_unnamed.c), shared by the Valgrind tool,
// the sampler and the loop finder, and its reading of an ELF file's unwind table.
#include "measure/elf_symbols.hpp"
#include "rl_unnamed.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

std::string name(const char* path, rl_u64 start, int has_start, int cap = RL_UNNAMED_NAME_MAX) {
    std::vector<char> out(static_cast<std::size_t>(cap));
    rl_unnamed_code_name(out.data(), cap, path, start, has_start);
    return out.data();
}

unsigned long read_string(void* ctx, rl_u64 offset, void* buf, unsigned long n) {
    const auto& data = *static_cast<const std::string*>(ctx);
    if (offset >= data.size()) return 0;
    const auto got = std::min<rl_u64>(n, data.size() - offset);
    std::memcpy(buf, data.data() + offset, got);
    return static_cast<unsigned long>(got);
}

std::string self_exe() {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

rl_u64 le(const std::string& b, std::size_t at, int n) {
    rl_u64 v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b.at(at + static_cast<std::size_t>(i)));
    return v;
}

// The file offset of .eh_frame_hdr (PT_GNU_EH_FRAME's p_offset) of a 64-bit ELF file; 0: none.
std::size_t eh_frame_hdr_offset(const std::string& elf) {
    const auto phoff = le(elf, 0x20, 8), phentsize = le(elf, 0x36, 2), phnum = le(elf, 0x38, 2);
    for (rl_u64 i = 0; i < phnum; ++i) {
        const auto ph = static_cast<std::size_t>(phoff + i * phentsize);
        if (le(elf, ph, 4) == 0x6474e550u) return static_cast<std::size_t>(le(elf, ph + 8, 8));
    }
    return 0;
}

TEST(VgtoolUnnamed, NamedByFileBaseNameAndEntry) {
    EXPECT_EQ(name("/usr/lib/libfftw3.so.3", 0x1140, 1), "(no symbol: libfftw3.so.3+0x1140)");
    EXPECT_EQ(name("prog", 0x0, 1), "(no symbol: prog+0x0)");
    EXPECT_EQ(name("/tmp/prog", 0x1140, 0), "(no symbol: prog)");
    EXPECT_EQ(name("[vdso]", 0, 0), "(no symbol: [vdso])");
    // Two functions of one file stay two names.
    EXPECT_NE(name("/x/liba.so", 0x1140, 1), name("/x/liba.so", 0x1180, 1));
    // The same as ElfSymbols gives the loop finder.
    EXPECT_EQ(roofline::measure::ElfSymbols::unnamed_function_name("/x/liba.so", 0x1140), name("/x/liba.so", 0x1140, 1));
}

TEST(VgtoolUnnamed, ALongFileNameIsCutButTheEntryKept) {
    const std::string path = "/d/" + std::string(400, 'a') + ".so";
    const auto n = name(path.c_str(), 0xdeadbeef, 1);
    EXPECT_LT(n.size(), std::size_t{RL_UNNAMED_NAME_MAX});
    EXPECT_TRUE(n.ends_with("+0xdeadbeef)")) << n;
    EXPECT_EQ(name("prog", 0x1140, 1, 8), "(no sym");  // a small buffer: cut, still terminated
}

TEST(VgtoolUnnamed, RangeAtFindsTheFunctionHoldingAnAddress) {
    const RlCodeRange r[] = {{0x1000, 0x40}, {0x1040, 0x10}, {0x2000, 0x100}};
    EXPECT_EQ(rl_range_at(r, 3, 0x1000), &r[0]);
    EXPECT_EQ(rl_range_at(r, 3, 0x103f), &r[0]);
    EXPECT_EQ(rl_range_at(r, 3, 0x1040), &r[1]);
    EXPECT_EQ(rl_range_at(r, 3, 0x1050), nullptr);  // between two functions
    EXPECT_EQ(rl_range_at(r, 3, 0xfff), nullptr);
    EXPECT_EQ(rl_range_at(r, 3, 0x20ff), &r[2]);
    EXPECT_EQ(rl_range_at(r, 0, 0x1000), nullptr);
}

TEST(VgtoolUnnamed, ReadsTheUnwindTableOfThisProgram) {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    const std::string exe((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(exe.empty());
    auto* ctx = const_cast<std::string*>(&exe);
    const auto count = rl_unwind_count(read_string, ctx);
    ASSERT_GT(count, 0u);  // g++ writes .eh_frame_hdr for C++ code
    std::vector<RlCodeRange> ranges(count);
    ranges.resize(rl_unwind_functions(read_string, ctx, ranges.data(), ranges.size()));
    ASSERT_FALSE(ranges.empty());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        EXPECT_GT(ranges[i].size, 0u);
        if (i > 0) {
            EXPECT_GE(ranges[i].start, ranges[i - 1].start + ranges[i - 1].size);  // sorted, apart
        }
    }
    // This function is one of them, by its link-time address from its symbol.
    const roofline::measure::ElfSymbols symbols("/proc/self/exe");
    const auto* self = symbols.symbol_named("main");
    if (self) {
        EXPECT_NE(rl_range_at(ranges.data(), ranges.size(), self->start), nullptr);
    }
    // Not an ELF file: none.
    std::string text = "#!/bin/sh\necho hi\n";
    EXPECT_EQ(rl_unwind_count(read_string, &text), 0u);
}

TEST(VgtoolUnnamed, AFdeCountTheFileCannotHoldIsNoTable) {
    const std::string exe = self_exe();
    const auto hdr = eh_frame_hdr_offset(exe);
    ASSERT_GT(hdr, 0u);
    const auto real = le(exe, hdr + 8, 4);
    ASSERT_GT(real, 0u);
    auto with_count = [&](rl_u64 count) {
        std::string copy = exe;
        for (int i = 0; i < 4; ++i) copy[hdr + 8 + static_cast<std::size_t>(i)] = static_cast<char>((count >> (8 * i)) & 0xff);
        return copy;
    };
    RlCodeRange out[4];
    // 0xfffffff0 entries (64 GiB of ranges to allocate), or more than the whole file's bytes: none.
    for (const rl_u64 count : {rl_u64{0xfffffff0u}, rl_u64{0xffffffffu}, rl_u64{exe.size() / 8}}) {
        std::string copy = with_count(count);
        EXPECT_EQ(rl_unwind_count(read_string, &copy), 0u) << count;
        EXPECT_EQ(rl_unwind_functions(read_string, &copy, out, 4), 0u) << count;
    }
    // The real count still reads.
    std::string same = with_count(real);
    EXPECT_EQ(rl_unwind_count(read_string, &same), real);
    // A file cut inside its table (the segment says more bytes than the file has): none.
    std::string cut = exe.substr(0, hdr + 12 + 8);
    if (real > 1) {
        EXPECT_EQ(rl_unwind_count(read_string, &cut), 0u);
    }

    // ElfSymbols reads the table the same way: no unnamed functions, nothing huge allocated.
    const auto path = std::filesystem::temp_directory_path() /
                      ("rl_vgtool_unnamed_" + std::to_string(::getpid()) + ".elf");
    {
        std::ofstream f(path, std::ios::binary);
        const std::string copy = with_count(0xfffffff0u);
        f.write(copy.data(), static_cast<std::streamsize>(copy.size()));
    }
    std::vector<roofline::measure::ElfSymbols::Symbol> unnamed;
    EXPECT_NO_THROW(unnamed = roofline::measure::ElfSymbols(path.string()).unnamed_functions());
    EXPECT_TRUE(unnamed.empty());
    std::filesystem::remove(path);
}

} // namespace
