#include "measure/elf_symbols.hpp"

#include "io/text_file.hpp"
#include "measure/elf_reading.hpp"
#include "measure/separate_debug.hpp"
#include "rl_unnamed.h"  // tools/vgtool: the Valgrind tool's naming of code without a symbol

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <cxxabi.h>
#include <elf.h>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

namespace roofline::measure {

std::optional<std::uint64_t> file_offset_to_vaddr(std::uint64_t offset, const std::vector<LoadSegment>& segments) {
    for (const auto& s : segments)
        if (offset >= s.offset && offset < s.offset + s.filesz) return offset - s.offset + s.vaddr;
    return std::nullopt;
}

std::optional<std::uint64_t> vaddr_to_file_offset(std::uint64_t vaddr, const std::vector<LoadSegment>& segments) {
    for (const auto& s : segments)
        if (vaddr >= s.vaddr && vaddr < s.vaddr + s.filesz) return vaddr - s.vaddr + s.offset;
    return std::nullopt;
}

namespace {

std::string demangle(const std::string& name) {
    if (name.rfind("_Z", 0) != 0) return name;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

// The demangled name at `st_name` in string table `strtab`; nullopt when out of the file.
std::optional<std::string> symbol_name(const std::string& data, const Elf64_Shdr& strtab, std::uint32_t st_name) {
    if (st_name >= strtab.sh_size || strtab.sh_offset + st_name >= data.size()) return std::nullopt;
    const char* s = data.data() + strtab.sh_offset + st_name;
    return demangle(std::string(s, strnlen(s, data.size() - (strtab.sh_offset + st_name))));
}

// The dynamic relocations that fill a GOT slot with a function's address
// (R_X86_64_JUMP_SLOT for PLT calls, GLOB_DAT for -fno-plt calls), named by
// their .dynsym entry: what a call through that slot calls.
std::vector<std::pair<std::uint64_t, std::string>> got_slots(const std::string& data,
                                                             const std::vector<Elf64_Shdr>& sections) {
    std::vector<std::pair<std::uint64_t, std::string>> slots;
    for (const auto& sh : sections) {
        if (sh.sh_type != SHT_RELA || sh.sh_entsize < sizeof(Elf64_Rela) || sh.sh_link >= sections.size()) continue;
        const auto& dynsym = sections[sh.sh_link];
        if (dynsym.sh_type != SHT_DYNSYM || dynsym.sh_entsize < sizeof(Elf64_Sym) || dynsym.sh_link >= sections.size())
            continue;
        const auto& strtab = sections[dynsym.sh_link];
        for (std::uint64_t off = 0; off + sizeof(Elf64_Rela) <= sh.sh_size; off += sh.sh_entsize) {
            Elf64_Rela rela{};
            if (!read_at(data, sh.sh_offset + off, rela)) break;
            const auto type = ELF64_R_TYPE(rela.r_info);
            if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
            Elf64_Sym sym{};
            if (!read_at(data, dynsym.sh_offset + std::uint64_t{ELF64_R_SYM(rela.r_info)} * dynsym.sh_entsize, sym))
                continue;
            if (sym.st_name == 0) continue;
            if (auto name = symbol_name(data, strtab, sym.st_name)) slots.emplace_back(rela.r_offset, std::move(*name));
        }
    }
    std::sort(slots.begin(), slots.end());
    return slots;
}

bool has_section(const std::vector<Elf64_Shdr>& sections, std::uint32_t type) {
    return std::any_of(sections.begin(), sections.end(), [type](const Elf64_Shdr& sh) { return sh.sh_type == type; });
}

// The function symbols of table `wanted` (SHT_SYMTAB or SHT_DYNSYM) of the file in `data`.
std::vector<ElfSymbols::Symbol> function_symbols(const std::string& data, const std::vector<Elf64_Shdr>& sections,
                                                 std::uint32_t wanted) {
    std::vector<ElfSymbols::Symbol> out;
    for_each_elf_symbol(data, sections, wanted, [&](const Elf64_Sym& sym, std::string_view name) {
        const int type = ELF64_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF || sym.st_size == 0) return;
        out.push_back({sym.st_value, sym.st_size, demangle(std::string(name)), type == STT_GNU_IFUNC});
    });
    return out;
}

} // namespace

// A stripped file (no .symtab) whose symbols were kept in a separate debug file: the Valgrind tool
// reads that file's .symtab and names the file's functions from it (a glibc function with libc6-dbg
// installed, `__ieee754_exp_fma`; a library stripped with objcopy --only-keep-debug), so the sampler
// and the loop finder name them from it too. Its addresses are the file's own link-time addresses.
void ElfSymbols::read_separate_debug_symbols(const std::string& path, const std::string& data,
                                             const std::vector<Elf64_Shdr>& sections, const std::string& debug_root) {
    const auto debug = find_separate_debug_file(path, debug_reference(data, sections), debug_root);
    if (!debug) return;
    Elf64_Ehdr eh{};
    if (!read_at(debug->data, 0, eh)) return;
    std::vector<Elf64_Shdr> debug_sections(eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; ++i)
        if (!read_at(debug->data, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, debug_sections[i])) return;
    auto symbols = function_symbols(debug->data, debug_sections, SHT_SYMTAB);
    if (symbols.empty()) return;
    symbols_ = std::move(symbols);
}

ElfSymbols::ElfSymbols(const std::string& path, const std::string& debug_root) : path_(path) {
    // Programs and libraries with debug information can be far larger than an
    // input file (libxul, CUDA fat binaries): allow 16 GiB rather than lose their symbols.
    auto file = read_file_if_exists(path, std::uint64_t{16} << 30);
    if (!file) return;
    data_ = std::move(*file);
    const std::string& data = data_;
    Elf64_Ehdr eh{};
    bool has_interpreter = false;  // a program (position-independent or not) names its loader
    if (!read_at(data, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
        return;
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph{};
        if (!read_at(data, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) return;
        if (ph.p_type == PT_LOAD) segments_.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
        if (ph.p_type == PT_INTERP) has_interpreter = true;
        if (ph.p_type == PT_GNU_EH_FRAME) eh_frame_hdr_ = ph.p_vaddr;
    }
    shared_library_ = eh.e_type == ET_DYN && !has_interpreter;
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; ++i)
        if (!read_at(data, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sections[i])) return;
    for (const std::uint32_t wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
        symbols_ = function_symbols(data, sections, wanted);
        if (!symbols_.empty()) break;  // .symtab found: .dynsym is a subset
    }
    if (!has_section(sections, SHT_SYMTAB)) read_separate_debug_symbols(path, data, sections, debug_root);
    std::sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) { return a.start < b.start; });
    got_slots_ = got_slots(data, sections);
    if (eh.e_shstrndx < sections.size()) {
        const auto& names = sections[eh.e_shstrndx];
        for (const auto& sh : sections) {
            if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_name >= names.sh_size ||
                names.sh_offset + sh.sh_name >= data.size())
                continue;
            const char* name = data.data() + names.sh_offset + sh.sh_name;
            const std::string_view section(name, strnlen(name, data.size() - (names.sh_offset + sh.sh_name)));
            if (section == ".plt" || section == ".plt.sec" || section == ".plt.got")
                plt_ranges_.emplace_back(sh.sh_addr, sh.sh_addr + sh.sh_size);
        }
    }
    loaded_ = true;
}

