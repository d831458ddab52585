#include "core/kernel_spec_roofs.hpp"

#include "core/figure_stats.hpp"
#include "core/level.hpp"
#include "core/machine_roofline.hpp"
#include "core/precision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

const std::vector<SpecIsa>& isa_table() {
    // Widths and FMA as the ISAs define them; SSE2 and AVX have no FMA (it came with
    // FMA3 beside AVX2, x86-64-v3). bench's memory kernels are sse2, avx2 and avx512: AVX
    // code moves ymm registers as avx2's do, and scalar code moves at most what sse2's do.
    static const std::vector<SpecIsa> table{
        {"scalar", 0, true, "", "sse2"},
        {"sse2", 128, false, "sse2", "sse2"},
        {"avx", 256, false, "avx", "avx2"},
        {"avx2", 256, true, "avx2", "avx2"},
        {"avx512", 512, true, "avx512f", "avx512"},
    };
    return table;
}

bool is_nt_pattern(const std::string& pattern) {
    return pattern.size() > 3 && pattern.compare(pattern.size() - 3, 3, "_nt") == 0;
}

// "copy+WA" of "L2 copy+WA": the roof's name without its level.
std::string pattern_label(const MemoryRoof& m) {
    const std::string name = traffic_roof_name(m);
    return name.size() > m.level.size() + 1 ? name.substr(m.level.size() + 1) : name;
}

double trial_of(const MemoryRoof& m, const std::string& isa) {
    for (const auto& [name, gbs] : m.isa_trials)
        if (name == isa) return gbs;
    return 0;
}

// The spec's ISA trial over the winner's, applied to L1 and L2 roofs of `model`; the levels
// whose roofs lack the trial are returned.
std::vector<std::string> scale_to_isa(MachineModel& model, const std::string& trial_isa, int threads) {
    std::vector<std::string> missing;
    for (auto& m : model.memory) {
        if ((m.level != "L1" && m.level != "L2") || m.threads != threads || m.isa == trial_isa) continue;
        const double mine = trial_of(m, trial_isa);
        double winner = 0;  // the roof's ISA won its trial: the fastest of them
        for (const auto& t : m.isa_trials) winner = std::max(winner, t.second);
        if (!(mine > 0) || !(winner > 0)) {
            if (std::find(missing.begin(), missing.end(), m.level) == missing.end()) missing.push_back(m.level);
            continue;
        }
        const double ratio = std::min(1.0, mine / winner);
        m.gbs *= ratio;
        m.gbs_write_allocate *= ratio;
        m.isa = trial_isa;
    }
    return missing;
}

// Keeps the compute roofs code of `isa` can use: `bits` wide or narrower, FMA only if it has it.
void keep_compute_of(MachineModel& model, int bits, bool fma) {
    std::erase_if(model.compute, [&](const ComputeRoof& c) {
        return c.vector_bits > bits || c.vector_bits <= 0 || (!fma && c.mix.find("fma") != std::string::npos) ||
               (!fma && c.mix == "best");  // a port-mix search may have used FMAs
    });
}

int widest_bits(const MachineModel& model, const std::string& precision, int threads, double gflops) {
    int bits = 0;
    for (const auto& c : model.compute)
        if (c.precision == precision && c.threads == threads && std::abs(c.gflops - gflops) <= 1e-9 * gflops)
            bits = std::max(bits, c.vector_bits);
    return bits;
}

