#include "measure/process_code.hpp"

#include "measure/function_names.hpp"
#include "rl_unnamed.h"  // tools/vgtool: the Valgrind tool's naming of code without a symbol

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace roofline::measure {

std::string canonical_file(const std::string& path) {
    std::error_code ec;
    const auto c = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : c.string();
}

const ProcessMapping* ProcessCode::find(std::uint32_t pid, std::uint64_t ip, bool same_pid) const {
    for (auto it = maps_.rbegin(); it != maps_.rend(); ++it)  // the latest mapping wins
        if ((!same_pid || it->pid == pid) && ip >= it->start && ip - it->start < it->len) return &*it;
    return nullptr;
}

std::optional<ProcessCode::Located> ProcessCode::locate(std::uint32_t pid, std::uint64_t ip) {
    const ProcessMapping* m = find(pid, ip, true);
    if (!m) m = find(pid, ip, false);  // a forked child inherits its parent's mappings
    if (!m || m->file.empty() || m->file[0] == '[') return std::nullopt;
    const ElfSymbols* elf = symbols_of(m->file);
    if (!elf) return std::nullopt;
    const auto vaddr = file_offset_to_vaddr(ip_to_file_offset(ip, m->start, m->pgoff), elf->segments());
    if (!vaddr) return std::nullopt;
    return Located{m, elf, *vaddr};
}

const ElfSymbols* ProcessCode::symbols_of(const std::string& file) {
    auto& elf = elves_[file];
    if (!elf) elf = std::make_unique<ElfSymbols>(file);
    return elf->loaded() ? elf.get() : nullptr;
}

std::optional<CodeFunction> ProcessCode::function_at(std::uint32_t pid, std::uint64_t ip) {
    const auto at = locate(pid, ip);
    if (!at) return std::nullopt;
    const auto* symbol = at->elf->symbol_at(at->vaddr);
    if (!symbol) return std::nullopt;
    return CodeFunction{at->elf, symbol, ip - (at->vaddr - symbol->start)};
}

std::optional<std::pair<std::string, std::uint64_t>> ProcessCode::link_address_at(std::uint32_t pid, std::uint64_t ip) {
    const auto at = locate(pid, ip);
    if (!at) return std::nullopt;
    return std::pair(at->map->file, at->vaddr);
}

std::string ProcessCode::name_at(std::uint32_t pid, std::uint64_t ip) {
    const auto f = function_at(pid, ip);
    if (f) return f->symbol->name;
    // Code without a symbol is kept apart by its file and its function's entry in the unwind table,
    // as the Valgrind tool names it; code in no file (an anonymous executable mapping) was generated
    // at run time.
    const ProcessMapping* m = find(pid, ip, true);
    if (!m) m = find(pid, ip, false);
    const std::string file = m ? m->file : std::string{};
    if (file.empty() || file == "//anon" || file.starts_with("[anon")) return kCodeOutsideAnyFile;
    char name[RL_UNNAMED_NAME_MAX];
    const auto at = locate(pid, ip);
    const ElfSymbols::Symbol* range = nullptr;
    if (at) {
        auto& ranges = unnamed_[at->elf];
        if (!ranges) ranges = at->elf->unnamed_functions();
        const auto after = std::upper_bound(ranges->begin(), ranges->end(), at->vaddr,
                                            [](std::uint64_t a, const ElfSymbols::Symbol& u) { return a < u.start; });
        if (after != ranges->begin() && at->vaddr < std::prev(after)->start + std::prev(after)->size)
            range = &*std::prev(after);
    }
    if (range) return range->name;
    rl_unnamed_code_name(name, sizeof name, file.c_str(), 0, 0);
    return name;
}

std::string ProcessCode::file_at(std::uint32_t pid, std::uint64_t ip) const {
    const ProcessMapping* m = find(pid, ip, true);
    if (!m) m = find(pid, ip, false);
    return m && !m->file.empty() && m->file[0] != '[' ? m->file : std::string{};
}

std::optional<std::uint64_t> ProcessCode::call_target(std::uint32_t pid, std::uint64_t return_address) {
    if (return_address < 5) return std::nullopt;
    const auto at = locate(pid, return_address - 5);
    if (!at) return std::nullopt;
    const auto code = at->elf->code_at(at->vaddr, 5);
    if (code.size() != 5 || static_cast<unsigned char>(code[0]) != 0xE8) return std::nullopt;
    std::int32_t rel = 0;
    std::memcpy(&rel, code.data() + 1, 4);
    return return_address + static_cast<std::uint64_t>(static_cast<std::int64_t>(rel));
}

std::optional<CodeFunction> ProcessCode::direct_callee(std::uint32_t pid, std::uint64_t return_address) {
    const auto target = call_target(pid, return_address);
    if (!target) return std::nullopt;
    auto callee = function_at(pid, *target);
    if (!callee || callee->start != *target) return std::nullopt;  // not a function's entry: not a call we know
    return callee;
}

std::optional<CodeFunction> ProcessCode::plt_callee(std::uint32_t pid, std::uint64_t return_address) {
    const auto target = call_target(pid, return_address);
    if (!target) return std::nullopt;
    const auto stub = locate(pid, *target);
    if (!stub) return std::nullopt;
    const auto name = stub->elf->plt_import_at(stub->vaddr);
    if (name.empty()) return std::nullopt;
    return definition(pid, name);
}

// The dynamic linker binds an import to the first object in load order that
// defines it; the mappings are recorded in the order the objects were mapped.
std::optional<CodeFunction> ProcessCode::definition(std::uint32_t pid, const std::string& name) {
    const auto key = std::make_pair(pid, name);
    if (const auto it = definitions_.find(key); it != definitions_.end()) return it->second;
    std::optional<CodeFunction> found;
    const bool own = std::any_of(maps_.begin(), maps_.end(), [&](const ProcessMapping& m) { return m.pid == pid; });
    for (const auto& m : maps_) {
        if ((own && m.pid != pid) || m.file.empty() || m.file[0] == '[') continue;
        const ElfSymbols* elf = symbols_of(m.file);
        const auto* symbol = elf ? elf->symbol_named(name) : nullptr;
        if (!symbol) continue;
        if (symbol->ifunc) break;
        const auto offset = vaddr_to_file_offset(symbol->start, elf->segments());
        if (!offset) break;
        for (const auto& code : maps_)  // the mapping of that file that holds it
            if ((!own || code.pid == pid) && code.file == m.file && *offset >= code.pgoff &&
                *offset - code.pgoff < code.len)
                found = CodeFunction{elf, symbol, code.start + (*offset - code.pgoff)};
        break;
    }
    definitions_[key] = found;
    return found;
}

bool ProcessCode::follows_call(std::uint32_t pid, std::uint64_t address) {
    if (address < 7) return false;
    const auto at = locate(pid, address - 7);
    if (!at) return false;
    const auto code = at->elf->code_at(at->vaddr, 7);
    if (code.size() != 7) return false;
    auto byte = [&](int back) { return static_cast<unsigned char>(code[static_cast<std::size_t>(7 - back)]); };
    // The call forms compilers emit: E8 rel32; FF /2 with ModRM register (2 bytes), [reg] (2), [reg+disp8]
    // (3), [SIB] (3), [SIB+disp8] (4), [rip+disp32] or [reg+disp32] (6), [SIB+disp32] (7), counted back
    // from the return address (a REX prefix goes before the FF and changes nothing here).
    auto ff2 = [&](int back, unsigned modrm_mask, unsigned modrm) {
        return byte(back) == 0xFF && (byte(back - 1) & modrm_mask) == modrm;
    };
    return byte(5) == 0xE8 || ff2(2, 0xF8, 0xD0) || ff2(2, 0xF8, 0x10) || ff2(3, 0xF8, 0x50) ||
           ff2(3, 0xFF, 0x14) || ff2(4, 0xFF, 0x54) || ff2(6, 0xFF, 0x15) || ff2(6, 0xF8, 0x90) ||
           ff2(7, 0xFF, 0x94);
}

bool ProcessCode::jumps_to(const CodeFunction& from, const CodeFunction& to) {
    const auto key = std::make_pair(from.start, to.start);
    if (const auto it = jumps_.find(key); it != jumps_.end()) return it->second;
    const auto code = from.elf->code_at(from.symbol->start, from.symbol->size);
    bool found = false;
    for (std::size_t i = 0; i < code.size() && !found; ++i) {
        const auto b = static_cast<unsigned char>(code[i]);
        auto lands = [&](std::size_t length, std::int64_t rel) {
            return from.start + i + length + static_cast<std::uint64_t>(rel) == to.start;
        };
        if ((b == 0xE9) && i + 5 <= code.size()) {  // jmp rel32
            std::int32_t rel = 0;
            std::memcpy(&rel, code.data() + i + 1, 4);
            found = lands(5, rel);
        } else if (b == 0x0F && i + 6 <= code.size() && (static_cast<unsigned char>(code[i + 1]) & 0xF0) == 0x80) {
            std::int32_t rel = 0;  // jcc rel32
            std::memcpy(&rel, code.data() + i + 2, 4);
            found = lands(6, rel);
        } else if ((b == 0xEB || (b & 0xF0) == 0x70) && i + 2 <= code.size()) {  // jmp / jcc rel8
            found = lands(2, static_cast<std::int8_t>(code[i + 1]));
        }
    }
    jumps_[key] = found;
    return found;
}

} // namespace roofline::measure
