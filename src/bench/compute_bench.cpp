#include "bench/compute_bench.hpp"

#include "bench/isa_support.hpp"
#include "bench/kernel_check.hpp"
#include "bench/kernel_selection.hpp"
#include "bench/port_mix_search.hpp"
#include "bench/sampler.hpp"
#include "core/peak.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace roofline {
namespace {

// Values that keep every chain in the normal range however long it runs
// (x + 1*tiny, x + tiny, x*1), so timing never meets denormals or overflow.
constexpr double kTimedMul = 1.0;
constexpr double kTimedAdd = 0x1p-30;
// A trial while choosing a kernel: best of 3 runs of about 1 ms (short runs
// slip between the host's interruptions).
constexpr double kTrialSeconds = 0.001;
constexpr int kTrialSamples = 3;
// The port-mix search runs twice; the best few mixes are then confirmed in
// interleaved rounds.
constexpr int kSearchPasses = 2;
constexpr std::size_t kConfirmed = 6;
constexpr double kConfirmSeconds = 0.0005;
constexpr int kConfirmRounds = 12;
// Figures of per-core resources: short samples catch the quiet windows a busy
// SMT sibling leaves (about a millisecond).
constexpr double kPerCoreSampleSeconds = 0.0005;
constexpr int kNominated = 3;  // candidates the microarchitecture table adds
constexpr std::size_t kFinalists = 3;  // sampled over the whole run

// The quick run measures what the top roofs need: FMA alone and the best
// FMA+ADD mix, or without FMA (SSE2 only, or --isa sse2) ADD and MUL+ADD.
bool wanted_in_quick(const ComputeKernel& k, bool fma) {
    const bool top = fma ? (k.mix == "fma" || k.mix == "fma+add") : (k.mix == "add" || k.mix == "mul+add");
    return top && k.vector_bits >= 128;
}

bool usable(const ComputeKernel& k, const BenchOptions& options) {
    return isa_supported(k.isa) && kernel_allowed(options, k.name, k.isa);
}

int isa_rank(Isa isa) { return isa == Isa::avx512 ? 2 : isa == Isa::avx2 ? 1 : 0; }

std::string threads_text(int threads) { return fmt::format("{} thread{}", threads, threads > 1 ? "s" : ""); }

} // namespace

// Runs kernel `k` on every thread of `team`, `reps` iterations each; seconds of the slowest.
struct ComputePhase::Runner {
    ThreadTeam& team;
    const ComputeKernel& k;
    std::vector<std::vector<double>> outs;
    Runner(ThreadTeam& t, const ComputeKernel& kernel)
        : team(t), k(kernel),
          outs(static_cast<std::size_t>(t.size()), std::vector<double>(static_cast<std::size_t>(kernel.chains() * kernel.lanes()))) {}
    double operator()(std::uint64_t reps) {
        return team.run_timed([&](int t) { k.run(reps, kTimedMul, kTimedAdd, outs[static_cast<std::size_t>(t)].data()); });
    }
};
using TimedCompute = ComputePhase::Runner;

