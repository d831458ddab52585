// Call stacks from samples of the user stack: DWARF call-frame unwinding
// (elfutils' libdwfl) of the registers and the top of the user stack that a
// perf_event sample copies (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER),
// as `perf record --call-graph dwarf` does. Unlike frame-pointer chains it is
// right for optimized code built without frame pointers: x86-64 objects carry
// .eh_frame call-frame information whatever the compiler flags. x86-64 only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace roofline::measure {

// One executable mapping of a file into the sampled process (PERF_RECORD_MMAP).
struct CodeMapping {
    std::uint64_t start = 0, len = 0, pgoff = 0;
    std::string file;
};

// Registers in the DWARF numbering of x86-64: rax rdx rcx rbx rsi rdi rbp rsp
// r8 … r15, then rip (16).
constexpr std::size_t kUnwindRegisters = 17;
using UnwindRegisters = std::array<std::uint64_t, kUnwindRegisters>;

struct UserStackSnapshot {
    UnwindRegisters regs{};
    const std::uint8_t* stack = nullptr;  // bytes copied from rsp upwards
    std::size_t stack_size = 0;
};

struct UnwoundStack {
    // pcs[0]: the sampled instruction; then one address inside each caller's
    // call instruction (return address - 1), innermost first.
    std::vector<std::uint64_t> pcs;
    // True when unwinding reached the thread's outermost frame (the call-frame
    // information says there is no caller); false when it stopped early: the
    // stack copy was too short, or code without call-frame information.
    bool complete = false;
    // Links found by scanning the stack past code without call-frame
    // information (see StackUnwinder::unwind).
    int scanned = 0;
};

// Whether `candidate` may be the return address of the call that is running
// the code at `callee_pc` (it follows a call instruction that can have called it).
using ReturnAddressCheck = std::function<bool(std::uint64_t candidate, std::uint64_t callee_pc)>;

class StackUnwinder {
public:
    // The code of one process: its executable mappings (later ones replace
    // earlier ones over the same addresses, as after dlclose/dlopen).
    explicit StackUnwinder(const std::vector<CodeMapping>& mappings);
    ~StackUnwinder();
    StackUnwinder(const StackUnwinder&) = delete;
    StackUnwinder& operator=(const StackUnwinder&) = delete;

    // Empty error: ready to unwind.
    const std::string& error() const { return error_; }
    // Unwinds by call-frame information. Where that stops short of the outermost
    // frame (hand-written assembly without CFI, such as BLAS kernels), and
    // `check` is given, scans the stack above the last frame for a word that
    // `check` accepts as a return address, and goes on from there; the scan is
    // kept only when unwinding from it reaches the outermost frame.
    UnwoundStack unwind(int tid, const UserStackSnapshot& sample, const ReturnAddressCheck& check = {});

private:
    struct State;
    std::unique_ptr<State> state_;
    std::string error_;
};

} // namespace roofline::measure
