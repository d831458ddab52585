#include "measure/separate_debug.hpp"

#include "io/text_file.hpp"
#include "measure/elf_reading.hpp"

#include <array>
#include <filesystem>

namespace roofline::measure {

namespace {

// A debug file can be far larger than an input file (libxul's is gigabytes).
constexpr std::uint64_t kMaxDebugFileBytes = std::uint64_t{16} << 30;

std::vector<Elf64_Shdr> section_headers(const std::string& data) {
    Elf64_Ehdr eh{};
    if (!read_at(data, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
        return {};
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    for (unsigned i = 0; i < eh.e_shnum; ++i)
        if (!read_at(data, eh.e_shoff + std::uint64_t{i} * eh.e_shentsize, sections[i])) return {};
    return sections;
}

std::string section_name(const std::string& data, const std::vector<Elf64_Shdr>& sections, const Elf64_Shdr& sh) {
    Elf64_Ehdr eh{};
    if (!read_at(data, 0, eh) || eh.e_shstrndx >= sections.size()) return {};
    const auto& names = sections[eh.e_shstrndx];
    if (sh.sh_name >= names.sh_size || names.sh_offset + sh.sh_name >= data.size()) return {};
    const char* s = data.data() + names.sh_offset + sh.sh_name;
    return std::string(s, strnlen(s, data.size() - (names.sh_offset + sh.sh_name)));
}

std::string hex(std::string_view bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 0xf];
    }
    return out;
}

// The NT_GNU_BUILD_ID note among the SHT_NOTE sections (a debug file keeps the note).
std::string build_id(const std::string& data, const std::vector<Elf64_Shdr>& sections) {
    for (const auto& sh : sections) {
        if (sh.sh_type != SHT_NOTE) continue;
        std::uint64_t off = 0;
        while (off + sizeof(Elf64_Nhdr) <= sh.sh_size) {
            Elf64_Nhdr nh{};
            if (!read_at(data, sh.sh_offset + off, nh)) break;
            const std::uint64_t name_at = off + sizeof nh, desc_at = name_at + ((std::uint64_t{nh.n_namesz} + 3) & ~3ull);
            const std::uint64_t next = desc_at + ((std::uint64_t{nh.n_descsz} + 3) & ~3ull);
            if (next > sh.sh_size || sh.sh_offset + next > data.size()) break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz > 0 &&
                data.compare(sh.sh_offset + name_at, 4, std::string_view("GNU\0", 4)) == 0)
                return hex(std::string_view(data).substr(sh.sh_offset + desc_at, nh.n_descsz));
            off = next;
        }
    }
    return {};
}

const std::array<std::uint32_t, 256>& crc_table() {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    return table;
}

} // namespace

std::uint32_t debuglink_crc32(std::string_view data) {
    const auto& table = crc_table();
    std::uint32_t c = 0xffffffffu;
    for (const unsigned char b : data) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

DebugReference debug_reference(const std::string& data, const std::vector<Elf64_Shdr>& sections) {
    DebugReference ref;
    ref.build_id = build_id(data, sections);
    for (const auto& sh : sections) {
        if (sh.sh_type != SHT_PROGBITS || section_name(data, sections, sh) != ".gnu_debuglink") continue;
        if (sh.sh_offset > data.size() || data.size() - sh.sh_offset < sh.sh_size) break;
        const std::string_view body(data.data() + sh.sh_offset, sh.sh_size);
        const auto end = body.find('\0');
        if (end == std::string_view::npos || end == 0) break;
        ref.debuglink = std::string(body.substr(0, end));
        // The name, its NUL, padding to 4 bytes, then the CRC (little-endian on x86-64).
        const std::uint64_t crc_at = (end + 1 + 3) & ~std::uint64_t{3};
        std::uint32_t crc = 0;
        if (crc_at + 4 <= sh.sh_size && read_at(data, sh.sh_offset + crc_at, crc)) ref.link_crc = crc;
        break;
    }
    // A name with a directory in it is not a debug link GDB would follow.
    if (ref.debuglink.find('/') != std::string::npos) ref.debuglink.clear();
    return ref;
}

std::optional<SeparateDebugFile> find_separate_debug_file(const std::string& path, const DebugReference& ref,
                                                          const std::string& debug_root) {
    namespace fs = std::filesystem;
    std::vector<std::string> candidates;
    if (ref.build_id.size() > 2)
        candidates.push_back(debug_root + "/.build-id/" + ref.build_id.substr(0, 2) + "/" + ref.build_id.substr(2) +
                             ".debug");
    if (!ref.debuglink.empty()) {
        std::error_code ec;
        fs::path dir = fs::path(path).parent_path();
        if (dir.empty()) dir = ".";
        const fs::path absolute = fs::absolute(dir, ec);
        candidates.push_back((dir / ref.debuglink).string());
        candidates.push_back((dir / ".debug" / ref.debuglink).string());
        if (!ec) candidates.push_back(debug_root + (absolute.lexically_normal() / ref.debuglink).string());
    }
    for (const auto& candidate : candidates) {
        std::error_code ec;
        // The file itself is no debug file of its own (a debug link naming the library beside it).
        if (!fs::is_regular_file(candidate, ec) || fs::equivalent(candidate, path, ec)) continue;
        auto data = read_file_if_exists(candidate, kMaxDebugFileBytes);
        if (!data) continue;
        const auto sections = section_headers(*data);
        if (sections.empty()) continue;
        const bool same = !ref.build_id.empty() ? build_id(*data, sections) == ref.build_id
                                                : ref.link_crc && debuglink_crc32(*data) == *ref.link_crc;
        if (same) return SeparateDebugFile{candidate, std::move(*data)};
    }
    return std::nullopt;
}

} // namespace roofline::measure
