// How EVEX code is found, and why this way. Decoding every instruction needs a
// full x86 length decoder (prefixes, three opcode maps, VEX/EVEX/XOP, ModRM/SIB,
// displacements and immediates per opcode): heavy to write and to keep right. A
// byte search for 0x62 alone is wrong the other way: 0x62 is a common
// displacement, immediate or ModRM byte. So two steps:
//  1. a fast pre-filter over the executable sections: a 0x62 followed by bytes
//     with the EVEX prefix's fixed bits and legal fields (evex_prefix_shape; in
//     64-bit mode a 0x62 opcode byte is always EVEX), at memchr speed;
//  2. confirmation where it decides something (the program itself, and libraries
//     that show no sign of CPU dispatch): objdump disassembles each candidate's
//     function from the function's start, so instruction boundaries are the real
//     ones, and a candidate is EVEX when an instruction starts at it (or at legacy
//     prefixes just before it). A few functions are enough: once one EVEX
//     instruction is confirmed outside CPU-variant functions, the answer is known.
// A 36 MB libopenblas is pre-filtered in well under a second (it dispatches per CPU,
// so it is not confirmed: its SKYLAKEX kernels are its AVX-512 code).
#include "measure/evex_scan.hpp"

#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/command_output.hpp"
#include "measure/elf_reading.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cerrno>
#include <elf.h>
#include <fcntl.h>
#include <optional>
#include <filesystem>
#include <map>
#include <set>
#include <unistd.h>

