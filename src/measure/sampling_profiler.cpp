#include "measure/sampling_profiler.hpp"

#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/output_tee.hpp"
#include "measure/engine.hpp"
#include "measure/function_names.hpp"
#include "measure/process_code.hpp"
#include "measure/stack_unwinder.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cxxabi.h>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <linux/perf_event.h>
#include <memory>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace roofline::measure {

namespace {

struct Sample {
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t ip = 0, time = 0;
    UnwindRegisters regs{};        // call stacks only
    std::size_t stack_at = 0;      // into Sampler::stack_bytes
    std::size_t stack_size = 0;    // 0: no stack copy
};

// perf's x86 user-register numbers (asm/perf_regs.h) of the registers the
// unwinder needs, in the order the kernel writes them (ascending bit), with
// their DWARF numbers: ax bx cx dx si di bp sp ip r8 … r15.
constexpr int kPerfRegs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 18, 19, 20, 21, 22, 23};
constexpr int kDwarfOfPerfReg[] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 8, 9, 10, 11, 12, 13, 14, 15};
constexpr std::uint64_t user_regs_mask() {
    std::uint64_t mask = 0;
    for (int r : kPerfRegs) mask |= std::uint64_t{1} << r;
    return mask;
}
// Stack copies kept in memory at most; later samples keep no stack (and count
// as not unwound) rather than exhaust memory on a long run.
constexpr std::size_t kMaxStackBytes = std::size_t{512} << 20;

struct Ring {
    int fd = -1;
    void* base = nullptr;
    std::size_t size = 0;       // whole mapping
    std::size_t data_size = 0;  // data area (a power of two of pages)
};

class Sampler {
public:
    ~Sampler() {
        for (auto& r : rings_) {
            if (r.base) ::munmap(r.base, r.size);
            if (r.fd >= 0) ::close(r.fd);
        }
    }

