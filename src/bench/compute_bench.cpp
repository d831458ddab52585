#include "bench/compute_bench.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel_check.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace roofline {
namespace {

// Values that keep every chain in the normal range however long it runs
// (x*1 + tiny, x + tiny, x*1), so timing never meets denormals or overflow.
constexpr double kTimedMul = 1.0;
constexpr double kTimedAdd = 0x1p-30;

bool wanted_in_quick(const ComputeKernel& k) {
    return (k.mix == "fma" || k.mix == "fma+add" || (k.mix == "add" && !isa_supported(Isa::avx2))) &&
           k.vector_bits >= 128;
}

int widest_fma_bits() {
    if (isa_supported(Isa::avx512)) return 512;
    if (isa_supported(Isa::avx2)) return 256;
    return 128;
}

} // namespace

std::vector<ComputeFamily> plan_compute_families(const BenchOptions& options) {
    std::map<std::tuple<std::string, int, std::string>, ComputeFamily> families;
    const bool have_avx2 = isa_supported(Isa::avx2);
    for (const auto& k : all_compute_kernels()) {
        if (!isa_supported(k.isa)) continue;
        if (k.isa == Isa::sse2 && have_avx2) continue;  // the AVX2 build covers these widths
        if (std::find(options.precisions.begin(), options.precisions.end(), k.precision) == options.precisions.end())
            continue;
        if (options.mode == "quick") {
            if (!wanted_in_quick(k)) continue;
            if (k.vector_bits < std::min(256, widest_fma_bits())) continue;
        }
        auto& f = families[{k.precision, k.vector_bits, k.mix}];
        f.precision = k.precision;
        f.vector_bits = k.vector_bits;
        f.mix = k.mix;
        f.variants.push_back(&k);
    }
    std::vector<ComputeFamily> out;
    for (auto& [key, f] : families) out.push_back(std::move(f));
    return out;
}

int count_compute_tasks(const std::vector<ComputeFamily>& families, int thread_counts) {
    int first = 0;
    for (const auto& f : families) first += static_cast<int>(f.variants.size());
    return first + static_cast<int>(families.size()) * std::max(0, thread_counts - 1);
}

void run_compute_families(ThreadTeam& team, const std::vector<ComputeFamily>& families, const FpPipes& pipes,
                          double clock_ghz, TaskClock& clock, std::vector<const ComputeKernel*>& winners,
                          std::vector<ComputeRoof>& out) {
    const int threads = team.size();
    const bool searching = winners.empty();
    if (searching) winners.assign(families.size(), nullptr);

    for (std::size_t fi = 0; fi < families.size() && !clock.stopped(); ++fi) {
        const auto& family = families[fi];
        std::vector<const ComputeKernel*> variants =
            searching ? family.variants : std::vector<const ComputeKernel*>{winners[fi]};
        ComputeRoof best;
        for (const ComputeKernel* k : variants) {
            if (clock.stopped()) break;
            // Checked once, when searching; later thread counts reuse the checked winner.
            if (searching)
                if (auto problem = check_compute_kernel(*k); !problem.empty())
                    throw std::runtime_error("kernel self-check failed: " + problem);
            const auto policy = clock.begin(fmt::format("compute {} {}-bit {} ({}), {} thread{}", k->precision,
                                                        k->vector_bits, k->mix, k->name, threads,
                                                        threads > 1 ? "s" : ""),
                                            0.01);
            std::vector<std::vector<double>> outs(static_cast<std::size_t>(threads),
                                                  std::vector<double>(static_cast<std::size_t>(k->chains() * k->lanes())));
            auto timed = [&](std::uint64_t reps) {
                return team.run_timed([&](int t) { k->run(reps, kTimedMul, kTimedAdd, outs[static_cast<std::size_t>(t)].data()); });
            };
            const auto sampled = sample_rate(timed, k->flops_per_iteration() * threads, policy, &clock.stop_flag());
            clock.finish_one();
            if (sampled.rates.empty()) break;
            if (sampled.stats.median > best.gflops) {
                best.gflops = sampled.stats.median;
                best.stats = sampled.stats;
                best.isa = isa_name(k->isa);
                best.mix_detail = k->name;
                best.theoretical_gflops = theoretical_gflops(
                    pipes, OpMix{k->fma_chains, k->add_chains, k->mul_chains}, k->vector_bits,
                    k->precision == "sp" ? 32 : 64, threads, clock_ghz);
                if (searching) winners[fi] = k;
            }
        }
        if (best.gflops <= 0) continue;
        best.precision = family.precision;
        best.vector_bits = family.vector_bits;
        best.mix = family.mix;
        best.threads = threads;
        best.name = fmt::format("{} {}-bit {}, {} thread{}", family.precision, family.vector_bits, family.mix, threads,
                                threads > 1 ? "s" : "");
        out.push_back(best);
    }
}

void add_best_compute_roofs(std::vector<ComputeRoof>& roofs) {
    std::map<std::pair<std::string, int>, ComputeRoof> best;
    for (const auto& r : roofs) {
        if (r.mix == "best") continue;
        auto& b = best[{r.precision, r.threads}];
        if (r.gflops > b.gflops) b = r;
    }
    for (auto& [key, r] : best) {
        r.mix_detail = r.mix_detail + " (" + r.mix + ")";
        r.mix = "best";
        r.name = fmt::format("{} peak (best port mix), {} thread{}", r.precision, r.threads, r.threads > 1 ? "s" : "");
        roofs.push_back(r);
    }
}

} // namespace roofline