namespace roofline::measure {
namespace {

struct Code {
    std::uint64_t offset, vaddr, size;
};

struct Func {
    std::uint64_t start, size;
    std::string name;
};

bool is_glibc_file(const std::string& path) {
    const auto name = std::filesystem::path(path).filename().string();
    for (const char* p : {"libc.so", "libm.so", "libmvec.so", "ld-linux", "libpthread.so", "libdl.so", "librt.so"})
        if (name.starts_with(p)) return true;
    return false;
}

// Legacy prefixes an EVEX instruction may carry (address size, segment overrides).
bool legacy_prefix(std::uint8_t b) {
    return b == 0x67 || b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65;
}

// A candidate instruction: where it is, where decoding may start, the named function holding it.
struct Site {
    std::uint64_t vaddr;
    const Code* section;
    std::uint64_t decode_from;
    const Func* function;  // null: no symbol covers it (a stripped static function)
};

Site site(const Code& c, std::uint64_t at, const std::vector<Func>& funcs, const std::vector<std::uint64_t>& starts) {
    const std::uint64_t vaddr = c.vaddr + at;
    Site s{vaddr, &c, c.vaddr, nullptr};
    auto it = std::upper_bound(funcs.begin(), funcs.end(), vaddr, [](std::uint64_t v, const Func& f) { return v < f.start; });
    if (it != funcs.begin() && vaddr < std::prev(it)->start + std::prev(it)->size) s.function = &*std::prev(it);
    auto st = std::upper_bound(starts.begin(), starts.end(), vaddr);
    if (st != starts.begin() && *std::prev(st) >= c.vaddr) s.decode_from = *std::prev(st);
    return s;
}

// A DWARF exception-header pointer (the encodings .eh_frame_hdr uses); nullopt when unknown.
std::optional<std::uint64_t> read_encoded(const std::string& data, std::uint64_t& off, std::uint8_t enc,
                                          std::uint64_t pc, std::uint64_t datarel) {
    std::uint64_t v = 0;
    switch (enc & 0x0f) {
    case 0x03: { std::uint32_t x; if (!read_at(data, off, x)) return std::nullopt; v = x; off += 4; break; }
    case 0x0b: { std::int32_t x; if (!read_at(data, off, x)) return std::nullopt; v = static_cast<std::uint64_t>(std::int64_t{x}); off += 4; break; }
    case 0x04: case 0x0c: { std::uint64_t x; if (!read_at(data, off, x)) return std::nullopt; v = x; off += 8; break; }
    default: return std::nullopt;
    }
    switch (enc & 0x70) {
    case 0x00: return v;
    case 0x10: return v + pc;
    case 0x30: return v + datarel;
    default: return std::nullopt;
    }
}

// Every function's start from .eh_frame_hdr's search table (PT_GNU_EH_FRAME): present in
// stripped libraries, where the static functions have no symbol.
std::vector<std::uint64_t> eh_frame_function_starts(const std::string& data, const Elf64_Ehdr& eh) {
    std::vector<std::uint64_t> starts;
    for (unsigned i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph{};
        if (!read_at(data, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) break;
        if (ph.p_type != PT_GNU_EH_FRAME) continue;
        std::uint8_t head[4];
        if (!read_at(data, ph.p_offset, head) || head[0] != 1 || head[3] == 0xff) return starts;
        const std::uint64_t hdr = ph.p_vaddr;
        std::uint64_t off = ph.p_offset + 4;
        auto at = [&](std::uint64_t o) { return hdr + (o - ph.p_offset); };
        if (!read_encoded(data, off, head[1], at(off), hdr)) return starts;
        const auto count = read_encoded(data, off, head[2], at(off), hdr);
        if (!count || *count > (std::uint64_t{1} << 24)) return starts;
        starts.reserve(*count);
        for (std::uint64_t n = 0; n < *count; ++n) {
            const auto start = read_encoded(data, off, head[3], at(off), hdr);
            if (!start || !read_encoded(data, off, head[3], at(off), hdr)) break;
            starts.push_back(*start);
        }
    }
    return starts;
}

struct ConfirmedGroup {
    std::string name;       // the function, or "a function at 0x..."
    std::size_t confirmed;  // instructions confirmed in it
};

// objdump decodes each group of sites (those with one decoding start) from that start; a site
// is confirmed when an instruction starts at it or at legacy prefixes just before. At most
// `max_groups` objdump runs; stops after `enough` groups confirmed. `stopped_early` is set when
// groups were left undecoded (the counts are then a lower bound).
std::vector<ConfirmedGroup> confirm_sites(const std::string& objdump, const std::string& path, const std::string& data,
                                          const std::vector<Site>& sites, int max_groups, std::size_t enough,
                                          bool* stopped_early = nullptr) {
    std::map<std::uint64_t, std::vector<const Site*>> groups;
    for (const auto& s : sites) groups[s.decode_from].push_back(&s);
    std::vector<ConfirmedGroup> confirmed;
    int tried = 0;
    for (const auto& [from, group] : groups) {
        if (tried++ >= max_groups || confirmed.size() >= enough) {
            if (stopped_early) *stopped_early = true;
            break;
        }
        // Sites far into a long stretch: decode at most 64 KiB past the start.
        std::vector<const Site*> near;
        for (const auto* s : group)
            if (s->vaddr < from + 65536) near.push_back(s);
        if (near.empty()) continue;
        const auto starts = objdump_instruction_starts(objdump, path, from, near.back()->vaddr + 16);
        std::size_t n = 0;
        for (const auto* s : near) {
            const auto* base = reinterpret_cast<const std::uint8_t*>(data.data()) + s->section->offset;
            std::uint64_t at = s->vaddr;
            for (int back = 0; back <= 4; ++back) {
                if (std::binary_search(starts.begin(), starts.end(), at)) {
                    ++n;
                    break;
                }
                if (at <= s->section->vaddr || !legacy_prefix(base[at - 1 - s->section->vaddr])) break;
                --at;
            }
        }
        if (n > 0)
            confirmed.push_back({near.front()->function ? near.front()->function->name
                                                        : fmt::format("a function at {:#x}", from),
                                 n});
    }
    return confirmed;
}

} // namespace

std::optional<ValgrindCpu> probe_valgrind_cpu() {
    const std::string valgrind = find_executable("valgrind");
    const std::string client = find_executable("true");
    if (valgrind.empty() || client.empty()) return std::nullopt;
    // --log-fd=1: its messages on the standard output command_output reads.
    const auto text = command_output({valgrind, "-v", "--tool=none", "--vgdb=no", "--log-fd=1", client});
    return text ? parse_valgrind_verbose(*text) : std::nullopt;
}

std::vector<std::uint64_t> objdump_instruction_starts(const std::string& objdump, const std::string& path,
                                                      std::uint64_t start, std::uint64_t stop) {
    const auto text = command_output({objdump, "-d", "--no-show-raw-insn",
                                      fmt::format("--start-address={:#x}", start),
                                      fmt::format("--stop-address={:#x}", stop), path});
    std::vector<std::uint64_t> starts;
    if (!text) return starts;
    // "  401136:\tvmovupd (%rdi,%rax,1),%zmm0": an address, a colon, a tab, the instruction.
    std::size_t pos = 0;
    while (pos < text->size()) {
        const auto end = std::min(text->find('\n', pos), text->size());
        std::string_view line(text->data() + pos, end - pos);
        pos = end + 1;
        const auto colon = line.find(":\t");
        if (colon == std::string_view::npos) continue;
        auto addr = line.substr(0, colon);
        while (!addr.empty() && addr.front() == ' ') addr.remove_prefix(1);
        if (addr.empty() || addr.size() > 16) continue;
        std::uint64_t v = 0;
        bool hex = true;
        for (char c : addr) {
            const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                hex = false;
                break;
            }
            v = v * 16 + static_cast<std::uint64_t>(d);
        }
        if (hex && colon + 2 < line.size() && line.substr(colon + 2).find_first_not_of(" \t") != std::string_view::npos)
            starts.push_back(v);
    }
    std::sort(starts.begin(), starts.end());
    return starts;
}

ObjectCode scan_object_code(const std::string& path, bool executable, bool confirm) {
    ObjectCode o;
    o.path = path;
    o.executable = executable;
    o.glibc = !executable && is_glibc_file(path);
    const auto file = read_file_if_exists(path, std::uint64_t{16} << 30);
    Elf64_Ehdr eh{};
    if (!file || !read_at(*file, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
        o.readable = false;
        return o;
    }
    const std::string& data = *file;
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; ++i)
        if (!read_at(data, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sections[i])) sections.clear();
    std::vector<Code> code;
    for (const auto& sh : sections)
        if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_offset + sh.sh_size <= data.size())
            code.push_back({sh.sh_offset, sh.sh_addr, sh.sh_size});
    if (code.empty()) {  // no section headers (stripped with sstrip): the executable segments
        for (unsigned i = 0; i < eh.e_phnum; ++i) {
            Elf64_Phdr ph{};
            if (!read_at(data, eh.e_phoff + std::uint64_t{i} * eh.e_phentsize, ph)) break;
            if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && ph.p_offset + ph.p_filesz <= data.size())
                code.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
        }
    }
    // Symbols: defined functions (to name a candidate's function), every name (dispatch evidence).
    std::vector<Func> funcs;
    std::set<std::string> evidence;
    for (const std::uint32_t wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
        for_each_elf_symbol(data, sections, wanted, [&](const Elf64_Sym& sym, std::string_view name) {
            const int type = ELF64_ST_TYPE(sym.st_info);
            if (type == STT_GNU_IFUNC && sym.st_shndx != SHN_UNDEF) evidence.insert("ifunc");
            if (auto e = dispatch_evidence(name); !e.empty()) evidence.insert(e);
            if ((type == STT_FUNC || type == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF && sym.st_size > 0)
                funcs.push_back({sym.st_value, sym.st_size, std::string(name)});
        });
    }
    // Functions chosen when the program is loaded (R_X86_64_IRELATIVE: a static program's ifuncs).
    for (const auto& sh : sections) {
        if (sh.sh_type != SHT_RELA || sh.sh_entsize < sizeof(Elf64_Rela)) continue;
        for (std::uint64_t off = 0; off + sizeof(Elf64_Rela) <= sh.sh_size; off += sh.sh_entsize) {
            Elf64_Rela r{};
            if (!read_at(data, sh.sh_offset + off, r)) break;
            if (ELF64_R_TYPE(r.r_info) == R_X86_64_IRELATIVE) {
                evidence.insert("ifunc");
                break;
            }
        }
    }
    o.dispatch.assign(evidence.begin(), evidence.end());
    std::sort(funcs.begin(), funcs.end(), [](const Func& a, const Func& b) { return a.start < b.start; });

    // Where decoding may start: every function's first instruction, from the symbols and, for
    // functions without one (static functions of a stripped library), from the unwind tables.
    std::vector<std::uint64_t> starts = eh_frame_function_starts(data, eh);
    for (const auto& f : funcs) starts.push_back(f.start);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());

    std::vector<Site> evex_sites;
    for (const auto& c : code) {
        o.code_bytes += c.size;
        const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(data.data()) + c.offset, c.size);
        for (const auto at : evex_candidates(bytes, std::size_t{1} << 22)) evex_sites.push_back(site(c, at, funcs, starts));
    }
    o.candidates = evex_sites.size();
    if (o.candidates == 0) return o;
    bool candidates_outside_variants = false;
    std::vector<std::string> variant_names;
    for (const auto& st : evex_sites) {
        if (st.function && cpu_variant_name(st.function->name)) {
            if (variant_names.size() < 3 &&
                std::find(variant_names.begin(), variant_names.end(), st.function->name) == variant_names.end())
                variant_names.push_back(st.function->name);
        } else {
            candidates_outside_variants = true;
        }
    }
    const std::string objdump = confirm ? find_executable("objdump") : std::string{};
    if (objdump.empty()) {
        // Not confirmed: candidates only (evex() says so through confirmation_tried).
        o.evex_outside_variants = candidates_outside_variants;
        o.evex_functions = variant_names;
        return o;
    }
    o.confirmation_tried = true;
    // Outside CPU variants first: they decide whether the object is refused.
    std::vector<Site> outside, variants;
    for (const auto& st : evex_sites)
        (st.function && cpu_variant_name(st.function->name) ? variants : outside).push_back(st);
    constexpr std::size_t kNamed = 3;  // functions named in messages
    // Stopping at the first functions confirmed keeps the scan quick (it runs before every measure):
    // `confirmed` is then a lower bound (confirmation_stopped_early), which the message says.
    bool stopped_early = false;
    for (const auto& group : confirm_sites(objdump, path, data, outside, 24, kNamed, &stopped_early)) {
        o.confirmed += group.confirmed;
        o.evex_outside_variants = true;
        if (o.evex_functions.size() < kNamed) o.evex_functions.push_back(group.name);
    }
    if (o.evex_functions.size() < kNamed)
        for (const auto& group :
             confirm_sites(objdump, path, data, variants, 8, kNamed - o.evex_functions.size(), &stopped_early)) {
            o.confirmed += group.confirmed;
            o.evex_functions.push_back(group.name);
        }
    else if (!variants.empty())
        stopped_early = true;
    o.confirmation_stopped_early = stopped_early;
    // An object with EVEX code outside named variants that executes CPUID itself (GCC's
    // __builtin_cpu_supports linked in statically, hand-written checks) chooses its code by the
    // CPU: libgfortran's matmul_r8_avx512f in a stripped library looks like this.
    if (o.evex_outside_variants && o.dispatch.empty()) {
        std::vector<Site> cpuid_sites;
        for (const auto& c : code) {
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data()) + c.offset;
            for (std::uint64_t i = 0; i + 1 < c.size && cpuid_sites.size() < 4096; ++i)
                if (bytes[i] == 0x0f && bytes[i + 1] == 0xa2) cpuid_sites.push_back(site(c, i, funcs, starts));
        }
        if (!confirm_sites(objdump, path, data, cpuid_sites, 16, 1).empty()) o.dispatch.push_back("cpuid");
    }
    return o;
}

