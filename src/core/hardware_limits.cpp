#include "core/hardware_limits.hpp"

#include "core/byte_sizes.hpp"
#include "core/cache_check.hpp"
#include "core/gpu_specs.hpp"
#include "core/roof_consistency.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace roofline {

double max_work_per_cycle_per_core(std::string_view precision) {
    if (precision == "dp") return 1024;
    if (precision == "sp") return 4096;
    return 32768;
}

namespace {

std::string per_cycle_text(double per_cycle, double limit, const char* unit, int threads, double clock_ghz) {
    return fmt::format("{:.0f} {} per cycle per core at {:.2f} GHz and {} core{}, above the {:.0f} no machine exceeds "
                       "(a unit slip or an edit?)",
                       per_cycle, unit, clock_ghz, threads, threads == 1 ? "" : "s", limit);
}

} // namespace

std::string work_rate_beyond_any_machine(double gflops, std::string_view precision, int threads, double clock_ghz) {
    if (!(clock_ghz > 0) || threads < 1) return "";
    const double per_cycle = gflops / (threads * clock_ghz);
    const double limit = max_work_per_cycle_per_core(precision);
    return per_cycle > limit ? per_cycle_text(per_cycle, limit, "operations", threads, clock_ghz) : "";
}

std::string byte_rate_beyond_any_machine(double gbs, int threads, double clock_ghz) {
    if (!(clock_ghz > 0) || threads < 1) return "";
    const double per_cycle = gbs / (threads * clock_ghz);
    return per_cycle > kMaxBytesPerCyclePerCore
               ? per_cycle_text(per_cycle, kMaxBytesPerCyclePerCore, "bytes", threads, clock_ghz)
               : "";
}

std::uint64_t largest_cache_of_any_machine(int level) {
    constexpr std::uint64_t mib = std::uint64_t{1} << 20;  // no file-level name: a unity batch shares them
    switch (level) {
    case 1: return 1 * mib;
    case 2: return 256 * mib;
    case 3: return 4096 * mib;
    default: return 16384 * mib;
    }
}

std::vector<std::string> refuse_impossible_figures(MachineModel& model) {
    std::vector<std::string> refused = refuse_roofs_above_theory(model);
    for (auto& why : refuse_outer_levels_faster_than_inner(model)) refused.push_back(std::move(why));
    const double clock = std::max(model.cpu.clock_ghz, model.cpu.nominal_clock_ghz);
    std::erase_if(model.compute, [&](const ComputeRoof& r) {
        const std::string why = work_rate_beyond_any_machine(r.gflops, r.precision, r.threads, clock);
        if (!why.empty()) refused.push_back(fmt::format("{}: {:.4g} G/s is {}; refused", r.name, r.gflops, why));
        return !why.empty();
    });
    std::erase_if(model.memory, [&](const MemoryRoof& r) {
        const std::string why = byte_rate_beyond_any_machine(r.gbs, r.threads, clock);
        if (!why.empty())
            refused.push_back(fmt::format("{} {} {} thread{}: {:.4g} GB/s is {}; refused", r.level, r.pattern, r.threads,
                                          r.threads == 1 ? "" : "s", r.gbs, why));
        return !why.empty();
    });
    // Caches as any CPU has them (a measured model is of a CPU; its GPUs have their own).
    std::erase_if(model.caches, [&](const CacheLevel& c) {
        const CacheSizeRange range = plausible_cache_size(c.level, std::nullopt);
        const std::uint64_t per_core = c.size_bytes / std::max(1, c.shared_by_cores);
        std::string why;
        if (c.size_bytes > range.max_bytes)
            why = fmt::format("{} is larger than any CPU's L{} ({})", format_bytes(c.size_bytes), c.level,
                              format_bytes(range.max_bytes));
        else if (range.max_bytes_per_core > 0 && per_core > range.max_bytes_per_core)
            why = fmt::format("{} for each of {} core{} is more than any CPU gives a core ({})", format_bytes(per_core),
                              c.shared_by_cores, c.shared_by_cores == 1 ? "" : "s", format_bytes(range.max_bytes_per_core));
        if (!why.empty()) refused.push_back(fmt::format("L{} cache: {}; refused", c.level, why));
        return !why.empty();
    });
    // Each GPU against its specification, or the bounds any GPU keeps where no table describes
    // it (an unknown vendor too). What a person should know of the roofs kept (no table judged
    // them, a clock above the max boost) goes with the model's warnings, once however often
    // the model is read; the caller says what was refused.
    for (auto& gpu : model.gpus) {
        const std::string which = fmt::format("GPU {} ({})", gpu.index, gpu.name);
        std::vector<std::string> notes;
        for (auto& why : refuse_gpu_roofs_above_limit(gpu, &notes))
            refused.push_back(fmt::format("GPU {}: {}", gpu.index, why));
        auto& warnings = model.environment.warnings;
        for (const auto& note : notes)
            if (auto line = fmt::format("{}: {}", which, note);
                std::find(warnings.begin(), warnings.end(), line) == warnings.end())
                warnings.push_back(std::move(line));
    }
    return refused;
}

} // namespace roofline