    // Opens one event per CPU on `pid` (inherit: its threads and children), each with a ring buffer.
    void open(pid_t pid, const SamplingOptions& options) {
        call_stacks_ = options.call_stacks;
        perf_event_attr attr{};
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_TASK_CLOCK;
        attr.sample_period = options.period_ns;
        attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
        if (call_stacks_) {
            attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
            attr.sample_regs_user = user_regs_mask();
            attr.sample_stack_user = options.stack_bytes & ~7u;  // a multiple of 8
        }
        attr.disabled = 1;
        attr.enable_on_exec = 1;
        attr.inherit = 1;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        attr.mmap = 1;
        attr.comm = 0;
        // The kernel refuses ring buffers on inherited events that follow a task on
        // every CPU (cpu = -1): one event per CPU, as perf record does.
        const long ncpu = std::max(1L, ::sysconf(_SC_NPROCESSORS_CONF));
        const long page = ::sysconf(_SC_PAGESIZE);
        int last_errno = 0;
        // Data pages per CPU, halved while the locked-memory limit refuses; a stack copy makes
        // each sample ~100 times larger.
        std::size_t pages = call_stacks_ ? 512 : 128;
        for (long cpu = 0; cpu < ncpu; ++cpu) {
            const int fd = static_cast<int>(
                ::syscall(SYS_perf_event_open, &attr, pid, static_cast<int>(cpu), -1, PERF_FLAG_FD_CLOEXEC));
            if (fd < 0) {
                last_errno = errno;  // e.g. an offline CPU
                continue;
            }
            Ring r;
            r.fd = fd;
            for (;; pages /= 2) {
                r.size = (pages + 1) * static_cast<std::size_t>(page);
                void* p = ::mmap(nullptr, r.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (p != MAP_FAILED) {
                    r.base = p;
                    r.data_size = pages * static_cast<std::size_t>(page);
                    break;
                }
                last_errno = errno;
                if (pages == 1) break;
            }
            if (!r.base) {
                ::close(fd);
                pages = 1;
                continue;
            }
            rings_.push_back(r);
        }
        if (rings_.empty())
            throw MeasureError(fmt::format("perf_event_open (software task-clock sampling) failed: {}",
                                           std::strerror(last_errno)));
    }

    // Reads what the kernel wrote since the last call. One reader at a time.
    void drain() {
        for (auto& r : rings_) {
            auto* meta = static_cast<perf_event_mmap_page*>(r.base);
            const std::uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
            std::uint64_t tail = meta->data_tail;
            const char* data = static_cast<const char*>(r.base) + (r.size - r.data_size);
            std::vector<char> rec;
            while (tail < head) {
                perf_event_header h{};
                copy_out(data, r.data_size, tail, &h, sizeof h);
                if (h.size < sizeof h) break;
                rec.resize(h.size);
                copy_out(data, r.data_size, tail, rec.data(), h.size);
                parse(h, rec.data() + sizeof h, h.size - sizeof h);
                tail += h.size;
            }
            __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
        }
    }

    std::vector<ProcessMapping> mappings;
    std::vector<Sample> samples;
    std::vector<std::uint8_t> stack_bytes;
    long long lost = 0;

private:
    static void copy_out(const char* data, std::size_t size, std::uint64_t pos, void* out, std::size_t n) {
        const std::size_t at = pos & (size - 1);
        const std::size_t first = std::min(n, size - at);
        std::memcpy(out, data + at, first);
        if (first < n) std::memcpy(static_cast<char*>(out) + first, data, n - first);
    }

    void parse(const perf_event_header& h, const char* body, std::size_t n) {
        if (h.type == PERF_RECORD_SAMPLE && n >= 24) {
            // u64 ip; u32 pid, tid; u64 time; [u64 abi; u64 regs[]]; [u64 size; char data[size]; u64 dyn_size]
            Sample s{};
            std::memcpy(&s.ip, body, 8);
            std::memcpy(&s.pid, body + 8, 4);
            std::memcpy(&s.tid, body + 12, 4);
            std::memcpy(&s.time, body + 16, 8);
            if (call_stacks_) parse_user_stack(s, body + 24, n - 24);
            samples.push_back(s);
        } else if (h.type == PERF_RECORD_MMAP && n > 32) {
            // u32 pid, tid; u64 addr, len, pgoff; char filename[]
            ProcessMapping m{};
            std::memcpy(&m.pid, body, 4);
            std::memcpy(&m.start, body + 8, 8);
            std::memcpy(&m.len, body + 16, 8);
            std::memcpy(&m.pgoff, body + 24, 8);
            m.file.assign(body + 32, strnlen(body + 32, n - 32));
            mappings.push_back(std::move(m));
        } else if (h.type == PERF_RECORD_LOST && n >= 16) {
            std::uint64_t count = 0;
            std::memcpy(&count, body + 8, 8);  // u64 id, lost
            lost += static_cast<long long>(count);
        }
    }

    void parse_user_stack(Sample& s, const char* p, std::size_t n) {
        std::uint64_t abi = 0;
        if (n < 8) return;
        std::memcpy(&abi, p, 8);
        p += 8;
        n -= 8;
        const std::size_t regs_size = abi ? sizeof(std::uint64_t) * std::size(kPerfRegs) : 0;
        if (n < regs_size + 8) return;
        for (std::size_t i = 0; abi && i < std::size(kPerfRegs); ++i)
            std::memcpy(&s.regs[static_cast<std::size_t>(kDwarfOfPerfReg[i])], p + 8 * i, 8);
        p += regs_size;
        n -= regs_size;
        std::uint64_t size = 0, dyn_size = 0;
        std::memcpy(&size, p, 8);
        if (!abi || size == 0 || n < 16 + size) return;
        std::memcpy(&dyn_size, p + 8 + size, 8);
        dyn_size = std::min(dyn_size, size);
        if (stack_bytes.size() + dyn_size > kMaxStackBytes) return;
        s.stack_at = stack_bytes.size();
        s.stack_size = dyn_size;
        stack_bytes.insert(stack_bytes.end(), p + 8, p + 8 + dyn_size);
    }

    bool call_stacks_ = false;
    std::vector<Ring> rings_;
};

} // namespace