bool ElfSymbols::in_plt(std::uint64_t vaddr) const {
    return std::any_of(plt_ranges_.begin(), plt_ranges_.end(),
                       [vaddr](const auto& r) { return vaddr >= r.first && vaddr < r.second; });
}

std::string ElfSymbols::plt_import_at(std::uint64_t vaddr) const {
    // The stub forms of x86-64 linkers: `jmp *slot(%rip)` (FF 25 disp32), after an endbr64 (F3 0F 1E FA) and
    // a bnd prefix (F2) in IBT/MPX stubs (.plt.sec).
    std::uint64_t at = vaddr;
    auto bytes = code_at(at, 4);
    if (bytes.size() == 4 && std::memcmp(bytes.data(), "\xF3\x0F\x1E\xFA", 4) == 0) at += 4;
    if (const auto b = code_at(at, 1); b.size() == 1 && static_cast<unsigned char>(b[0]) == 0xF2) ++at;
    bytes = code_at(at, 6);
    if (bytes.size() != 6 || static_cast<unsigned char>(bytes[0]) != 0xFF || static_cast<unsigned char>(bytes[1]) != 0x25)
        return {};
    std::int32_t disp = 0;
    std::memcpy(&disp, bytes.data() + 2, 4);
    const std::uint64_t slot = at + 6 + static_cast<std::uint64_t>(static_cast<std::int64_t>(disp));
    const auto it = std::lower_bound(got_slots_.begin(), got_slots_.end(), std::make_pair(slot, std::string{}));
    return it != got_slots_.end() && it->first == slot ? it->second : std::string{};
}

