// Function symbols of ELF files and the address arithmetic between a running
// process's mappings, file offsets and link-time addresses. Used by the
// sampling profiler (sample IP -> function) and the call timer (function ->
// breakpoint address).
#pragma once

#include "measure/separate_debug.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::measure {

// A PT_LOAD program header, as needed to turn file offsets into addresses.
struct LoadSegment {
    std::uint64_t offset = 0;  // p_offset
    std::uint64_t vaddr = 0;   // p_vaddr
    std::uint64_t filesz = 0;  // p_filesz
};

// ip inside a mapping [start, ...) of a file mapped from page offset pgoff:
// the file offset it corresponds to.
constexpr std::uint64_t ip_to_file_offset(std::uint64_t ip, std::uint64_t map_start, std::uint64_t pgoff) {
    return ip - map_start + pgoff;
}
// File offset -> the ELF's link-time virtual address (symbol values), via the segment holding it.
std::optional<std::uint64_t> file_offset_to_vaddr(std::uint64_t offset, const std::vector<LoadSegment>& segments);
// And back: link-time address -> file offset.
std::optional<std::uint64_t> vaddr_to_file_offset(std::uint64_t vaddr, const std::vector<LoadSegment>& segments);

// Which kind of program a file is, from its first bytes (e_ident): the
// instrument engine's Valgrind tool runs 64-bit programs only.
enum class ElfClass { not_elf, elf32, elf64 };
ElfClass elf_class_of(std::string_view first_bytes);
// Of the file at `path` (not_elf when unreadable, or a script).
ElfClass executable_elf_class(const std::string& path);

// The function symbols of one ELF file (.symtab, else its separate debug file's .symtab, else
// .dynsym), demangled.
class ElfSymbols {
public:
    // Empty (loaded() false) when the file is not a readable 64-bit ELF. A file without a .symtab
    // takes its functions from its separate debug file's (separate_debug.hpp: under `debug_root`
    // by build ID, or by its debug link), as the Valgrind tool and GDB do.
    explicit ElfSymbols(const std::string& path, const std::string& debug_root = kDefaultDebugRoot);
    bool loaded() const { return loaded_; }
    // A shared library (ET_DYN without a program interpreter), not a program.
    bool shared_library() const { return shared_library_; }
    const std::vector<LoadSegment>& segments() const { return segments_; }
    struct Symbol {
        std::uint64_t start, size;  // link-time address
        std::string name;           // demangled
        bool ifunc;                 // STT_GNU_IFUNC: start is the resolver, not the code that runs
        bool unnamed = false;       // no symbol: a range of the unwind table (unnamed_functions)
    };
    // The function holding link-time address `vaddr`; empty / null when none.
    std::string function_at(std::uint64_t vaddr) const;
    const Symbol* symbol_at(std::uint64_t vaddr) const;
    // `n` bytes of the file at link-time address `vaddr`; empty when not all in the file.
    std::string_view code_at(std::uint64_t vaddr, std::size_t n) const;
    // Function `name` (demangled; the first of that name); null when absent.
    const Symbol* symbol_named(const std::string& name) const;
    // Every function symbol, by address.
    const std::vector<Symbol>& functions() const { return symbols_; }
    // The function a PLT stub at link-time address `vaddr` jumps to: the
    // (demangled) name of the import whose GOT slot the stub's `jmp *slot(%rip)`
    // reads; empty when `vaddr` is not such a stub.
    std::string plt_import_at(std::uint64_t vaddr) const;
    // Whether `vaddr` is in a PLT section (.plt, .plt.sec, .plt.got): linker stubs, no function's code.
    bool in_plt(std::uint64_t vaddr) const;
    // The functions the unwind table (.eh_frame_hdr, kept by strip) covers that no symbol names:
    // a stripped file's functions, named "(no symbol: libx.so+0x1140)" by file and entry address, as
    // the Valgrind tool and the sampler name them. Empty where the table is absent or not in the
    // usual encoding (GCC's and Clang's on x86-64).
    std::vector<Symbol> unnamed_functions() const;
    // The name unnamed_functions gives a function of `file` starting at `start`.
    static std::string unnamed_function_name(const std::string& file, std::uint64_t start);

private:
    void read_separate_debug_symbols(const std::string& path, const std::string& data,
                                     const std::vector<Elf64_Shdr>& sections, const std::string& debug_root);

    std::string path_;
    bool loaded_ = false;
    bool shared_library_ = false;
    std::uint64_t eh_frame_hdr_ = 0;  // PT_GNU_EH_FRAME's link-time address; 0: none
    std::string data_;  // the whole file
    std::vector<LoadSegment> segments_;
    std::vector<Symbol> symbols_;  // sorted by start
    std::vector<std::pair<std::uint64_t, std::string>> got_slots_;  // JUMP_SLOT / GLOB_DAT slot -> import, sorted
    std::vector<std::pair<std::uint64_t, std::uint64_t>> plt_ranges_;  // PLT sections: [start, end)
};

} // namespace roofline::measure