namespace {

// Functions an unwound stack leaves out: where a caller's call instruction
// calls a function other than the frame below it, that function made a tail
// call (its frame was replaced) and is still running. Calls through a PLT
// stub count as calls of the import (fftw_execute, which jumps on through a
// pointer to its plan's code). Returns whether the stack is exact: every such
// gap is one direct tail jump.
bool add_tail_callers(ProcessCode& code, std::uint32_t pid, const std::vector<std::uint64_t>& pcs,
                      std::vector<std::pair<std::string, std::string>>& functions) {
    bool exact = true;
    for (std::size_t i = 0; i + 1 < pcs.size(); ++i) {
        auto called = code.direct_callee(pid, pcs[i + 1] + 1);
        if (!called) called = code.plt_callee(pid, pcs[i + 1] + 1);  // a library's function, through its PLT stub
        if (!called) continue;  // an indirect call: cannot be checked
        const auto callee = code.function_at(pid, pcs[i]);
        if (callee && (callee->start == called->start || callee->symbol->name == called->symbol->name)) continue;
        functions.emplace_back(called->symbol->name, code.file_at(pid, called->start));
        if (!callee || !code.jumps_to(*called, *callee)) exact = false;  // a chain of tail calls, or unknown
    }
    return exact;
}

// Unwinds every sample's stack, one unwinder per process (its own mappings, or
// all of them for a forked child that mapped nothing itself).
void unwind_stacks(const Sampler& sampler, ProcessCode& code, SamplingResult& result) {
    std::map<std::uint32_t, std::vector<CodeMapping>> code_of;
    for (const auto& m : sampler.mappings) code_of[m.pid].push_back({m.start, m.len, m.pgoff, m.file});
    std::vector<CodeMapping> all;
    for (const auto& m : sampler.mappings) all.push_back({m.start, m.len, m.pgoff, m.file});
    std::map<std::uint32_t, std::unique_ptr<StackUnwinder>> unwinders;
    std::map<std::pair<std::string, std::string>, int> index_of;  // (name, file): two files' `kern`s apart
    long long unwound = 0;
    result.stacks.reserve(sampler.samples.size());
    for (const auto& s : sampler.samples) {
        SampledStack out;
        out.tid = static_cast<int>(s.tid);
        auto& unwinder = unwinders[s.pid];
        if (!unwinder) {
            const auto it = code_of.find(s.pid);
            unwinder = std::make_unique<StackUnwinder>(it != code_of.end() ? it->second : all);
            if (!unwinder->error().empty() && result.unwind_error.empty()) result.unwind_error = unwinder->error();
        }
        // A word on the stack is taken for a return address only after a call that can have made the frame
        // below: a direct call to that function (or to one that tail-jumps to it), or an indirect call.
        auto check = [&](std::uint64_t candidate, std::uint64_t callee_pc) {
            if (!code.follows_call(s.pid, candidate)) return false;
            const auto called = code.direct_callee(s.pid, candidate);
            if (!called) return true;
            const auto callee = code.function_at(s.pid, callee_pc);
            return callee && (callee->start == called->start || code.jumps_to(*called, *callee));
        };
        UnwoundStack stack;
        if (s.stack_size > 0)
            stack = unwinder->unwind(static_cast<int>(s.tid),
                                     {s.regs, sampler.stack_bytes.data() + s.stack_at, s.stack_size}, check);
        result.stacks_scanned += stack.scanned > 0;
        if (stack.pcs.empty()) stack.pcs.push_back(s.ip);  // at least the sampled function is known
        unwound += stack.pcs.size() > 1;
        std::vector<std::pair<std::string, std::string>> functions;  // name, file
        for (const auto pc : stack.pcs) functions.emplace_back(code.name_at(s.pid, pc), code.file_at(s.pid, pc));
        out.complete = add_tail_callers(code, s.pid, stack.pcs, functions) && stack.complete;
        for (const auto& [name, file] : functions) {
            const auto [it, added] = index_of.emplace(std::pair(name, file), static_cast<int>(result.stack_functions.size()));
            if (added) {
                result.stack_functions.push_back(name);
                result.stack_function_files.push_back(file);
            }
            if (std::find(out.functions.begin(), out.functions.end(), it->second) == out.functions.end())
                out.functions.push_back(it->second);
        }
        result.stacks_incomplete += !out.complete;
        result.stacks.push_back(std::move(out));
    }
    if (unwound > 0) result.unwind_error.clear();
    std::vector<std::pair<std::string, std::string>> name_file;
    for (std::size_t i = 0; i < result.stack_functions.size(); ++i)
        name_file.emplace_back(result.stack_functions[i], result.stack_function_files[i]);
    const auto names = names_apart(name_file);
    for (std::size_t i = 0; i < name_file.size(); ++i) result.stack_functions[i] = names.at(name_file[i]);
}

} // namespace

