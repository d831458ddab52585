// Native per-function CPU time by sampling: runs the command with a software
// perf event (task clock) that samples the user-space instruction pointer, and
// attributes the samples to ELF function symbols. Needs no hardware PMU
// (works with perf_event_paranoid <= 2 on the child we start). Linux only.
//
// Only the sampled function itself is credited (self / exclusive time): IP
// samples carry no call stack, and user call chains through frame pointers are
// unreliable in optimized code.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

struct FunctionTime {
    long long samples = 0;
    double seconds = 0;  // samples * period: CPU time, summed over threads
};

struct SamplingResult {
    bool ok = false;              // false: sampling could not be set up; see `error`
    std::string error;
    double period_seconds = 0;
    long long samples = 0;        // all samples
    long long lost = 0;           // samples the kernel dropped (ring buffer full)
    double wall_seconds = 0;
    std::map<std::string, FunctionTime> functions;  // "(unknown)" for IPs without a symbol
};

// Runs argv natively, sampling every `period_ns` of task-clock time in all its
// threads and children. Throws CommandNotFound like run_child.
SamplingResult sample_functions(const std::vector<std::string>& argv,
                                const std::vector<std::pair<std::string, std::string>>& env,
                                std::uint64_t period_ns = 100000);

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

// The function symbols of one ELF file (.symtab, else .dynsym), demangled.
class ElfSymbols {
public:
    // Empty (loaded() false) when the file is not a readable 64-bit ELF.
    explicit ElfSymbols(const std::string& path);
    bool loaded() const { return loaded_; }
    const std::vector<LoadSegment>& segments() const { return segments_; }
    // The function holding link-time address `vaddr`; empty when none.
    std::string function_at(std::uint64_t vaddr) const;
    // Address of function `name` (first match); nullopt when absent.
    std::optional<std::uint64_t> address_of(const std::string& name) const;

private:
    struct Symbol {
        std::uint64_t start, size;
        std::string name;
    };
    bool loaded_ = false;
    std::vector<LoadSegment> segments_;
    std::vector<Symbol> symbols_;  // sorted by start
};

} // namespace roofline::measure