LevelRoofChoice choose_level_roof(const std::string& level, const LevelTraffic& t, const MachineModel& model,
                                  int threads, const Roof& fastest) {
    LevelRoofChoice c;
    c.level = level;
    const double nominal = t.loaded + t.stored;
    c.store_share = nominal > 0 ? t.stored / nominal : 0;
    // At L1 streaming stores are store instructions like any; they differ where they go to memory.
    c.non_temporal = t.non_temporal_stored > 0 && level == "DRAM";
    c.fastest = fastest;
    c.roof = fastest;

    // Per share, the fastest pattern measured with it.
    struct Candidate {
        double share;
        const MemoryRoof* roof;
    };
    std::vector<Candidate> candidates;
    for (const auto& m : model.memory) {
        if (m.level != level || m.threads != threads || !(traffic_gbs(m) > 0)) continue;
        const auto share = pattern_store_share(m.pattern);
        if (!share) continue;
        if (c.store_share > 0 && m.pattern != "load" && is_nt_pattern(m.pattern) != c.non_temporal) continue;
        auto same = std::find_if(candidates.begin(), candidates.end(),
                                 [&](const Candidate& k) { return std::abs(k.share - *share) < 1e-9; });
        if (same == candidates.end()) candidates.push_back({*share, &m});
        else if (traffic_gbs(m) > traffic_gbs(*same->roof)) same->roof = &m;
    }
    if (candidates.empty()) {
        c.basis = LevelRoofChoice::Basis::fastest_unknown;
        return c;
    }
    if (c.non_temporal && c.store_share > 0 &&
        std::none_of(candidates.begin(), candidates.end(), [](const Candidate& k) { return k.share > 0; })) {
        c.basis = LevelRoofChoice::Basis::fastest_no_nt;
        return c;
    }
    std::sort(candidates.begin(), candidates.end(), [](auto& a, auto& b) { return a.share < b.share; });
    c.min_share = candidates.front().share;
    c.max_share = candidates.back().share;
    const double s = c.store_share;
    for (const auto& k : candidates) {
        if (std::abs(k.share - s) < 1e-9) {
            c.basis = LevelRoofChoice::Basis::pattern;
            c.patterns = {pattern_label(*k.roof)};
            c.pattern_gbs = {traffic_gbs(*k.roof)};
            c.pattern_shares = {k.share};
            c.roof = {traffic_roof_name(*k.roof), level, traffic_gbs(*k.roof),
                      measured_spread(k.roof->gbs, k.roof->stats), k.share};
            return c;
        }
    }
    if (s < c.min_share || s > c.max_share) {
        c.basis = LevelRoofChoice::Basis::fastest_beyond;
        return c;
    }
    for (std::size_t i = 0; i + 1 < candidates.size(); ++i) {
        const Candidate& a = candidates[i];
        const Candidate& b = candidates[i + 1];
        if (!(a.share < s && s < b.share)) continue;
        const double w = (b.share - s) / (b.share - a.share);
        const double ga = traffic_gbs(*a.roof), gb = traffic_gbs(*b.roof);
        c.basis = LevelRoofChoice::Basis::between;
        c.patterns = {pattern_label(*a.roof), pattern_label(*b.roof)};
        c.pattern_gbs = {ga, gb};
        c.pattern_shares = {a.share, b.share};
        c.weight = w;
        c.roof = {fmt::format("{} {}/{}", level, c.patterns[0], c.patterns[1]), level, 1 / (w / ga + (1 - w) / gb),
                  std::max(measured_spread(a.roof->gbs, a.roof->stats), measured_spread(b.roof->gbs, b.roof->stats)),
                  s};
        return c;
    }
    c.basis = LevelRoofChoice::Basis::fastest_beyond;  // not reached: s lies in [min, max]
    return c;
}

} // namespace

std::optional<SpecIsa> spec_isa(const std::string& name) {
    for (const auto& i : isa_table())
        if (i.name == name) return i;
    return std::nullopt;
}

const std::vector<std::string>& spec_isa_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& i : isa_table()) out.push_back(i.name);
        return out;
    }();
    return names;
}

std::string spec_isa_problem(const KernelSpec& spec, const MachineModel& model) {
    const auto isa = spec_isa(spec.isa);
    if (!isa || isa->cpu_flag.empty() || model.cpu.isa.empty()) return "";
    std::vector<std::string> needs{isa->cpu_flag};
    if (isa->name == "avx2") needs.push_back("fma");  // x86-64-v3: AVX2 code is built with FMA
    for (const auto& flag : needs)
        if (std::find(model.cpu.isa.begin(), model.cpu.isa.end(), flag) == model.cpu.isa.end())
            return fmt::format("its code is built for {} ('isa: {}'), which the CPU of {} cannot run (it does not "
                               "list {})",
                               isa->name, isa->name, machine_label(model), flag);
    return "";
}

