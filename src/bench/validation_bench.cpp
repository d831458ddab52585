#include "bench/validation_bench.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel.hpp"
#include "bench/kernel_check.hpp"
#include "bench/thread_buffers.hpp"
#include "core/roofline.hpp"
#include "core/working_sets.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

namespace roofline {

int count_validation_tasks(int levels) { return levels * static_cast<int>(all_intensity_kernels().size()); }

void run_validation(ThreadTeam& team, const MachineModel& model, TaskClock& clock, const BurstPolicy& policy,
                    const CoreCheck& check, std::vector<ValidationPoint>& out) {
    const int threads = team.size();
    if (!isa_supported(Isa::avx2)) return;
    const ComputeRoof* roof = nullptr;
    for (const auto& r : model.compute)
        if (r.precision == "dp" && r.vector_bits == 256 && r.mix == "fma" && r.threads == threads) roof = &r;
    if (!roof) return;
    std::vector<const MemoryRoof*> levels;
    std::uint64_t max_bytes = 0;
    for (const auto& m : model.memory)
        if (m.pattern == "load" && m.threads == threads) {
            levels.push_back(&m);
            max_bytes = std::max(max_bytes, m.working_set_bytes / static_cast<std::uint64_t>(threads));
        }
    if (levels.empty()) return;
    auto buffers = allocate_thread_buffers(team, max_bytes / sizeof(double) + 64);

    // Measured like the roofs they are compared with: bursts interleaved over
    // the phase, the same statistic, the same check that the threads run apart.
    struct Point {
        const MemoryRoof* level;
        const IntensityKernel* kernel;
        std::size_t n;
    };
    std::vector<Point> points;
    std::vector<Figure> figures;
    std::vector<double> sinks(static_cast<std::size_t>(threads));
    for (const MemoryRoof* level : levels) {
        for (const auto& k : all_intensity_kernels()) {
            if (auto problem = check_intensity_kernel(k); !problem.empty())
                throw std::runtime_error("kernel self-check failed: " + problem);
            std::size_t n = level->working_set_bytes / static_cast<std::uint64_t>(threads) / sizeof(double);
            n = std::max(k.block_elements, n / k.block_elements * k.block_elements);
            points.push_back({level, &k, n});
            Figure f;
            f.label = fmt::format("validate {} at {:.4g} FLOP/byte, {} thread{}", level->level, k.intensity(), threads,
                                  threads > 1 ? "s" : "");
            f.timed_run = [&team, &buffers, &sinks, kernel = &k, n](std::uint64_t reps) {
                return team.run_timed([&](int t) {
                    const auto i = static_cast<std::size_t>(t);
                    sinks[i] = kernel->run(buffers[i].data, n, reps, 0.5);
                });
            };
            f.work_per_rep = k.flops_per_element() * static_cast<double>(n) * threads;
            f.warmup_samples = level->level == "DRAM" ? 0 : 1;
            figures.push_back(std::move(f));
        }
    }
    sample_figures_in_bursts(figures, policy, check, clock);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (figures[i].value <= 0) continue;
        ValidationPoint v;
        v.level = points[i].level->level;
        v.intensity = points[i].kernel->intensity();
        v.threads = threads;
        v.working_set_bytes = static_cast<std::uint64_t>(points[i].n) * sizeof(double) * threads;
        v.gflops = figures[i].value;
        v.predicted_gflops = attainable(roof->gflops, points[i].level->gbs, v.intensity);
        v.ratio = v.predicted_gflops > 0 ? v.gflops / v.predicted_gflops : 0;
        out.push_back(v);
    }
}

} // namespace roofline
