// Where a stripped ELF file's symbol table went: its separate debug file (Debian's -dbg
// and -dbgsym packages, `objcopy --only-keep-debug`), found the way GDB and Valgrind find
// it: by the file's build ID under the debug root (/usr/lib/debug/.build-id/ab/cdef….debug),
// or by the name its .gnu_debuglink section gives, next to the file, in `.debug/` beside it,
// or under the debug root at the file's directory. The Valgrind tool names functions from
// that file's .symtab; the sampler and the loop finder must read the same one, or a
// function the tool counted (libm's `__ieee754_exp_fma`) gets none of the samples taken in it.
#pragma once

#include <elf.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::measure {

inline constexpr const char* kDefaultDebugRoot = "/usr/lib/debug";

// What a file says about its separate debug file.
struct DebugReference {
    std::string build_id;                  // NT_GNU_BUILD_ID's bytes in lower-case hex; empty: none
    std::string debuglink;                 // .gnu_debuglink's file name; empty: none
    std::optional<std::uint32_t> link_crc;  // .gnu_debuglink's CRC-32 of the debug file
};

// The build ID and debug link of an ELF file held in `data`, whose section headers are `sections`.
DebugReference debug_reference(const std::string& data, const std::vector<Elf64_Shdr>& sections);

// The CRC-32 .gnu_debuglink records (the zlib / IEEE 802.3 one).
std::uint32_t debuglink_crc32(std::string_view data);

struct SeparateDebugFile {
    std::string path;
    std::string data;  // the whole file
};

// The separate debug file of the file at `path` (as it was opened: its directory is taken from
// it), whose references are `ref`: the first candidate that exists and is that file's (the same
// build ID, or where the file has none, the debug link's CRC); nullopt when none is.
std::optional<SeparateDebugFile> find_separate_debug_file(const std::string& path, const DebugReference& ref,
                                                          const std::string& debug_root = kDefaultDebugRoot);

} // namespace roofline::measure
