#include "measure/sampling_profiler.hpp"

#include "io/text_file.hpp"
#include "measure/child_process.hpp"
#include "measure/engine.hpp"

#include <fmt/core.h>

#include <algorithm>
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

} // namespace

namespace {

struct Mapping {
    std::uint32_t pid;
    std::uint64_t start, len, pgoff;
    std::string file;
};
struct Sample {
    std::uint32_t pid;
    std::uint64_t ip;
};

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
    void open(pid_t pid, std::uint64_t period_ns) {
        perf_event_attr attr{};
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_TASK_CLOCK;
        attr.sample_period = period_ns;
        attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
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
        std::size_t pages = 128;  // data pages per CPU; halved while the locked-memory limit refuses
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

    std::vector<Mapping> mappings;
    std::vector<Sample> samples;
    long long lost = 0;

private:
    static void copy_out(const char* data, std::size_t size, std::uint64_t pos, void* out, std::size_t n) {
        const std::size_t at = pos & (size - 1);
        const std::size_t first = std::min(n, size - at);
        std::memcpy(out, data + at, first);
        if (first < n) std::memcpy(static_cast<char*>(out) + first, data, n - first);
    }

    void parse(const perf_event_header& h, const char* body, std::size_t n) {
        if (h.type == PERF_RECORD_SAMPLE && n >= 16) {
            Sample s{};
            std::memcpy(&s.ip, body, 8);
            std::memcpy(&s.pid, body + 8, 4);
            samples.push_back(s);
        } else if (h.type == PERF_RECORD_MMAP && n > 32) {
            // u32 pid, tid; u64 addr, len, pgoff; char filename[]
            Mapping m{};
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

    std::vector<Ring> rings_;
};

class Resolver {
public:
    explicit Resolver(const std::vector<Mapping>& maps) : maps_(maps) {}

    std::string resolve(const Sample& s) {
        const Mapping* m = find(s.pid, s.ip, true);
        if (!m) m = find(s.pid, s.ip, false);  // a forked child inherits its parent's mappings
        if (!m || m->file.empty() || m->file[0] == '[') return "(unknown)";
        auto& elf = elves_[m->file];
        if (!elf) elf = std::make_unique<ElfSymbols>(m->file);
        if (!elf->loaded()) return "(unknown)";
        const auto vaddr = file_offset_to_vaddr(ip_to_file_offset(s.ip, m->start, m->pgoff), elf->segments());
        if (!vaddr) return "(unknown)";
        auto name = elf->function_at(*vaddr);
        return name.empty() ? "(unknown)" : name;
    }

private:
    const Mapping* find(std::uint32_t pid, std::uint64_t ip, bool same_pid) const {
        for (auto it = maps_.rbegin(); it != maps_.rend(); ++it)  // the latest mapping wins
            if ((!same_pid || it->pid == pid) && ip >= it->start && ip - it->start < it->len) return &*it;
        return nullptr;
    }
    const std::vector<Mapping>& maps_;
    std::map<std::string, std::unique_ptr<ElfSymbols>> elves_;
};

} // namespace

SamplingResult sample_functions(const std::vector<std::string>& argv,
                                const std::vector<std::pair<std::string, std::string>>& env, std::uint64_t period_ns) {
    SamplingResult result;
    result.period_seconds = static_cast<double>(period_ns) / 1e9;
    Sampler sampler;
    std::atomic<bool> stop{false};
    std::thread reader;
    auto before_exec = [&](pid_t pid) {
        sampler.open(pid, period_ns);
        reader = std::thread([&] {
            while (!stop.load()) {
                sampler.drain();
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
    };
    ChildRun run;
    try {
        run = run_child(argv, env, before_exec);
    } catch (const CommandNotFound&) {
        stop = true;
        if (reader.joinable()) reader.join();
        throw;
    } catch (const std::exception& e) {
        stop = true;
        if (reader.joinable()) reader.join();
        result.error = e.what();
        return result;
    }
    stop = true;
    if (reader.joinable()) reader.join();
    sampler.drain();

    result.ok = true;
    result.wall_seconds = run.wall_seconds;
    result.samples = static_cast<long long>(sampler.samples.size());
    result.lost = sampler.lost;
    Resolver resolver(sampler.mappings);
    for (const auto& s : sampler.samples) ++result.functions[resolver.resolve(s)].samples;
    for (auto& [name, f] : result.functions) f.seconds = static_cast<double>(f.samples) * result.period_seconds;
    return result;
}

} // namespace roofline::measure
