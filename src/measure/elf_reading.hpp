// Bounds-checked reading of a 64-bit ELF file held in memory, shared by the symbol
// reader (elf_symbols) and the AVX-512 scan (evex_scan): a damaged or hostile file
// reads as missing entries, never past the buffer.
#pragma once

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::measure {

// `out` from `data` at `offset`; false when it would run past the end.
template <typename T>
bool read_at(const std::string& data, std::uint64_t offset, T& out) {
    if (offset > data.size() || data.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, data.data() + offset, sizeof(T));
    return true;
}

// Calls each(sym, name) for every entry of the symbol tables of type `table`
// (SHT_SYMTAB or SHT_DYNSYM) among `sections`; a name outside the file is skipped.
template <typename Each>
void for_each_elf_symbol(const std::string& data, const std::vector<Elf64_Shdr>& sections, std::uint32_t table,
                         Each each) {
    for (const auto& sh : sections) {
        if (sh.sh_type != table || sh.sh_link >= sections.size() || sh.sh_entsize < sizeof(Elf64_Sym)) continue;
        const auto& strtab = sections[sh.sh_link];
        for (std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sh.sh_entsize) {
            Elf64_Sym sym{};
            if (!read_at(data, sh.sh_offset + off, sym)) break;
            if (sym.st_name >= strtab.sh_size || strtab.sh_offset + sym.st_name >= data.size()) continue;
            const char* s = data.data() + strtab.sh_offset + sym.st_name;
            each(sym, std::string_view(s, strnlen(s, data.size() - (strtab.sh_offset + sym.st_name))));
        }
    }
}

} // namespace roofline::measure
