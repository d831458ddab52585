#include "bench/reference_kernel_run.hpp"
#include "bench/reference_family.hpp"
#include "bench/reference_kernel_registry.hpp"

#include <emmintrin.h>
#include <sys/mman.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

// The kernels' code lives in their families (bench/reference_*.cpp), found through the registry
// (bench/reference_kernel_registry.hpp); this file times them and checks their results.
namespace roofline {
namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Every line of the kernel's arrays out of every cache level.
void flush_data(const ReferenceInstance& inst) {
    for (const auto& [p, bytes] : inst.buffers()) {
        const char* c = static_cast<const char*>(p);
        for (std::size_t off = 0; off < bytes; off += 64) _mm_clflush(c + off);
    }
    _mm_mfence();
}

// The kernel's arrays read back into the caches (after other code pushed them out of L2/L3).
void touch_data(const ReferenceInstance& inst) {
    unsigned char sum = 0;
    for (const auto& [p, bytes] : inst.buffers()) {
        const volatile unsigned char* c = static_cast<const volatile unsigned char*>(p);
        for (std::size_t off = 0; off < bytes; off += 64) sum = static_cast<unsigned char>(sum + c[off]);
    }
    volatile unsigned char keep = sum;  // the reads must happen
    (void)keep;
}

// 8 MiB of other code: NOPs ending in a return, run once, so that the instruction caches and
// L2/L3 hold it instead of the kernel's code. Made once; null when executable memory is refused.
using CodeFn = void (*)();
CodeFn other_code() {
    static const CodeFn fn = [] {
        constexpr std::size_t bytes = 8u << 20;
        void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return CodeFn{};
        auto* c = static_cast<unsigned char*>(m);
        std::memset(c, 0x90, bytes - 1);  // nop
        c[bytes - 1] = 0xC3;              // ret
        if (::mprotect(m, bytes, PROT_READ | PROT_EXEC) != 0) {
            ::munmap(m, bytes);
            return CodeFn{};
        }
        return reinterpret_cast<CodeFn>(m);
    }();
    return fn;
}

} // namespace

std::optional<CacheMode> parse_cache_mode(const std::string& text) {
    for (const auto m : {CacheMode::warm, CacheMode::cold_data, CacheMode::cold_code, CacheMode::cold})
        if (text == cache_mode_name(m)) return m;
    return std::nullopt;
}

const char* cache_mode_name(CacheMode mode) {
    switch (mode) {
    case CacheMode::warm: return "warm";
    case CacheMode::cold_data: return "cold-data";
    case CacheMode::cold_code: return "cold-code";
    case CacheMode::cold: return "cold";
    }
    return "warm";
}

namespace {

// The kernel on one thread (team == nullptr) or on every thread of a team: `calls` calls of
// every instance, timed as the slowest thread's.
struct Runner {
    std::vector<std::unique_ptr<ReferenceInstance>> instances;
    ThreadTeam* team = nullptr;

    void each(const std::function<void(ReferenceInstance&)>& fn) {
        if (!team) return fn(*instances[0]);
        team->run([&](int t) { fn(*instances[static_cast<std::size_t>(t)]); });
    }
    double timed(std::int64_t calls) {
        auto job = [&](ReferenceInstance& inst) {
            for (std::int64_t c = 0; c < calls; ++c) inst.call();
        };
        if (!team) {
            const double t0 = now();
            job(*instances[0]);
            return now() - t0;
        }
        return team->run_timed([&](int t) { job(*instances[static_cast<std::size_t>(t)]); });
    }
};

ReferenceRun run_on(const ReferenceKernel& kernel, MakeReferenceInstance make, std::int64_t n,
                    const ReferenceRunOptions& options, ThreadTeam* team) {
    if (n < 1) throw std::invalid_argument(fmt::format("{}: the size must be at least 1 (got {})", kernel.name, n));
    ReferenceRun run;
    run.n = n;
    run.threads = team ? team->size() : 1;
    run.cache = options.cache;
    const KernelParams params = kernel.resolved(options.params);
    run.counts = kernel.counts(n, params);
    Runner r;
    r.team = team;
    r.instances.resize(static_cast<std::size_t>(run.threads));
    if (!team) {
        r.instances[0] = make(kernel, n, params);
    } else {
        team->run([&](int t) { r.instances[static_cast<std::size_t>(t)] = make(kernel, n, params); });
    }
    r.instances[0]->describe(run);
    const bool cold_data = data_cold(options.cache);
    const bool cold_code = options.cache == CacheMode::cold_code || options.cache == CacheMode::cold;
    if (cold_code && !other_code())
        throw std::runtime_error("--cache cold-code: this system refuses executable memory (mmap/mprotect "
                                 "PROT_EXEC), which the code flush needs");
    std::int64_t calls = 0;
    std::int64_t per_sample = 1;
    if (options.cache == CacheMode::warm) {
        // Warm-up, and how many calls make a sample long enough for the clock.
        for (;;) {
            const double seconds = r.timed(per_sample);
            calls += per_sample;
            if (seconds >= options.min_sample_seconds || per_sample >= (std::int64_t{1} << 40)) break;
            per_sample *= 2;
        }
    } else {
        r.timed(1);  // pages and lazy binding, untimed; then one call a sample, each after the flush
        calls = 1;
    }
    std::vector<double> per_call;
    for (int s = 0; s < std::max(1, options.samples); ++s) {
        if (cold_data || cold_code)
            r.each([&](ReferenceInstance& inst) {
                if (cold_data) flush_data(inst);
                if (cold_code) other_code()();
                if (cold_code && !cold_data) touch_data(inst);  // the code passed through L2/L3 too: data back in
            });
        per_call.push_back(r.timed(per_sample) / static_cast<double>(per_sample));
        calls += per_sample;
    }
    std::sort(per_call.begin(), per_call.end());
    run.samples = static_cast<int>(per_call.size());
    run.calls_per_sample = per_sample;
    run.fastest = per_call.front();
    run.slowest = per_call.back();
    run.seconds = options.median ? per_call[per_call.size() / 2] : per_call.front();
    for (std::size_t t = 0; t < r.instances.size() && run.check_error.empty(); ++t) {
        run.check_error = r.instances[t]->check(calls);
        if (!run.check_error.empty() && r.instances.size() > 1)
            run.check_error = fmt::format("thread {}: {}", t, run.check_error);
    }
    run.checked = run.check_error.empty();
    return run;
}

} // namespace

ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options) {
    return run_on(kernel, registered_reference_kernel(kernel.id).make, n, options, nullptr);
}

ReferenceRun run_reference_kernel(const ReferenceKernel& kernel, std::int64_t n, const ReferenceRunOptions& options,
                                  ThreadTeam& team) {
    return run_on(kernel, registered_reference_kernel(kernel.id).make, n, options, &team);
}

ReferenceRun run_reference_kernel(const RegisteredReferenceKernel& kernel, std::int64_t n,
                                  const ReferenceRunOptions& options) {
    return run_on(*kernel.kernel, kernel.make, n, options, nullptr);
}

ReferenceRun run_reference_kernel(const RegisteredReferenceKernel& kernel, std::int64_t n,
                                  const ReferenceRunOptions& options, ThreadTeam& team) {
    return run_on(*kernel.kernel, kernel.make, n, options, &team);
}

} // namespace roofline
