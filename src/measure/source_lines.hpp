// Source lines of machine code, from an ELF file's DWARF line table (libdw), so a
// loop of `measure --loops` is named by the file and lines it was compiled from.
// A file without debug information has none: its loops are named by function and
// address instead (loop_naming).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

struct SourceLine {
    std::string file;  // as the line table names it (usually the path the compiler was given, made absolute)
    int line = 0;
    // The row begins a statement: a row that does not (GCC gives a loop's induction
    // variable the function's opening line) says less about where the loop is.
    bool statement = true;
};

// The lines of one file's range of instructions: the file most of them come from
// (inlined code names other files) and the lowest and highest line in it.
struct SourceRange {
    std::string file;
    int first_line = 0, last_line = 0;
};
// How a loop is named by its lines: "file.c:12" or "file.c:12-14" (the file's last component).
std::string source_range_text(const SourceRange& r);

class SourceLines {
public:
    // Reads `path` (through io, bounded); has_lines() is false when it is not an ELF
    // file or has no line table.
    explicit SourceLines(const std::string& path);
    ~SourceLines();
    SourceLines(const SourceLines&) = delete;
    SourceLines& operator=(const SourceLines&) = delete;

    bool has_lines() const;
    // The line the instruction at link-time address `vaddr` was compiled from; nullopt
    // without debug information there (or line 0: code of no line).
    std::optional<SourceLine> line_at(std::uint64_t vaddr) const;
    // Every row of the line table at the address of the row holding `vaddr`: an
    // address often has several (a statement's row, then the same line's without the
    // statement flag), of which line_at gives the last.
    std::vector<SourceLine> rows_at(std::uint64_t vaddr) const;
    // Of the instructions at `addresses`, by their rows of the line each is compiled
    // from (its address's last row; others there are empty views of other lines);
    // nullopt when none has a line.
    std::optional<SourceRange> range_of(const std::vector<std::uint64_t>& addresses) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The range of lines `lines` hold: `own_file`'s when any of them is there (the compilation
// unit's source: a loop of intrinsics or inline helpers has more rows in the headers they were
// inlined from, and was named 'avx512fintrin.h:6318-13324' instead of its 'k.c:13'), else the
// file most of them name (of two as many, the first to reach that count); its lowest and
// highest line; of the statements' lines only, when there are any. Pure; nullopt for no lines.
std::optional<SourceRange> source_range_of(const std::vector<SourceLine>& lines, const std::string& own_file = {});

} // namespace roofline::measure
