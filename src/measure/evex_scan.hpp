// Whether a program, or a library it loads at start, holds AVX-512 (EVEX) code:
// known before the instrument engine runs anything, since Valgrind cannot decode
// EVEX (its bug 383010) and would stop at the first such instruction after a
// native run already spent. See core/evex_code.hpp for what is judged from it.
#pragma once

#include "core/evex_code.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::measure {

// One object's executable sections (SHF_EXECINSTR; the executable PT_LOAD segments
// when it has no section headers), scanned for EVEX-shaped bytes and, where that
// decides something (`confirm`), the candidates confirmed with objdump.
ObjectCode scan_object_code(const std::string& path, bool executable, bool confirm);

struct ProgramCode {
    std::vector<ObjectCode> objects;  // the program first, then its libraries in load order
    std::vector<std::string> notes;   // libraries not found, objdump missing, ...
    double seconds = 0;               // how long the scan took
};

// The program at `exe` and the shared libraries the dynamic loader resolves for it
// (ldd: DT_NEEDED with RPATH, RUNPATH, LD_LIBRARY_PATH and the cache, as the run will).
// Libraries the program opens later with dlopen cannot be known here.
ProgramCode scan_program_code(const std::string& exe);

// The CPU this machine's Valgrind presents to the programs it runs, as it says itself: `valgrind
// -v --tool=none true` (about half a second) prints its version and the host's hwcaps, from which
// VEX chooses its guest's CPUID (core's valgrind_cpu_isa). nullopt when valgrind is missing or
// does not say.
std::optional<ValgrindCpu> probe_valgrind_cpu();

// objdump's instruction start addresses in [start, stop) of `path` (link-time
// addresses); empty when objdump is missing or fails.
std::vector<std::uint64_t> objdump_instruction_starts(const std::string& objdump, const std::string& path,
                                                      std::uint64_t start, std::uint64_t stop);

} // namespace roofline::measure
