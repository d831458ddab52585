#include "measure/stack_unwinder.hpp"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <optional>

namespace roofline::measure {

namespace {

constexpr std::size_t kMaxFrames = 1024;

// Load bias of the file mapped at `start` from file offset `pgoff`: a segment
// is mapped from its page-aligned offset to bias + its page-aligned vaddr, so
// bias = start - pgoff - (p_vaddr - p_offset) of the segment holding pgoff.
// nullopt when the file is not a readable ELF or no segment holds pgoff.
std::optional<std::uint64_t> load_bias(const std::string& path, std::uint64_t start, std::uint64_t pgoff) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::optional<std::uint64_t> bias;
    if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr)) {
        GElf_Ehdr eh;
        std::size_t count = 0;
        if (gelf_getehdr(elf, &eh) && eh.e_type == ET_EXEC) {
            bias = 0;  // fixed addresses
        } else if (elf_getphdrnum(elf, &count) == 0) {
            const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
            for (std::size_t i = 0; i < count && !bias; ++i) {
                GElf_Phdr ph;
                if (!gelf_getphdr(elf, static_cast<int>(i), &ph) || ph.p_type != PT_LOAD) continue;
                const std::uint64_t first = ph.p_offset & ~(page - 1);
                if (pgoff >= first && pgoff < ph.p_offset + ph.p_filesz)
                    bias = start - pgoff - (ph.p_vaddr - ph.p_offset);
            }
        }
        elf_end(elf);
    }
    ::close(fd);
    return bias;
}

} // namespace

struct StackUnwinder::State {
    Dwfl* dwfl = nullptr;
    Dwfl_Callbacks callbacks{};
    Dwfl_Thread_Callbacks thread_callbacks{};
    char* debuginfo_path = nullptr;  // libdwfl's default search path
    // The sample being unwound (libdwfl calls back into it).
    const UserStackSnapshot* sample = nullptr;
    int tid = 0;
    UnwoundStack out;
    std::vector<std::uint64_t> sps;  // each frame's stack pointer (its CFA for callers)

    static pid_t next_thread(Dwfl*, void*, void**) { return 0; }
    static bool get_thread(Dwfl*, pid_t tid, void* arg, void** thread_arg) {
        auto* self = static_cast<State*>(arg);
        *thread_arg = self;
        return tid == self->tid;
    }
    static bool memory_read(Dwfl*, Dwarf_Addr addr, Dwarf_Word* result, void* arg) {
        const auto* s = static_cast<State*>(arg)->sample;
        const std::uint64_t sp = s->regs[7];
        if (addr < sp || addr - sp > s->stack_size || s->stack_size - (addr - sp) < sizeof(Dwarf_Word)) return false;
        std::memcpy(result, s->stack + (addr - sp), sizeof(Dwarf_Word));
        return true;
    }
    static bool set_initial_registers(Dwfl_Thread* thread, void* arg) {
        const auto* s = static_cast<State*>(arg)->sample;
        Dwarf_Word regs[kUnwindRegisters];
        for (std::size_t i = 0; i < kUnwindRegisters; ++i) regs[i] = s->regs[i];
        return dwfl_thread_state_registers(thread, 0, kUnwindRegisters, regs);
    }
    static int frame(Dwfl_Frame* frame, void* arg) {
        auto* self = static_cast<State*>(arg);
        Dwarf_Addr pc = 0;
        bool activation = false;
        if (!dwfl_frame_pc(frame, &pc, &activation)) return DWARF_CB_ABORT;
        // A caller's pc is its return address: the call itself is one byte back.
        self->out.pcs.push_back(activation ? pc : pc - 1);
        Dwarf_Word sp = 0;
        self->sps.push_back(dwfl_frame_reg(frame, 7, &sp) == 0 ? sp : 0);
        return self->out.pcs.size() < kMaxFrames ? DWARF_CB_OK : DWARF_CB_ABORT;
    }
};

