#include "core/spec_comparison.hpp"

#include "core/level.hpp"
#include "core/precision.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace roofline {
// Named, not anonymous: a unity build joins this file's helpers with other files' anonymous ones.
namespace spec_comparison_detail {

// The spec loader's names for what the sheet writes (io/machine_spec_yaml.cpp): a peak is
// mix "best", a bandwidth pattern "bandwidth"; ceilings take other mixes and patterns.
constexpr const char* kPeakMix = "best";
constexpr const char* kBandwidthPattern = "bandwidth";

bool spec_usable_figure(double v) { return v > 0 && std::isfinite(v); }

std::string compute_unit(const std::string& precision) {
    return is_flop_precision(precision) ? "GFLOP/s" : "G" + precision + "/s";
}

// A measured roof as one kind: its name for the key, threads, figure.
struct Candidate {
    std::string what;  // precision or level
    std::string key;
    int threads = 0;
    double value = 0;
    const Stats* stats = nullptr;
};

std::vector<Candidate> measured_compute(const MachineModel& m) {
    std::vector<Candidate> out;
    for (const auto& c : m.compute)
        if (spec_usable_figure(c.gflops))
            out.push_back({c.precision, fmt::format("{} {} {} {}t", c.precision, c.isa, c.mix, c.threads), c.threads,
                           c.gflops, &c.stats});
    return out;
}

std::vector<Candidate> measured_memory(const MachineModel& m) {
    std::vector<Candidate> out;
    for (const auto& r : m.memory)
        if (spec_usable_figure(r.gbs) && !is_custom_working_set(r.level))
            out.push_back({r.level, fmt::format("{} {} {}t", r.level, r.pattern, r.threads), r.threads, r.gbs, &r.stats});
    return out;
}

// The fastest candidate of `what` at `threads`.
const Candidate* best_at(const std::vector<Candidate>& all, const std::string& what, int threads) {
    const Candidate* best = nullptr;
    for (const auto& c : all)
        if (c.what == what && c.threads == threads && (!best || c.value > best->value)) best = &c;
    return best;
}

int most_threads(const std::vector<Candidate>& all, const std::string& what = {}) {
    int n = 0;
    for (const auto& c : all)
        if (what.empty() || c.what == what) n = std::max(n, c.threads);
    return n;
}

// A 1-thread bandwidth the sheet wrote as a ceiling (category threads) is in the model as a
// plain bandwidth: the named ceiling tells it apart from a figure written {1: value}.
bool is_thread_ceiling(const MachineFile& sheet, const MemoryRoof& r) {
    return r.threads == 1 && std::any_of(sheet.named_ceilings.begin(), sheet.named_ceilings.end(), [&](const NamedCeiling& n) {
               return n.ceiling.kind == CeilingKind::bandwidth && n.ceiling.category == "threads" &&
                      n.ceiling.level == r.level && n.ceiling.value == r.gbs;
           });
}

void match(SpecMatch& s, const std::vector<Candidate>& measured, const char* kind_name) {
    const int model_most = most_threads(measured);
    s.model_threads = model_most;
    const int of_this = most_threads(measured, s.what);
    if (of_this == 0) {
        s.why_unmatched = s.compute ? fmt::format("the model has no {} roof: a precision it did not measure", s.what)
                                    : fmt::format("the model has no {} roof: a level it did not measure", s.what);
        return;
    }
    // The sheet's own count is "the whole machine": the model's whole is the most threads it
    // measured this precision or level at.
    const int threads = s.sheet_all ? of_this : s.spec_threads;
    const Candidate* c = best_at(measured, s.what, threads);
    if (!c) {
        s.why_unmatched = fmt::format("the model has no {} {} roof at {} thread{} (it has {} at most)", s.what,
                                      kind_name, threads, threads == 1 ? "" : "s", of_this);
        return;
    }
    s.measured_key = c->key;
    s.measured_threads = c->threads;
    s.measured = roof_figure(c->value, *c->stats);
    s.ratio = c->value / s.spec;
    const double spread = s.measured->spread_known ? s.measured->spread : kUnknownSpread;
    s.threshold = std::max(spread, kMinimumChange);
    s.verdict = s.ratio <= 1 ? SpecVerdict::below : s.ratio <= 1 + s.threshold ? SpecVerdict::at : SpecVerdict::above;
}

} // namespace spec_comparison_detail

using namespace spec_comparison_detail;

const char* spec_verdict_name(SpecVerdict verdict) {
    switch (verdict) {
    case SpecVerdict::below: return "below";
    case SpecVerdict::at: return "at";
    case SpecVerdict::above: return "above";
    case SpecVerdict::unmatched: break;
    }
    return "unmatched";
}

std::size_t SpecComparison::matched() const {
    return static_cast<std::size_t>(std::count_if(matches.begin(), matches.end(),
                                                  [](const SpecMatch& m) { return m.verdict != SpecVerdict::unmatched; }));
}

std::size_t SpecComparison::above() const {
    return static_cast<std::size_t>(std::count_if(matches.begin(), matches.end(),
                                                  [](const SpecMatch& m) { return m.verdict == SpecVerdict::above; }));
}

SpecComparison compare_with_spec(const MachineModel& measured, const MachineFile& sheet, bool spec_is_a) {
    SpecComparison out;
    out.spec_is_a = spec_is_a;
    out.sheet_cores = sheet.spec_threads;
    out.machine_threads = measured.cpu.threads;
    // Every ceiling the sheet names, in the model or not (a category the model has no place for).
    out.ceilings_not_compared = static_cast<int>(sheet.named_ceilings.size());
    const auto compute = measured_compute(measured);
    const auto memory = measured_memory(measured);
    std::set<std::string> precisions, levels;  // the sheet's
    for (const auto& c : sheet.model.compute) {
        if (c.mix != kPeakMix) continue;  // a ceiling
        precisions.insert(c.precision);
        SpecMatch s;
        s.compute = true;
        s.what = c.precision;
        s.unit = compute_unit(c.precision);
        s.spec_threads = c.threads;
        s.sheet_all = c.threads == sheet.spec_threads;
        s.spec = c.gflops;
        match(s, compute, "compute");
        out.matches.push_back(std::move(s));
    }
    for (const auto& r : sheet.model.memory) {
        if (r.pattern != kBandwidthPattern || is_thread_ceiling(sheet, r)) continue;  // a ceiling
        levels.insert(r.level);
        SpecMatch s;
        s.compute = false;
        s.what = r.level;
        s.unit = "GB/s";
        s.spec_threads = r.threads;
        s.sheet_all = r.threads == sheet.spec_threads;
        s.spec = r.gbs;
        match(s, memory, "memory");
        out.matches.push_back(std::move(s));
    }
    // What the model measured that the sheet is silent on, each by its best roof at the most
    // threads it was measured at, in the model's order.
    const auto silent = [&](const std::vector<Candidate>& all, const std::set<std::string>& sheet_has, bool is_compute) {
        std::set<std::string> said;
        for (const auto& c : all) {
            if (sheet_has.count(c.what) || !said.insert(c.what).second) continue;
            const Candidate* best = best_at(all, c.what, most_threads(all, c.what));
            out.not_in_sheet.push_back(
                {is_compute, c.what, best->key, best->value, is_compute ? compute_unit(c.what) : std::string("GB/s")});
        }
    };
    silent(compute, precisions, true);
    silent(memory, levels, false);
    return out;
}

} // namespace roofline
