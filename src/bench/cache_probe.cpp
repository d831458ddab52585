#include "bench/cache_probe.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel_check.hpp"
#include "bench/memory_bench.hpp"
#include "bench/sampler.hpp"
#include "bench/thread_buffers.hpp"
#include "bench/thread_team.hpp"
#include "core/cache_check.hpp"
#include "topo/cpu_features.hpp"

#include <cmath>
#include <stdexcept>

namespace roofline {
namespace {

constexpr std::uint64_t kFirstBytes = 8 << 10;
constexpr int kSizesPerOctave = 3;
// Each size: the best of 5 samples of about 1 ms (a pass of the largest sizes
// takes longer: then one pass each). Best, not median: interference only slows.
constexpr double kSampleSeconds = 0.001;
constexpr int kSamples = 5;

} // namespace

BandwidthCurve probe_load_curve(const Topology& topology, std::uint64_t reach, const std::atomic<bool>* stop) {
    const MemoryKernel* k = memory_kernel_for("load", BenchOptions{});
    if (!k) throw std::runtime_error("no load kernel runs on this CPU");
    if (auto problem = check_memory_kernel(*k); !problem.empty())
        throw std::runtime_error("kernel self-check failed: " + problem);
    BandwidthCurve curve;
    curve.pattern = "load";
    curve.isa = isa_name(k->isa);
    curve.threads = 1;
    ThreadTeam team(topology, 1);
    const std::size_t elements = reach / sizeof(double) + k->block_elements;
    const auto buffers = allocate_thread_buffers(team, elements);
    double* const data = buffers.front().data;
    double sink = 0;
    for (int i = 0;; ++i) {
        if (stop && stop->load(std::memory_order_relaxed)) break;
        const auto bytes = static_cast<std::uint64_t>(
            static_cast<double>(kFirstBytes) * std::pow(2.0, static_cast<double>(i) / kSizesPerOctave));
        if (bytes > reach) break;
        const std::size_t n = std::max(k->block_elements, bytes / sizeof(double) / k->block_elements * k->block_elements);
        double* arrays[] = {data};
        const auto timed = [&](std::uint64_t passes) {
            return team.run_timed([&](int) { sink += k->run(arrays, n, passes, 1.0); });
        };
        const double gbs = quick_trial_rate(timed, static_cast<double>(n) * k->nominal_bytes_per_element(),
                                            kSampleSeconds, kSamples, stop);
        if (gbs > 0) curve.points.emplace_back(static_cast<std::uint64_t>(n) * sizeof(double), gbs);
    }
    if (!(sink == sink)) throw std::runtime_error("the load kernel returned NaN");  // keeps the loads observed
    return curve;
}

std::vector<CacheLevel> checked_data_caches(const Topology& topology, CacheProbe probe, BandwidthCurve* probe_curve,
                                            const std::atomic<bool>* stop) {
    const CpuFeatures features = detect_cpu_features();
    const auto arch = identify_microarch({features.vendor, features.family, features.model, features.names()}).arch;
    const std::vector<CacheLevel> reported = topology.data_caches();
    std::vector<CacheLevel> checked = check_cache_hierarchy(reported, arch);
    if (probe_curve) *probe_curve = {};
    if (probe == CacheProbe::always || cache_sizes_doubtful(checked)) {
        BandwidthCurve curve = probe_load_curve(topology, cache_probe_reach(checked), stop);
        checked = check_cache_hierarchy(reported, arch, curve.points);
        if (probe_curve) *probe_curve = std::move(curve);
    }
    return checked;
}

} // namespace roofline