namespace {

double trial_gflops(ThreadTeam& team, const ComputeKernel& k, const TaskClock& clock) {
    TimedCompute timed(team, k);
    return quick_trial_rate(std::ref(timed), k.flops_per_iteration() * team.size(), kTrialSeconds, kTrialSamples,
                            &clock.stop_flag());
}

void check_kernel(const ComputeKernel& k) {
    if (auto problem = check_compute_kernel(k); !problem.empty())
        throw std::runtime_error("kernel self-check failed: " + problem);
}

// The family's kernel, chosen by measurement on `team`.
ComputeChoice choose_kernel(ThreadTeam& team, const ComputeFamily& family, const std::optional<Microarch>& microarch,
                            TaskClock& clock) {
    ComputeChoice choice;
    if (family.variants.size() == 1) {
        check_kernel(*family.variants.front());
        return {family.variants.front(), {family.variants.front()}, 1};
    }
    clock.announce(fmt::format("choosing the {} {}-bit {} kernel", family.precision, family.vector_bits, family.mix));
    if (family.mix != "fma+add") {
        // Chain counts of one op kind, timed side by side.
        std::vector<std::unique_ptr<TimedCompute>> timed;
        std::vector<Rival> rivals;
        for (const ComputeKernel* k : family.variants) {
            check_kernel(*k);
            timed.push_back(std::make_unique<TimedCompute>(team, *k));
            rivals.push_back({std::ref(*timed.back()), k->flops_per_iteration() * team.size()});
        }
        const auto rates = interleaved_best_rates(rivals, kTrialSeconds, kTrialSamples, &clock.stop_flag());
        if (clock.stopped()) return choice;
        choice.kernel = family.variants[static_cast<std::size_t>(std::max_element(rates.begin(), rates.end()) - rates.begin())];
        choice.finalists = {choice.kernel};
        choice.tried = static_cast<int>(family.variants.size());
        return choice;
    }
    // The port-mix search over the compiled FMA/ADD chain counts.
    std::map<std::pair<int, int>, const ComputeKernel*> by_mix;
    std::vector<ChainMix> available;
    for (const ComputeKernel* k : family.variants) {
        by_mix[{k->fma_chains, k->add_chains}] = k;
        available.push_back({k->fma_chains, k->add_chains});
    }
    // Two independent passes: a slow moment of the host during one pass can
    // send its climb astray, rarely both. Each mix keeps its best trial.
    std::map<std::pair<int, int>, double> trial;
    for (int pass = 0; pass < kSearchPasses && !clock.stopped(); ++pass) {
        const auto result = search_port_mix(available, [&](const ChainMix& m) {
            if (clock.stopped()) return 0.0;
            const ComputeKernel& k = *by_mix.at({m.fma, m.add});
            if (pass == 0) check_kernel(k);
            return trial_gflops(team, k, clock);
        });
        for (const auto& [m, v] : result.tried) trial[{m.fma, m.add}] = std::max(trial[{m.fma, m.add}], v);
    }
    // Short trials are noisy (a slow moment can hit one mix and not its rival):
    // the best few are timed again in interleaved rounds, so they meet the same
    // conditions, and the best run of each decides.
    std::vector<std::pair<std::pair<int, int>, double>> ranked(trial.begin(), trial.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    ranked.resize(std::min<std::size_t>(ranked.size(), kConfirmed));
    // Where the table knows the core, the mixes it predicts saturate the pipes
    // are confirmed too: the climb can stop on a local peak that a slow moment
    // of the host made look best.
    std::vector<ChainMix> nominated;
    if (microarch && !family.variants.empty()) {
        const ComputeKernel& any = *family.variants.front();
        const int element_bits = element_bits_of(any.precision);
        const auto predicted = [&](const ChainMix& m) {
            return flops_per_cycle(fp_pipes_for(*microarch, any.vector_bits), {m.fma, m.add, 0}, any.vector_bits,
                                   element_bits);
        };
        nominated = predicted_best_mixes(available, predicted, kNominated);
        for (const ChainMix& m : nominated) {
            const bool listed = std::any_of(ranked.begin(), ranked.end(),
                                            [&](const auto& r) { return r.first == std::make_pair(m.fma, m.add); });
            if (listed) continue;
            check_kernel(*by_mix.at({m.fma, m.add}));  // the search may not have run it
            ranked.push_back({{m.fma, m.add}, 0.0});
        }
    }
    std::vector<std::unique_ptr<TimedCompute>> timed;
    std::vector<Rival> rivals;
    for (const auto& entry : ranked) {
        timed.push_back(std::make_unique<TimedCompute>(team, *by_mix.at(entry.first)));
        rivals.push_back({std::ref(*timed.back()), timed.back()->k.flops_per_iteration() * team.size()});
    }
    const auto best_rate = interleaved_best_rates(rivals, kConfirmSeconds, kConfirmRounds, &clock.stop_flag());
    std::vector<std::size_t> order(timed.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return best_rate[a] > best_rate[b]; });
    for (std::size_t i = 0; i < order.size() && i < kFinalists; ++i) choice.finalists.push_back(&timed[order[i]]->k);
    if (!choice.finalists.empty()) choice.kernel = choice.finalists.front();
    // A few confirmation rounds under a busy sibling favour lighter mixes; the
    // table's first nominee is sampled over the whole run too, and wins only
    // if it measures faster there.
    if (!nominated.empty()) {
        const ComputeKernel* nominee = by_mix.at({nominated.front().fma, nominated.front().add});
        if (std::find(choice.finalists.begin(), choice.finalists.end(), nominee) == choice.finalists.end())
            choice.finalists.push_back(nominee);
    }
    choice.tried = static_cast<int>(trial.size());
    return choice;
}

} // namespace