int sampled_runs_for(double native_seconds) {
    if (!(native_seconds > 0)) return 1;
    return static_cast<int>(std::clamp(std::floor(20.0 / native_seconds), 1.0, 3.0));
}

SamplingResult pool_sampling_runs(std::vector<SamplingResult> runs) {
    if (runs.empty()) return {};
    SamplingResult out = std::move(runs.front());
    double wall = out.wall_seconds;
    for (std::size_t r = 1; r < runs.size(); ++r) {
        const auto& run = runs[r];
        out.samples += run.samples;
        out.lost += run.lost;
        wall += run.wall_seconds;
        for (const auto& [name, t] : run.functions) {
            auto& f = out.functions[name];
            f.samples += t.samples;
            if (f.file.empty()) f.file = t.file;
        }
        for (const auto& [at, n] : run.code_addresses) out.code_addresses[at] += n;
    }
    out.runs = static_cast<int>(runs.size());
    out.wall_seconds = wall / static_cast<double>(runs.size());
    for (auto& [name, t] : out.functions) t.seconds = static_cast<double>(t.samples) * out.seconds_per_sample();
    return out;
}

SamplingOptions SamplingOptions::for_run(bool call_stacks, double native_seconds) {
    SamplingOptions o;
    o.call_stacks = call_stacks;
    if (call_stacks) o.period_ns = static_cast<std::uint64_t>(std::clamp(native_seconds / 4000 * 1e9, 250e3, 100e6));
    return o;
}

SamplingResult sample_functions(const std::vector<std::string>& argv,
                                const std::vector<std::pair<std::string, std::string>>& env,
                                const SamplingOptions& options) {
    SamplingResult result;
    result.period_seconds = static_cast<double>(options.period_ns) / 1e9;
    result.call_stacks = options.call_stacks;
    Sampler sampler;
    std::atomic<bool> stop{false};
    std::thread reader;
    // Stack copies fill the ring buffers ~100 times faster: read them more often.
    const auto drain_every = std::chrono::milliseconds(options.call_stacks ? 1 : 5);
    auto before_exec = [&](pid_t pid) {
        sampler.open(pid, options);
        reader = std::thread([&] {
            while (!stop.load()) {
                sampler.drain();
                std::this_thread::sleep_for(drain_every);
            }
        });
    };
    ChildRun run;
    QuietOutput output;  // a later run: the first native run showed the program's output
    try {
        run = run_child(argv, env, before_exec, {}, kStopGraceSeconds, output.stdout_fd(), output.stderr_fd());
    } catch (const CommandNotFound&) {
        stop = true;
        if (reader.joinable()) reader.join();
        throw;
    } catch (const std::exception& e) {
        stop = true;
        if (reader.joinable()) reader.join();
        output.finish();
        result.stderr_tail = output.stderr_tail();
        result.error = e.what();
        return result;
    }
    stop = true;
    if (reader.joinable()) reader.join();
    sampler.drain();
    output.finish();
    result.stderr_tail = output.stderr_tail();

    result.ok = true;
    result.status = run.status;
    result.wall_seconds = run.wall_seconds;
    result.samples = static_cast<long long>(sampler.samples.size());
    result.lost = sampler.lost;
    ProcessCode code(sampler.mappings);
    std::map<std::pair<std::string, std::string>, long long> by_file;  // (name, file): two files' `kern`s apart
    for (const auto& s : sampler.samples) {
        ++by_file[{code.name_at(s.pid, s.ip), code.file_at(s.pid, s.ip)}];
        if (options.code_addresses)
            if (auto at = code.link_address_at(s.pid, s.ip)) ++result.code_addresses[std::move(*at)];
        auto& t = result.threads[static_cast<int>(s.tid)];
        t.first_ns = t.samples++ == 0 ? s.time : std::min(t.first_ns, s.time);
        t.last_ns = std::max(t.last_ns, s.time);
    }
    std::vector<std::pair<std::string, std::string>> name_file;
    for (const auto& [key, n] : by_file) name_file.push_back(key);
    const auto names = names_apart(name_file);
    for (const auto& [key, n] : by_file) {
        auto& f = result.functions[names.at(key)];
        f.samples += n;
        f.file = key.second;
    }
    for (auto& [name, f] : result.functions) f.seconds = static_cast<double>(f.samples) * result.period_seconds;
    if (options.call_stacks) unwind_stacks(sampler, code, result);
    return result;
}

} // namespace roofline::measure
