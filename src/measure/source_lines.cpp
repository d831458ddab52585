#include "measure/source_lines.hpp"

#include "io/text_file.hpp"

#include <fmt/core.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>

namespace roofline::measure {

struct SourceLines::State {
    std::string image;  // the whole file: libelf reads it in place
    Elf* elf = nullptr;
    Dwarf* dwarf = nullptr;
};

SourceLines::SourceLines(const std::string& path) : state_(std::make_unique<State>()) {
    // A program with debug information can be far larger than an input file: as ElfSymbols.
    auto file = read_file_if_exists(path, std::uint64_t{16} << 30);
    if (!file) return;
    state_->image = std::move(*file);
    elf_version(EV_CURRENT);
    state_->elf = elf_memory(state_->image.data(), state_->image.size());
    if (state_->elf) state_->dwarf = dwarf_begin_elf(state_->elf, DWARF_C_READ, nullptr);
}

SourceLines::~SourceLines() {
    if (state_->dwarf) dwarf_end(state_->dwarf);
    if (state_->elf) elf_end(state_->elf);
}

bool SourceLines::has_lines() const { return state_->dwarf != nullptr; }

std::optional<SourceLine> SourceLines::line_at(std::uint64_t vaddr) const {
    if (!state_->dwarf) return std::nullopt;
    Dwarf_Die cu;
    if (!dwarf_addrdie(state_->dwarf, vaddr, &cu)) return std::nullopt;
    Dwarf_Line* row = dwarf_getsrc_die(&cu, vaddr);
    if (!row) return std::nullopt;
    int line = 0;
    const char* file = dwarf_linesrc(row, nullptr, nullptr);
    if (!file || dwarf_lineno(row, &line) != 0 || line <= 0) return std::nullopt;
    bool statement = true;
    dwarf_linebeginstatement(row, &statement);
    return SourceLine{file, line, statement};
}

std::vector<SourceLine> SourceLines::rows_at(std::uint64_t vaddr) const {
    std::vector<SourceLine> rows;
    if (!state_->dwarf) return rows;
    Dwarf_Die cu;
    Dwarf_Lines* table = nullptr;
    std::size_t n = 0;
    if (!dwarf_addrdie(state_->dwarf, vaddr, &cu) || dwarf_getsrclines(&cu, &table, &n) != 0) return rows;
    Dwarf_Line* covering = dwarf_getsrc_die(&cu, vaddr);
    Dwarf_Addr at = 0;
    if (!covering || dwarf_lineaddr(covering, &at) != 0) return rows;
    const auto address_of = [&](std::size_t i) {
        Dwarf_Addr a = 0;
        dwarf_lineaddr(dwarf_onesrcline(table, i), &a);
        return a;
    };
    std::size_t lo = 0, hi = n;  // libdw sorts a unit's rows by address: the first at `at`
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (address_of(mid) < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (std::size_t i = lo; i < n && address_of(i) == at; ++i) {
        Dwarf_Line* row = dwarf_onesrcline(table, i);
        bool end = false, statement = true;
        int line = 0;
        const char* file = dwarf_linesrc(row, nullptr, nullptr);
        if (dwarf_lineendsequence(row, &end) != 0 || end || !file || dwarf_lineno(row, &line) != 0 || line <= 0)
            continue;
        dwarf_linebeginstatement(row, &statement);
        rows.push_back({file, line, statement});
    }
    return rows;
}

namespace {

// The source file a compilation unit was compiled from, as its line table names files: its name,
// under its compilation directory when relative. Empty when it does not say.
std::string unit_source_file(Dwarf_Die* cu) {
    const char* name = dwarf_diename(cu);
    if (!name || !*name) return {};
    std::filesystem::path file(name);
    if (file.is_relative()) {
        Dwarf_Attribute attribute;
        const char* dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attribute));
        if (dir && *dir) file = std::filesystem::path(dir) / file;
    }
    return file.lexically_normal().string();
}

} // namespace

std::optional<SourceRange> SourceLines::range_of(const std::vector<std::uint64_t>& addresses) const {
    std::vector<SourceLine> lines;
    std::string own_file;
    for (const auto a : addresses) {
        if (own_file.empty() && state_->dwarf) {
            Dwarf_Die cu;
            if (dwarf_addrdie(state_->dwarf, a, &cu)) own_file = unit_source_file(&cu);
        }
        // The instruction is the last row's at its address: rows before it of another line
        // are empty location views (the statements an unroll-and-jam folded into the
        // inner loop's first instruction, at -O3), which would stretch a loop's lines
        // over its parent's. The last row's line may also be in an earlier row, with
        // the statement flag: those count.
        auto rows = rows_at(a);
        if (rows.empty()) continue;
        const SourceLine last = rows.back();
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(lines),
                     [&](const SourceLine& l) { return l.file == last.file && l.line == last.line; });
    }
    return source_range_of(lines, own_file);
}

std::optional<SourceRange> source_range_of(const std::vector<SourceLine>& all, const std::string& own_file) {
    std::vector<SourceLine> lines;
    std::copy_if(all.begin(), all.end(), std::back_inserter(lines), [](const SourceLine& l) { return l.statement; });
    if (lines.empty()) lines = all;
    if (lines.empty()) return std::nullopt;
    std::map<std::string, std::size_t> count;
    std::string most = lines.front().file;
    for (const auto& l : lines)
        if (++count[l.file] > count[most]) most = l.file;
    if (!own_file.empty()) {
        // The line table's names are absolute (under the unit's directory) but may hold "./".
        for (const auto& l : lines)
            if (l.file == own_file || std::filesystem::path(l.file).lexically_normal() == own_file) {
                most = l.file;
                break;
            }
    }
    SourceRange range{most, 0, 0};
    for (const auto& l : lines) {
        if (l.file != most) continue;
        range.first_line = range.first_line == 0 ? l.line : std::min(range.first_line, l.line);
        range.last_line = std::max(range.last_line, l.line);
    }
    return range;
}

std::string source_range_text(const SourceRange& r) {
    const auto slash = r.file.find_last_of('/');
    const auto file = slash == std::string::npos ? r.file : r.file.substr(slash + 1);
    return r.first_line == r.last_line ? fmt::format("{}:{}", file, r.first_line)
                                       : fmt::format("{}:{}-{}", file, r.first_line, r.last_line);
}

} // namespace roofline::measure