std::vector<ComputeFamily> plan_compute_families(const BenchOptions& options) {
    std::map<std::tuple<std::string, int, std::string>, ComputeFamily> families;
    const bool named = !options.kernels.empty();
    // Without --isa the AVX2 build covers the SSE2 widths.
    const bool skip_sse2 = isa_supported(Isa::avx2) && options.isa.empty() && !named;
    bool fma = false;
    int widest = 0;
    for (const auto& k : all_compute_kernels())
        if (usable(k, options) && !(skip_sse2 && k.isa == Isa::sse2)) {
            fma = fma || k.mix == "fma";
            widest = std::max(widest, k.vector_bits);
        }
    for (const auto& k : all_compute_kernels()) {
        if (!usable(k, options) || (skip_sse2 && k.isa == Isa::sse2)) continue;
        if (std::find(options.precisions.begin(), options.precisions.end(), k.precision) == options.precisions.end())
            continue;
        if (options.mode == BenchMode::quick && !named) {  // named kernels run whatever the mode
            if (!wanted_in_quick(k, fma)) continue;
            if (k.vector_bits < widest) continue;
        }
        auto& f = families[{k.precision, k.vector_bits, k.mix}];
        f.precision = k.precision;
        f.vector_bits = k.vector_bits;
        f.mix = k.mix;
        f.variants.push_back(&k);
    }
    std::vector<ComputeFamily> out;
    for (auto& [key, f] : families) {
        // A searched family keeps only the encoding with the most registers (AVX-512's
        // 32 over AVX2's 16 at 256 bits): its grid is the larger space.
        if (f.mix == "fma+add") {
            int top = 0;
            for (const auto* k : f.variants) top = std::max(top, isa_rank(k->isa));
            std::erase_if(f.variants, [top](const ComputeKernel* k) { return isa_rank(k->isa) != top; });
        }
        out.push_back(std::move(f));
    }
    return out;
}

int count_compute_tasks(const std::vector<ComputeFamily>& families, int thread_counts) {
    int figures = 0;  // a port-mix family samples its finalists, every other family one kernel
    for (const auto& f : families)
        figures += f.mix == "fma+add" ? static_cast<int>(std::min(kFinalists + 1, f.variants.size())) : 1;
    return figures * std::max(1, thread_counts);
}

double family_theoretical_gflops(const std::optional<Microarch>& microarch, const std::string& mix,
                                 const ComputeKernel& k, int threads, double clock_ghz) {
    if (!microarch) return 0;
    const int element_bits = element_bits_of(k.precision);
    double per_cycle;
    if (mix == "chain") {
        per_cycle = flops_per_cycle(fp_pipes_for(*microarch, k.vector_bits),
                                    OpMix{k.fma_chains, k.add_chains, k.mul_chains}, k.vector_bits, element_bits);
    } else {
        const bool fma = mix.find("fma") != std::string::npos;
        const bool add = mix.find("add") != std::string::npos;
        const bool mul = mix.find("mul") != std::string::npos;
        per_cycle = best_flops_per_cycle(fp_pipes_for(*microarch, k.vector_bits), fma, add, mul, k.vector_bits,
                                         element_bits);
    }
    return threads * clock_ghz * per_cycle;
}

ComputePhase::ComputePhase(ThreadTeam& team, const std::vector<ComputeFamily>& families,
                           std::vector<ComputeChoice>& choices, const std::optional<Microarch>& microarch,
                           TaskClock& clock)
    : team_(team), families_(families), choices_(choices) {
    if (choices.empty()) {
        for (const auto& family : families) {
            if (clock.stopped()) break;
            choices.push_back(choose_kernel(team, family, microarch, clock));
        }
    }
    const int threads = team.size();
    for (std::size_t fi = 0; fi < families.size() && fi < choices.size(); ++fi) {
        for (const ComputeKernel* finalist : choices[fi].finalists) {
            const ComputeKernel& k = *finalist;
            runners_.push_back(std::make_unique<Runner>(team, k));
            Figure f;
            f.label = fmt::format("compute {} {}-bit {} ({}), {}", k.precision, k.vector_bits, families[fi].mix,
                                  k.name, threads_text(threads));
            f.timed_run = std::ref(*runners_.back());
            f.work_per_rep = k.flops_per_iteration() * threads;
            f.threads = threads;
            f.scaling_key = "compute " + k.name;  // every core has its own pipes
            f.sample_seconds = kPerCoreSampleSeconds;
            figures_.push_back(std::move(f));
            family_of_.push_back(fi);
            kernel_of_.push_back(&k);
        }
    }
}