StackUnwinder::StackUnwinder(const std::vector<CodeMapping>& mappings) : state_(std::make_unique<State>()) {
#if !defined(__x86_64__)
    error_ = "call-stack unwinding is implemented for x86-64 only";
    return;
#else
    elf_version(EV_CURRENT);
    auto& s = *state_;
    s.callbacks.find_elf = dwfl_linux_proc_find_elf;
    s.callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    s.callbacks.debuginfo_path = &s.debuginfo_path;
    s.dwfl = dwfl_begin(&s.callbacks);
    if (!s.dwfl) {
        error_ = std::string("libdwfl: ") + dwfl_errmsg(-1);
        return;
    }
    // One mapping per file (its latest) gives the file's load bias; libdwfl reads the file itself.
    std::map<std::string, const CodeMapping*> by_file;
    for (const auto& m : mappings)
        if (!m.file.empty() && m.file[0] != '[') by_file[m.file] = &m;
    dwfl_report_begin(s.dwfl);
    int reported = 0;
    for (const auto& [file, m] : by_file) {
        const auto bias = load_bias(file, m->start, m->pgoff);
        if (!bias) continue;
        if (dwfl_report_elf(s.dwfl, file.c_str(), file.c_str(), -1, *bias, false)) ++reported;
    }
    dwfl_report_end(s.dwfl, nullptr, nullptr);
    if (reported == 0) {
        error_ = "none of the program's code files could be read for call-frame information";
        return;
    }
    s.thread_callbacks.next_thread = &State::next_thread;
    s.thread_callbacks.get_thread = &State::get_thread;
    s.thread_callbacks.memory_read = &State::memory_read;
    s.thread_callbacks.set_initial_registers = &State::set_initial_registers;
    // (The pid only names the process for libdwfl: every read goes through the callbacks.)
    if (!dwfl_attach_state(s.dwfl, nullptr, 1, &s.thread_callbacks, &s))
        error_ = std::string("libdwfl: ") + dwfl_errmsg(-1);
#endif
}

StackUnwinder::~StackUnwinder() {
    if (state_ && state_->dwfl) dwfl_end(state_->dwfl);
}

UnwoundStack StackUnwinder::unwind(int tid, const UserStackSnapshot& sample, const ReturnAddressCheck& check) {
    auto& s = *state_;
    if (!error_.empty() || tid <= 0) return {};
    s.tid = tid;
    // One pass of libdwfl from `from`: 0 when it found the outermost frame (no return address); -1 on an
    // error (memory outside the stack copy, an address without call-frame information).
    auto pass = [&](const UserStackSnapshot& from) {
        s.out = {};
        s.sps.clear();
        s.sample = &from;
        const int rc = dwfl_getthread_frames(s.dwfl, tid, &State::frame, &s);
        s.sample = nullptr;
        s.out.complete = rc == 0 && !s.out.pcs.empty();
        return std::move(s.out);
    };
    UnwoundStack result = pass(sample);
    if (!check || result.complete || result.pcs.empty() || s.sps.size() != result.pcs.size()) return result;
    // Scan upwards from the last frame's stack pointer; a candidate counts only when unwinding from it
    // reaches the outermost frame. Few candidates are tried: a real return address lies within the
    // frame of the code that stopped the unwinding.
    constexpr int kMaxCandidates = 16;
    const std::uint64_t sp0 = sample.regs[7];
    const std::uint64_t last_sp = s.sps.back();
    if (last_sp < sp0) return result;
    const std::uint64_t callee_pc = result.pcs.back();
    int candidates = 0;
    for (std::uint64_t at = last_sp - sp0; at + 8 <= sample.stack_size && candidates < kMaxCandidates; at += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, sample.stack + at, 8);
        if (!check(word, callee_pc)) continue;
        ++candidates;
        UserStackSnapshot from = sample;
        from.regs[16] = word;         // rip: in the caller, at the return address
        from.regs[7] = sp0 + at + 8;  // rsp: as after the return
        from.stack = sample.stack + at + 8;
        from.stack_size = sample.stack_size - at - 8;
        auto rest = pass(from);
        if (!rest.complete) continue;
        rest.pcs[0] = word - 1;  // a return address: name the call
        result.pcs.insert(result.pcs.end(), rest.pcs.begin(), rest.pcs.end());
        result.complete = true;
        result.scanned = 1;
        break;
    }
    return result;
}

} // namespace roofline::measure
