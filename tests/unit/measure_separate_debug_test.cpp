// Finding a stripped file's separate debug file as GDB and Valgrind find it: by build ID under the
// debug root, or by its debug link beside it, and never a file that is another build's.
#include "measure/separate_debug.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

namespace {

using namespace roofline::measure;
namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_all(const fs::path& path, const std::string& data) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::vector<Elf64_Shdr> sections_of(const std::string& data) {
    Elf64_Ehdr eh{};
    std::memcpy(&eh, data.data(), sizeof eh);
    std::vector<Elf64_Shdr> out(eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; ++i)
        std::memcpy(&out[i], data.data() + eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sizeof(Elf64_Shdr));
    return out;
}

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("rl_separate_debug_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};

TEST(SeparateDebug, DebuglinkCrcIsTheZlibOne) {
    EXPECT_EQ(debuglink_crc32("123456789"), 0xcbf43926u);  // the CRC-32 check value
    EXPECT_EQ(debuglink_crc32(""), 0u);
}

TEST(SeparateDebug, FoundByBuildIdUnderTheRootAndOnlyWhenTheIdsAgree) {
    const std::string self = read_all("/proc/self/exe");
    ASSERT_GT(self.size(), sizeof(Elf64_Ehdr));
    const DebugReference ref = debug_reference(self, sections_of(self));
    if (ref.build_id.size() < 4) GTEST_SKIP() << "this test program was linked without a build ID";
    EXPECT_EQ(ref.build_id.find_first_not_of("0123456789abcdef"), std::string::npos) << ref.build_id;

    TempDir tmp;
    const fs::path root = tmp.path / "debug";
    const fs::path at_id = root / ".build-id" / ref.build_id.substr(0, 2) / (ref.build_id.substr(2) + ".debug");
    write_all(at_id, self);
    const auto found = find_separate_debug_file("/nowhere/libx.so", ref, root.string());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(fs::path(found->path), at_id);
    EXPECT_EQ(found->data.size(), self.size());

    // A file at another ID's place whose own ID is not that one: another build's, not taken.
    DebugReference other = ref;
    other.build_id = std::string(ref.build_id.size(), '0');
    write_all(root / ".build-id" / "00" / (other.build_id.substr(2) + ".debug"), self);
    EXPECT_FALSE(find_separate_debug_file("/nowhere/libx.so", other, root.string()).has_value());
    // No debug root holding it: none.
    EXPECT_FALSE(find_separate_debug_file("/nowhere/libx.so", ref, (tmp.path / "empty").string()).has_value());
}

TEST(SeparateDebug, FoundByDebugLinkBesideTheFileOrInDotDebugWhenItsCrcAgrees) {
    TempDir tmp;
    const std::string debug = "not an ELF file";  // refused whatever its CRC
    const std::string self = read_all("/proc/self/exe");
    DebugReference ref;
    ref.debuglink = "libx.so.debug";
    ref.link_crc = debuglink_crc32(self);
    const std::string lib = (tmp.path / "lib" / "libx.so").string();
    write_all(lib, "library");
    EXPECT_FALSE(find_separate_debug_file(lib, ref, (tmp.path / "root").string()).has_value());

    write_all(tmp.path / "lib" / ".debug" / "libx.so.debug", self);
    auto found = find_separate_debug_file(lib, ref, (tmp.path / "root").string());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(fs::path(found->path), tmp.path / "lib" / ".debug" / "libx.so.debug");

    // Beside the file comes first; a CRC that disagrees is another build's debug file.
    write_all(tmp.path / "lib" / "libx.so.debug", debug);
    found = find_separate_debug_file(lib, ref, (tmp.path / "root").string());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(fs::path(found->path), tmp.path / "lib" / ".debug" / "libx.so.debug");  // "not an ELF" skipped
    ref.link_crc = debuglink_crc32(self) ^ 1u;
    EXPECT_FALSE(find_separate_debug_file(lib, ref, (tmp.path / "root").string()).has_value());
}

} // namespace