ComputePhase::~ComputePhase() = default;

std::vector<ComputeRoof> ComputePhase::roofs(const std::optional<Microarch>& microarch, double clock_ghz) const {
    std::vector<ComputeRoof> out;
    const int threads = team_.size();
    // A family's roof is its best finalist.
    std::map<std::size_t, std::size_t> best_of_family;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
        if (figures_[i].value <= 0) continue;
        auto [it, fresh] = best_of_family.emplace(family_of_[i], i);
        if (!fresh && figures_[i].value > figures_[it->second].value) it->second = i;
    }
    for (const auto& [family_index, i] : best_of_family) {
        const Figure& f = figures_[i];
        const auto& family = families_[family_index];
        const ComputeChoice& choice = choices_[family_index];
        const ComputeKernel& k = *kernel_of_[i];
        ComputeRoof r;
        r.precision = family.precision;
        r.vector_bits = family.vector_bits;
        r.mix = family.mix;
        r.threads = threads;
        r.gflops = f.value;
        r.stats = f.stats;
        r.isa = isa_name(k.isa);
        r.mix_detail = k.name;
        r.mixes_tried = family.mix == "fma+add" ? choice.tried : 0;
        r.theoretical_gflops = family_theoretical_gflops(microarch, family.mix, k, threads, clock_ghz);
        r.name = fmt::format("{} {}-bit {}, {}", family.precision, family.vector_bits, family.mix, threads_text(threads));
        out.push_back(r);
    }
    return out;
}

Figure* ComputePhase::figure_of(const ComputeRoof& roof) {
    Figure* best = nullptr;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
        const auto& family = families_[family_of_[i]];
        if (family.precision != roof.precision || family.vector_bits != roof.vector_bits || family.mix != roof.mix)
            continue;
        if (figures_[i].value > 0 && (!best || figures_[i].value > best->value)) best = &figures_[i];
    }
    return best;
}

namespace {

int vector_registers(Isa isa) { return isa == Isa::avx512 ? 32 : 16; }

// The kernels of a roof's precision, width and mix, in encodings of one rank.
std::vector<const ComputeKernel*> port_mix_kernels(const ComputeRoof& r, int rank) {
    std::vector<const ComputeKernel*> out;
    for (const auto& k : all_compute_kernels())
        if (k.mix == r.mix && k.precision == r.precision && k.vector_bits == r.vector_bits &&
            isa_supported(k.isa) && isa_rank(k.isa) == rank)
            out.push_back(&k);
    return out;
}

} // namespace