ProgramCode scan_program_code(const std::string& exe) {
    const auto t0 = std::chrono::steady_clock::now();
    ProgramCode pc;
    std::vector<std::string> libraries;
    const auto ldd = find_executable("ldd");
    if (ldd.empty()) {
        pc.notes.push_back("ldd is not installed: the libraries the program loads were not checked");
    } else if (const auto text = command_output({ldd, exe})) {
        // "\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)", "\t/lib64/ld-linux-x86-64.so.2 (0x...)",
        // "\tlibfoo.so => not found".
        std::size_t pos = 0;
        while (pos < text->size()) {
            const auto end = std::min(text->find('\n', pos), text->size());
            std::string line = text->substr(pos, end - pos);
            pos = end + 1;
            const auto arrow = line.find("=> ");
            std::string path = arrow != std::string::npos ? line.substr(arrow + 3) : line;
            path.erase(0, path.find_first_not_of(" \t"));
            if (path.starts_with("not found")) {
                pc.notes.push_back(fmt::format("library {} not found by the loader", line.substr(0, arrow)));
                continue;
            }
            if (const auto paren = path.find(" ("); paren != std::string::npos) path.resize(paren);
            if (!path.starts_with("/")) continue;  // linux-vdso.so.1, "statically linked"
            libraries.push_back(path);
        }
    }
    pc.objects.push_back(scan_object_code(exe, true, true));
    for (const auto& lib : libraries) {
        // A library confirmed only when it shows no CPU dispatch: there the answer decides a refusal.
        auto o = scan_object_code(lib, false, false);
        if (o.candidates > 0 && o.dispatch.empty() && !o.glibc) o = scan_object_code(lib, false, true);
        pc.objects.push_back(std::move(o));
    }
    if (find_executable("objdump").empty())
        pc.notes.push_back("objdump (binutils) is not installed: EVEX-shaped bytes were not confirmed by a "
                           "disassembler");
    pc.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return pc;
}

} // namespace roofline::measure
