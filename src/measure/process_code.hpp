// The code of a sampled process, from its executable mappings
// (PERF_RECORD_MMAP): runtime address -> file, function symbol and bytes.
// Used to name sampled functions and to check each link of an unwound call
// stack against the call instruction that made it.
#pragma once

#include "measure/elf_symbols.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

// The same file however it was named (the tool's resolved path, the kernel's mapping, a symbolic
// link): its canonical path, or the path itself when that cannot be resolved.
std::string canonical_file(const std::string& path);

struct ProcessMapping {
    std::uint32_t pid = 0;
    std::uint64_t start = 0, len = 0, pgoff = 0;
    std::string file;
};

// A function as it lies in the running process.
struct CodeFunction {
    const ElfSymbols* elf = nullptr;
    const ElfSymbols::Symbol* symbol = nullptr;
    std::uint64_t start = 0;  // runtime address of its first instruction
};

class ProcessCode {
public:
    explicit ProcessCode(const std::vector<ProcessMapping>& maps) : maps_(maps) {}

    // The function holding runtime address `ip` in process `pid` (a forked
    // child without mappings of its own uses its parent's); nullopt when the
    // address is in no file or no symbol.
    std::optional<CodeFunction> function_at(std::uint32_t pid, std::uint64_t ip);
    // Its name; code without a symbol "(no symbol: FILE+0xENTRY)" (FILE's base name, ENTRY its
    // function's in the unwind table; "(no symbol: FILE)" outside any), kCodeOutsideAnyFile
    // (function_names.hpp) outside any file.
    std::string name_at(std::uint32_t pid, std::uint64_t ip);
    // The file mapped at `ip`; empty when none.
    std::string file_at(std::uint32_t pid, std::uint64_t ip) const;
    // The file mapped at `ip` and the link-time address `ip` is in it (what its ELF
    // symbols and line table say); nullopt when in no readable ELF file.
    std::optional<std::pair<std::string, std::uint64_t>> link_address_at(std::uint32_t pid, std::uint64_t ip);

    // The function a direct call (E8 rel32) ending just before `return_address`
    // calls; nullopt when the instruction there is not a direct call into a
    // known function (an indirect call, a call through the PLT).
    std::optional<CodeFunction> direct_callee(std::uint32_t pid, std::uint64_t return_address);

    // The function a direct call to a PLT stub ending just before
    // `return_address` reaches: the import the stub jumps through, as the
    // process's first object defining it (in load order) holds it. nullopt
    // when the call is not to a PLT stub, or the import is an IFUNC (which
    // runs an implementation of another name) or defined nowhere mapped.
    std::optional<CodeFunction> plt_callee(std::uint32_t pid, std::uint64_t return_address);

    // True when the bytes just before `address` are a call instruction (direct,
    // or indirect through a register or memory): `address` can be a return address.
    bool follows_call(std::uint32_t pid, std::uint64_t address);

    // True when `from` holds a direct jump (jmp or jcc, rel8 or rel32) to the
    // first instruction of `to`: a tail call from one to the other.
    bool jumps_to(const CodeFunction& from, const CodeFunction& to);

private:
    struct Located {
        const ProcessMapping* map;
        const ElfSymbols* elf;
        std::uint64_t vaddr;  // link-time address
    };
    std::optional<Located> locate(std::uint32_t pid, std::uint64_t ip);
    const ElfSymbols* symbols_of(const std::string& file);
    std::optional<std::uint64_t> call_target(std::uint32_t pid, std::uint64_t return_address);
    std::optional<CodeFunction> definition(std::uint32_t pid, const std::string& name);
    const ProcessMapping* find(std::uint32_t pid, std::uint64_t ip, bool same_pid) const;

    const std::vector<ProcessMapping>& maps_;
    std::map<std::string, std::unique_ptr<ElfSymbols>> elves_;
    std::map<std::pair<std::uint64_t, std::uint64_t>, bool> jumps_;  // (from, to) starts
    std::map<std::pair<std::uint32_t, std::string>, std::optional<CodeFunction>> definitions_;
    // Each file's functions without a symbol (its unwind table's), found when first needed.
    std::map<const ElfSymbols*, std::optional<std::vector<ElfSymbols::Symbol>>> unnamed_;
};

} // namespace roofline::measure