std::vector<std::string> register_count_checks(ThreadTeam& team, const std::vector<ComputeRoof>& roofs,
                                               const std::optional<Microarch>& microarch, TaskClock& clock) {
    // Under 90% of theory is past what clock and host noise explain (roofs reach 97-100%).
    constexpr double kWellUnder = 0.90;
    constexpr int kRounds = 12;
    std::vector<std::string> notes;
    for (const auto& r : roofs) {
        if (clock.stopped()) break;
        if ((r.mix != "fma+add" && r.mix != "mul+add") || r.threads != 1 || r.theoretical_gflops <= 0 ||
            r.gflops >= kWellUnder * r.theoretical_gflops)
            continue;
        const ComputeKernel* narrow = nullptr;
        for (const auto& k : all_compute_kernels())
            if (k.name == r.mix_detail) narrow = &k;
        if (!narrow) continue;
        int top = isa_rank(narrow->isa);
        for (const auto& k : all_compute_kernels())
            if (isa_supported(k.isa)) top = std::max(top, isa_rank(k.isa));
        if (top == isa_rank(narrow->isa)) continue;  // no encoding with more registers here
        ComputeFamily wide{r.precision, r.vector_bits, r.mix, port_mix_kernels(r, top)};
        if (wide.variants.empty()) continue;
        const ComputeChoice choice = choose_kernel(team, wide, microarch, clock);
        if (clock.stopped() || choice.finalists.empty()) break;
        // The restricted winner and the wider encoding's finalists, timed side by side.
        std::vector<std::unique_ptr<TimedCompute>> timed;
        std::vector<Rival> rivals;
        std::vector<const ComputeKernel*> kernels{narrow};
        kernels.insert(kernels.end(), choice.finalists.begin(), choice.finalists.end());
        for (const ComputeKernel* k : kernels) {
            timed.push_back(std::make_unique<TimedCompute>(team, *k));
            rivals.push_back({std::ref(*timed.back()), k->flops_per_iteration() * team.size()});
        }
        const auto rates = interleaved_best_rates(rivals, kConfirmSeconds, kRounds, &clock.stop_flag());
        if (clock.stopped()) break;
        const auto best_wide = std::max_element(rates.begin() + 1, rates.end());
        const ComputeKernel& wide_kernel = timed[static_cast<std::size_t>(best_wide - rates.begin())]->k;
        const double theory = r.theoretical_gflops;
        const std::string wide_text = fmt::format(
            "the same width encoded with {}'s {} registers reached {:.1f} GFLOP/s ({:.0f}%, {}) where {}'s best "
            "mix read {:.1f} ({:.0f}%), timed side by side",
            isa_name(wide_kernel.isa), vector_registers(wide_kernel.isa), *best_wide, 100 * *best_wide / theory,
            wide_kernel.name, isa_name(narrow->isa), rates.front(), 100 * rates.front() / theory);
        if (*best_wide >= kWellUnder * theory && *best_wide > 1.05 * rates.front())
            notes.push_back(fmt::format(
                "{}: {:.1f} GFLOP/s is {:.0f}% of the theoretical {:.1f} with {}'s {} vector registers (at most {} "
                "independent chains beside two constants); {}: on this core code limited to {} registers cannot "
                "keep its pipes busy together, so this ceiling is {} code's, not a measurement fault",
                r.name, r.gflops, 100 * r.gflops / theory, theory, isa_name(narrow->isa),
                vector_registers(narrow->isa), vector_registers(narrow->isa) - 2, wide_text,
                vector_registers(narrow->isa), isa_name(narrow->isa)));
        else
            notes.push_back(fmt::format(
                "{}: {:.1f} GFLOP/s is {:.0f}% of the theoretical {:.1f}; {}: more registers do not close the gap, "
                "so the microarchitecture table's theory for this width or a busy host explains it",
                r.name, r.gflops, 100 * r.gflops / theory, theory, wide_text));
    }
    return notes;
}

void add_best_compute_roofs(std::vector<ComputeRoof>& roofs) {
    std::map<std::pair<std::string, int>, ComputeRoof> best;
    for (const auto& r : roofs) {
        if (r.mix == "best") continue;
        auto& b = best[{r.precision, r.threads}];
        if (r.gflops > b.gflops) b = r;
    }
    for (auto& [key, r] : best) {
        // The machine's peak: the best over every mix and width, whatever kernel won.
        // Its theoretical figure is the highest of theirs, at the clock that one assumes (a roof
        // judged at a clock read again next to it has its own).
        const ComputeRoof* peak = nullptr;
        for (const auto& other : roofs)
            if (other.precision == r.precision && other.threads == r.threads && other.mix != "chain" &&
                (!peak || other.theoretical_gflops > peak->theoretical_gflops))
                peak = &other;
        r.theoretical_gflops = peak ? peak->theoretical_gflops : 0;
        r.theoretical_clock_ghz = peak ? peak->theoretical_clock_ghz : 0;
        r.theoretical_clock = peak ? peak->theoretical_clock : "";
        r.mix_detail = r.mix_detail + " (" + r.mix + ")";
        r.mix = "best";
        r.name = fmt::format("{} peak (best port mix), {}", r.precision, threads_text(r.threads));
        roofs.push_back(r);
    }
}

} // namespace roofline