SpecRoofline spec_roofline(const KernelSpec& spec, const MachineFile* machine, const Roofline& judged) {
    SpecRoofline out;
    out.roofline = judged;
    out.compute.isa = spec.isa;
    const auto traffic = traffic_per_iteration(spec);
    if (!machine) {
        out.compute.basis = ComputeRoofChoice::Basis::no_model;
        for (const auto& b : judged.bandwidth) {
            const auto t = traffic.find(b.level);
            if (t == traffic.end()) continue;
            LevelRoofChoice c;
            c.level = b.level;
            const double nominal = t->second.loaded + t->second.stored;
            c.store_share = nominal > 0 ? t->second.stored / nominal : 0;
            c.non_temporal = t->second.non_temporal_stored > 0;
            c.basis = LevelRoofChoice::Basis::no_model;
            c.roof = c.fastest = b;
            out.levels.push_back(c);
        }
        return out;
    }

    const bool flop = !judged.precision.empty();
    const std::string precision = flop ? judged.precision : judged.work_unit;
    const int threads = judged.threads;
    MachineFile file = *machine;
    const auto isa = spec_isa(spec.isa);
    std::vector<std::string> no_trial;
    if (isa) {
        out.compute.fma = isa->fma;
        out.compute.wanted_bits = isa->vector_bits > 0 ? isa->vector_bits : flop ? element_bits_of(precision) : 0;
        if (!flop) {
            out.compute.basis = ComputeRoofChoice::Basis::not_flop;
        } else {
            MachineModel narrow = file.model;
            keep_compute_of(narrow, out.compute.wanted_bits, isa->fma);
            const bool has = std::any_of(narrow.compute.begin(), narrow.compute.end(), [&](const ComputeRoof& c) {
                return c.precision == precision && c.threads == threads && c.gflops > 0;
            });
            if (has) {
                file.model.compute = std::move(narrow.compute);
                out.compute.basis = ComputeRoofChoice::Basis::spec_isa;
            } else {
                out.compute.basis = ComputeRoofChoice::Basis::no_such_width;
            }
        }
        no_trial = scale_to_isa(file.model, isa->memory_trial, threads);
        out.roofline = roofline_from_machine_file(file, {precision, threads});
        out.roofline.label = judged.label;
    } else {
        out.compute.basis = ComputeRoofChoice::Basis::widest;
    }
    Roofline& r = out.roofline;
    out.compute.vector_bits = widest_bits(file.model, precision, threads, r.compute.value);
    if (out.compute.basis == ComputeRoofChoice::Basis::spec_isa && out.compute.vector_bits > 0)
        r.compute.name = fmt::format("{} {}-bit peak", precision_label(precision), out.compute.vector_bits);

    for (auto& b : r.bandwidth) {
        const auto t = traffic.find(b.level);
        if (t == traffic.end()) continue;
        LevelRoofChoice c = choose_level_roof(b.level, t->second, file.model, threads, b);
        if (isa && (b.level == "L1" || b.level == "L2")) {
            const bool missing = std::find(no_trial.begin(), no_trial.end(), b.level) != no_trial.end();
            c.isa_basis = missing ? LevelRoofChoice::Isa::no_trial : LevelRoofChoice::Isa::spec_trial;
            c.isa = isa->memory_trial;
            if (!missing) c.roof.name += fmt::format(" ({})", isa->memory_trial);
        }
        b = c.roof;
        out.levels.push_back(std::move(c));
    }
    // Ceilings of a level at or above the roof chosen there do not hold the loop below it; nor
    // do other patterns' where the roof is the loop's own pattern (a dot product cannot be
    // asked to beat the copy roof: it does not copy).
    std::erase_if(r.ceilings, [&](const Ceiling& c) {
        if (c.kind != CeilingKind::bandwidth) return false;
        for (const auto& l : out.levels)
            if (l.level == c.level && c.category == "pattern" &&
                (l.basis == LevelRoofChoice::Basis::pattern || l.basis == LevelRoofChoice::Basis::between))
                return true;
        for (const auto& b : r.bandwidth)
            if (b.level == c.level) return c.value >= b.value * 0.995;
        return false;
    });
    return out;
}

} // namespace roofline