const ElfSymbols::Symbol* ElfSymbols::symbol_at(std::uint64_t vaddr) const {
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                               [](std::uint64_t v, const Symbol& s) { return v < s.start; });
    // Symbols may nest or alias: look back over a few candidates that start at or before vaddr.
    for (int k = 0; k < 8 && it != symbols_.begin(); ++k) {
        --it;
        if (vaddr < it->start + it->size) return &*it;
    }
    return nullptr;
}

std::string ElfSymbols::function_at(std::uint64_t vaddr) const {
    const Symbol* s = symbol_at(vaddr);
    return s ? s->name : std::string{};
}

std::string_view ElfSymbols::code_at(std::uint64_t vaddr, std::size_t n) const {
    const auto offset = vaddr_to_file_offset(vaddr, segments_);
    if (!offset || *offset > data_.size() || data_.size() - *offset < n) return {};
    return std::string_view(data_).substr(*offset, n);
}

std::string ElfSymbols::unnamed_function_name(const std::string& file, std::uint64_t start) {
    char name[RL_UNNAMED_NAME_MAX];
    rl_unnamed_code_name(name, sizeof name, file.c_str(), start, 1);
    return name;
}

std::vector<ElfSymbols::Symbol> ElfSymbols::unnamed_functions() const {
    std::vector<Symbol> out;
    if (eh_frame_hdr_ == 0) return out;
    // The table is read as the Valgrind tool reads it (rl_unnamed.c), so both find the same functions.
    const RlReadAt read = [](void* ctx, rl_u64 offset, void* buf, unsigned long n) -> unsigned long {
        const auto& data = *static_cast<const std::string*>(ctx);
        if (offset > data.size()) return 0;
        const auto got = std::min<std::uint64_t>(n, data.size() - offset);
        std::memcpy(buf, data.data() + offset, got);
        return static_cast<unsigned long>(got);
    };
    auto* ctx = const_cast<std::string*>(&data_);
    std::vector<RlCodeRange> ranges(rl_unwind_count(read, ctx));
    ranges.resize(rl_unwind_functions(read, ctx, ranges.data(), ranges.size()));
    for (const auto& r : ranges)
        if (!symbol_at(r.start)) out.push_back({r.start, r.size, unnamed_function_name(path_, r.start), false, true});
    return out;
}

const ElfSymbols::Symbol* ElfSymbols::symbol_named(const std::string& name) const {
    for (const auto& s : symbols_)
        if (s.name == name) return &s;
    return nullptr;
}

ElfClass elf_class_of(std::string_view first_bytes) {
    if (first_bytes.size() <= EI_CLASS || first_bytes.substr(0, SELFMAG) != std::string_view(ELFMAG, SELFMAG))
        return ElfClass::not_elf;
    switch (first_bytes[EI_CLASS]) {
    case ELFCLASS32: return ElfClass::elf32;
    case ELFCLASS64: return ElfClass::elf64;
    default: return ElfClass::not_elf;
    }
}

ElfClass executable_elf_class(const std::string& path) {
    // Only the header of the program about to be started (not through io/: a binary can be large).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ElfClass::not_elf;
    char header[EI_NIDENT] = {};
    const ssize_t n = ::read(fd, header, sizeof header);
    ::close(fd);
    return n > 0 ? elf_class_of(std::string_view(header, static_cast<std::size_t>(n))) : ElfClass::not_elf;
}

} // namespace roofline::measure
