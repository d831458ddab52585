#include "core/comparison.hpp"

#include "core/byte_sizes.hpp"
#include "core/cut_off_point.hpp"
#include "core/level.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <map>
#include <set>
#include <unordered_map>

namespace roofline {
namespace {

// The spread of a roof sampled in bursts (figure_stats.hpp): the roof is the q-quantile of the
// bursts' best samples, because interference only ever lowers a sample. So what says how well a
// roof repeats is how closely its best bursts agree, not the range or the CV of every sample:
// one disturbed sample (33 GFLOP/s under a roof of 59) made the range 44% and hid a 30% drop,
// while the bursts' best agreed within 0.1%. Stats keep two of the bursts' best: the highest
// (max) and the roof, interpolated between the k-th and (k+1)-th best of n (k = floor(q (n - 1)),
// a fraction f of the way). For the usual burst counts (n <= 1 / (1 - q) + 1: up to 11 at
// q = 0.9) the (k+1)-th is max and the k-th is (value - f max) / (1 - f), so their range is
// (max - value) / (1 - f): exactly how far apart the two best bursts landed. With more bursts
// the (k+1)-th lies at or below max, and the same formula bounds from above the range of the
// bursts from the k-th up (a larger threshold, never a smaller one). One burst, or q = 1 (the
// roof is max), says nothing of it.
std::optional<double> burst_spread(double value, const Stats& stats) {
    if (stats.bursts < 2 || !(stats.quantile > 0) || !(stats.quantile < 1) || !(stats.max >= value)) return std::nullopt;
    const double position = stats.quantile * (stats.bursts - 1);
    const double below = std::floor(position + 1e-9);  // 0.9 x 20 may come out a hair under 18
    const double fraction = std::max(0.0, position - below);
    if (below >= stats.bursts - 1) return std::nullopt;
    return (stats.max - value) / ((1 - fraction) * value);
}

// A roof of one block of samples (models from before bursts: the figure is their median): twice
// the CV, one standard deviation either side, which a stray sample widens far less than it does
// the range (among n samples, by about 2 / sqrt(n) of its distance); the range where no CV was
// recorded, and never more than it.
std::optional<double> block_spread(double value, const Stats& stats) {
    if (stats.runs < 2 || !(stats.max >= stats.min)) return std::nullopt;
    const double range = (stats.max - stats.min) / value;
    return stats.cv > 0 ? std::min(range, 2 * stats.cv) : range;
}

struct KeyedRoof {
    std::string key;
    std::string unit;
    SpreadFigure figure;
    const MemoryRoof* memory = nullptr;  // a memory roof's, for its working set
    std::string plain_key = {};          // the key before a working set was added to it
};

// A model's roofs under names that mean the same roof on another machine (the ISA
// of a memory roof is chosen by measurement, so it is not part of the name).
std::vector<KeyedRoof> base_keyed_roofs(const MachineModel& m) {
    std::vector<KeyedRoof> out;
    std::map<std::string, int> seen;
    const auto add = [&](std::string key, const std::string& unit, SpreadFigure f, const MemoryRoof* memory) {
        if (const int n = ++seen[key]; n > 1) key += fmt::format(" #{}", n);
        out.push_back({key, unit, f, memory, key});
    };
    for (const auto& c : m.compute)
        add(fmt::format("{} {} {} {}t", c.precision, c.isa, c.mix, c.threads), "GFLOP/s", roof_figure(c.gflops, c.stats),
            nullptr);
    for (const auto& r : m.memory) {
        // Working sets of no known level (older models' "custom") are told apart by their size.
        const auto level = is_custom_working_set(r.level) ? fmt::format("{} {} B", r.level, r.working_set_bytes) : r.level;
        add(fmt::format("{} {} {}t", level, r.pattern, r.threads), "GB/s", roof_figure(r.gbs, r.stats), &r);
    }
    return out;
}

// The sizes the run of `m` measured `roof`'s pattern with its threads at (its curve), sorted.
std::vector<std::uint64_t> measured_sizes(const MachineModel& m, const MemoryRoof& roof) {
    std::vector<std::uint64_t> sizes;
    for (const auto& c : m.curves)
        if (c.pattern == roof.pattern && c.threads == roof.threads)
            for (const auto& point : c.points) sizes.push_back(point.first);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

// A memory roof as far as likeness goes: its working set and the sizes its run measured.
struct RoofPlan {
    std::uint64_t working_set = 0;
    std::vector<std::uint64_t> measured;
    auto operator<=>(const RoofPlan&) const = default;
};

// Two runs' roofs of one level, pattern and threads are alike when they were chosen among the
// same sizes: both at one size, or each run's winner measured by the other run too.
bool alike(const RoofPlan& a, const RoofPlan& b) {
    return a.working_set == b.working_set ||
           (std::binary_search(a.measured.begin(), a.measured.end(), b.working_set) &&
            std::binary_search(b.measured.begin(), b.measured.end(), a.working_set));
}

// Every model's roofs keyed as compare_roofs and roof_histories say: the runs' roofs of one key
// (memory roofs of a known working set) fall into groups linked by `alike`; with more than one
// group, each key gets its group's working sets. A roof whose working set is not known (a spec
// sheet's) keeps the plain key.
std::vector<std::vector<KeyedRoof>> keyed_roofs(const std::vector<const MachineModel*>& models) {
    std::vector<std::vector<KeyedRoof>> out;
    for (const auto* m : models) out.push_back(base_keyed_roofs(*m));
    struct Member {
        std::size_t model, roof, plan;  // plan: index into the key's distinct plans
    };
    struct KeyRoofs {
        std::vector<Member> members;
        std::map<RoofPlan, std::size_t> plans;  // a long history has a few plans, not one per run
    };
    std::map<std::string, KeyRoofs> by_key;
    for (std::size_t m = 0; m < out.size(); ++m)
        for (std::size_t r = 0; r < out[m].size(); ++r)
            if (const MemoryRoof* roof = out[m][r].memory;
                roof && roof->working_set_bytes > 0 && !is_custom_working_set(roof->level)) {
                auto& k = by_key[out[m][r].key];
                RoofPlan plan{roof->working_set_bytes, measured_sizes(*models[m], *roof)};
                const auto it = k.plans.try_emplace(std::move(plan), k.plans.size()).first;
                k.members.push_back({m, r, it->second});
            }
    for (const auto& [key, k] : by_key) {
        if (k.plans.size() < 2) continue;
        std::vector<const RoofPlan*> plan(k.plans.size());
        for (const auto& [p, i] : k.plans) plan[i] = &p;
        std::vector<std::size_t> group(plan.size());
        for (std::size_t i = 0; i < group.size(); ++i) group[i] = i;
        const auto root = [&](std::size_t i) {
            while (group[i] != i) i = group[i] = group[group[i]];
            return i;
        };
        for (std::size_t i = 0; i < plan.size(); ++i)
            for (std::size_t j = i + 1; j < plan.size(); ++j)
                if (root(i) != root(j) && alike(*plan[i], *plan[j])) group[root(i)] = root(j);
        std::map<std::size_t, std::set<std::uint64_t>> sizes;  // each group's working sets
        for (std::size_t i = 0; i < plan.size(); ++i) sizes[root(i)].insert(plan[i]->working_set);
        if (sizes.size() < 2) continue;
        for (const auto& m : k.members) {
            std::vector<std::string> named;
            for (const auto bytes : sizes[root(m.plan)]) named.push_back(format_bytes(bytes));
            out[m.model][m.roof].key = fmt::format("{} at {}", key, fmt::join(named, ", "));
        }
    }
    return out;
}

std::uint64_t working_set_of(const KeyedRoof& r) { return r.memory ? r.memory->working_set_bytes : 0; }

// Rows in their order, except that rows of one plain key (a roof at two working sets) follow the
// first of them.
template <typename Row>
std::vector<Row> next_to_their_kin(std::vector<Row> rows, const std::vector<std::string>& plain_keys) {
    std::map<std::string, std::size_t> first;
    for (std::size_t i = 0; i < plain_keys.size(); ++i) first.try_emplace(plain_keys[i], i);
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return first[plain_keys[x]] < first[plain_keys[y]]; });
    std::vector<Row> out;
    for (const auto i : order) out.push_back(std::move(rows[i]));
    return out;
}

} // namespace

double change_threshold(const SpreadFigure& a, const SpreadFigure& b) {
    const double sa = a.spread_known ? a.spread : kUnknownSpread;
    const double sb = b.spread_known ? b.spread : kUnknownSpread;
    return std::max({sa, sb, a.floor, b.floor, kMinimumChange});
}

bool beyond_threshold(double ratio, double threshold) {
    if (!(ratio > 0) || !std::isfinite(ratio)) return false;
    return std::abs(std::log(ratio)) > std::log1p(threshold);
}

ChangeBand change_band(double threshold) { return {1 / (1 + threshold), 1 + threshold}; }

bool changed(const SpreadFigure& a, const SpreadFigure& b) {
    if (!(a.value > 0) || !(b.value > 0)) return false;
    return beyond_threshold(b.value / a.value, change_threshold(a, b));
}

std::optional<WorkChange> work_change(const SpreadFigure& a, const SpreadFigure& b) {
    if (!(a.work > 0) || !(b.work > 0) || !(a.seconds > 0) || !(b.seconds > 0)) return std::nullopt;
    const double threshold = change_threshold(a, b);
    WorkChange w;
    w.work_ratio = b.work / a.work;
    if (!beyond_threshold(w.work_ratio, threshold)) return std::nullopt;
    w.time_ratio = b.seconds / a.seconds;
    w.time_changed = beyond_threshold(w.time_ratio, threshold);
    return w;
}

const char* spread_source_name(SpreadSource source) {
    switch (source) {
    case SpreadSource::top_bursts: return "top bursts";
    case SpreadSource::cv: return "CV";
    case SpreadSource::block: return "2 CV";
    case SpreadSource::runs: return "range of runs";
    case SpreadSource::none: break;
    }
    return "none recorded";
}

SpreadFigure roof_figure(double value, const Stats& stats) {
    SpreadFigure f;
    f.value = value;
    f.floor = kRoofMinimumChange;
    f.bursts = stats.bursts;
    f.set_aside = stats.rejected_bursts;
    f.runs = stats.runs;
    f.cv = stats.cv > 0 && std::isfinite(stats.cv) ? stats.cv : 0;
    f.unstable = !stats.stable || stats.cores_shared;
    if (!(value > 0) || !std::isfinite(value)) return f;
    const auto take = [&](std::optional<double> spread, SpreadSource source) {
        if (!spread || !std::isfinite(*spread) || *spread < 0) return;
        if (f.spread_known && *spread <= f.spread) return;
        f.spread = *spread;
        f.spread_known = true;
        f.source = source;
    };
    if (stats.bursts > 0) {
        // The widest of what the run recorded: its top bursts' range, or the CV of its samples
        // (bursts' samples, set-aside ones excluded); a rerun lands within about the latter.
        take(burst_spread(value, stats), SpreadSource::top_bursts);
        if (stats.runs >= 2 && f.cv > 0) take(f.cv, SpreadSource::cv);
    } else {
        take(block_spread(value, stats), SpreadSource::block);
    }
    return f;
}

BandSource band_source(const SpreadFigure& a, const SpreadFigure& b) {
    const double threshold = change_threshold(a, b);
    BandSource s;
    for (const auto& [side, f] : {std::pair{'A', &a}, std::pair{'B', &b}})
        if (!s.side && f->spread_known && f->spread == threshold) {
            s.side = side;
            s.source = f->source;
        }
    s.floor = !s.side && threshold == std::max({a.floor, b.floor, kMinimumChange});  // else kUnknownSpread
    return s;
}

SpreadFigure point_figure(const Point& p) {
    SpreadFigure f;
    f.value = performance(p);
    f.floor = kMinimumChange;
    f.work = p.work_counted && p.work > 0 && std::isfinite(p.work) ? p.work : 0;
    f.seconds = p.seconds > 0 && std::isfinite(p.seconds) ? p.seconds : 0;
    const auto fastest = p.details.find("seconds_fastest"), slowest = p.details.find("seconds_slowest");
    if (fastest != p.details.end() && slowest != p.details.end() && fastest->second > 0 &&
        slowest->second >= fastest->second) {
        f.spread = slowest->second / fastest->second - 1;  // the rate's range relative to the fastest sample
        f.spread_known = true;
        f.source = SpreadSource::runs;
    }
    return f;
}

std::vector<RoofChange> compare_roofs(const MachineModel& a, const MachineModel& b) {
    const auto keyed = keyed_roofs({&a, &b});
    const auto &ra = keyed[0], &rb = keyed[1];
    std::vector<RoofChange> out;
    const auto find = [](const std::vector<KeyedRoof>& roofs, const std::string& key) -> const KeyedRoof* {
        for (const auto& r : roofs)
            if (r.key == key) return &r;
        return nullptr;
    };
    // Only in one run because the other has it at working sets not alike.
    const auto elsewhere = [](const std::vector<KeyedRoof>& roofs, const KeyedRoof& r) {
        return std::any_of(roofs.begin(), roofs.end(),
                           [&](const KeyedRoof& o) { return o.plain_key == r.plain_key && o.key != r.key; });
    };
    for (const auto& x : ra) {
        RoofChange c;
        c.key = x.key;
        c.unit = x.unit;
        c.a = x.figure;
        c.working_set_a = working_set_of(x);
        if (const auto* y = find(rb, x.key)) {
            c.b = y->figure;
            c.working_set_b = working_set_of(*y);
            if (x.figure.value > 0) c.ratio = y->figure.value / x.figure.value;
            c.threshold = change_threshold(x.figure, y->figure);
            // A roof its run did not call stable is not judged: its figure may be low by more
            // than any spread it recorded (bench said 'likely low; rerun to confirm').
            c.significant = judgeable(x.figure, y->figure) && changed(x.figure, y->figure);
        } else {
            c.other_working_set = elsewhere(rb, x);
        }
        out.push_back(std::move(c));
    }
    std::vector<std::string> plain;  // each row's plain key, to keep one roof's rows together
    for (const auto& x : ra) plain.push_back(x.plain_key);
    for (const auto& y : rb) {
        if (find(ra, y.key)) continue;
        RoofChange c;
        c.key = y.key;
        c.unit = y.unit;
        c.b = y.figure;
        c.working_set_b = working_set_of(y);
        c.other_working_set = elsewhere(ra, y);
        out.push_back(std::move(c));
        plain.push_back(y.plain_key);
    }
    return next_to_their_kin(std::move(out), plain);
}

namespace {

PointSide side_of(const Point& p, const Roofline* roofline, View view) {
    PointSide s;
    s.performance = point_figure(p);
    s.cut_off = cut_off_signal(p);
    if (roofline && p.work_counted && p.work > 0 && p.seconds > 0 && p.work_unit == roofline->work_unit &&
        !bounding_levels(*roofline, p, view).empty())
        s.analysis = analyze(*roofline, p, view);
    return s;
}

} // namespace

std::string comparable_name(const std::string& name) {
    std::string n = name;
    // "<function daxpy>": a function measured as a region is the region a marker would name.
    constexpr std::string_view fn = "<function ";
    if (n.size() > fn.size() + 1 && n.compare(0, fn.size(), fn) == 0 && n.back() == '>')
        n = n.substr(fn.size(), n.size() - fn.size() - 1);
    // A C++ signature: "daxpy(int, double*)" is daxpy (a unique match is still required).
    if (const auto paren = n.find('('); paren != std::string::npos && paren > 0 && n.back() == ')')
        n.resize(paren);
    // Clones the compiler made of one source function: daxpy.constprop.0, .isra.0, .part.1,
    // .cold, .lto_priv.0, .localalias (GCC), .llvm.123 (Clang's ThinLTO); chains of them too.
    for (bool cut = true; cut;) {
        cut = false;
        for (const std::string_view suffix : {".constprop", ".isra", ".part", ".cold", ".lto_priv", ".localalias",
                                              ".llvm", ".clone", ".specialized"}) {
            const auto at = n.rfind(suffix);
            if (at == std::string::npos || at == 0) continue;
            std::size_t end = at + suffix.size();
            if (end < n.size() && n[end] == '.') ++end;
            while (end < n.size() && std::isdigit(static_cast<unsigned char>(n[end]))) ++end;
            if (end != n.size()) continue;
            n.resize(at);
            cut = true;
        }
    }
    return n;
}

std::vector<PointChange> compare_points(const std::vector<Point>& a, const Roofline* roofline_a,
                                        const std::vector<Point>& b, const Roofline* roofline_b, View view) {
    // By name, and within a name by order (sets of 100,000 points are compared too: no quadratic search).
    std::unordered_map<std::string, std::vector<std::size_t>> in_b;
    for (std::size_t j = 0; j < b.size(); ++j) in_b[b[j].name].push_back(j);
    std::unordered_map<std::string, std::size_t> total_a;
    for (const auto& p : a) ++total_a[p.name];
    const auto repeated = [&](const std::string& name) {
        const auto ia = total_a.find(name);
        const auto ib = in_b.find(name);
        return (ia != total_a.end() && ia->second > 1) || (ib != in_b.end() && ib->second.size() > 1);
    };
    std::vector<std::optional<std::size_t>> partner(a.size());
    std::vector<bool> b_paired(b.size(), false);
    std::unordered_map<std::string, std::size_t> seen_a;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t k = ++seen_a[a[i].name];
        if (const auto it = in_b.find(a[i].name); it != in_b.end() && it->second.size() >= k) {
            partner[i] = it->second[k - 1];
            b_paired[*partner[i]] = true;
        }
    }
    // The rest by what the names mean: a marker region "daxpy" in one run is the function
    // "<function daxpy.constprop.0>" in another, where exactly one point of each run is left
    // under that meaning (two candidates on a side stay unmatched rather than guessed).
    std::unordered_map<std::string, std::vector<std::size_t>> left_a, left_b;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!partner[i]) left_a[comparable_name(a[i].name)].push_back(i);
    for (std::size_t j = 0; j < b.size(); ++j)
        if (!b_paired[j]) left_b[comparable_name(b[j].name)].push_back(j);
    for (const auto& [key, is] : left_a) {
        const auto it = left_b.find(key);
        if (key.empty() || is.size() != 1 || it == left_b.end() || it->second.size() != 1) continue;
        partner[is.front()] = it->second.front();
        b_paired[it->second.front()] = true;
    }

    std::unordered_map<std::string, std::size_t> occurrence_a;
    std::vector<PointChange> out;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Point& pa = a[i];
        PointChange c;
        c.name = pa.name;
        c.occurrence = static_cast<int>(++occurrence_a[pa.name]);
        c.repeated = repeated(pa.name);
        c.a = side_of(pa, roofline_a, view);
        if (partner[i]) {
            const Point& pb = b[*partner[i]];
            if (pb.name != pa.name) c.name_b = pb.name;
            c.b = side_of(pb, roofline_b, view);
            const auto &fa = c.a->performance, &fb = c.b->performance;
            if (fa.value > 0 && fb.value > 0) c.ratio = fb.value / fa.value;
            // A side cut off by a signal ran only part of its region: no verdict, on rate or time.
            if (fa.value > 0 && fb.value > 0 && !c.cut_off()) {
                c.threshold = change_threshold(fa, fb);
                c.significant = changed(fa, fb);
                c.work = work_change(fa, fb);
            }
            if (!c.cut_off() && c.a->analysis && c.b->analysis && c.a->analysis->attainable > 0 &&
                c.a->analysis->efficiency > 0) {
                c.roof_ratio = c.b->analysis->attainable / c.a->analysis->attainable;
                c.efficiency_ratio = c.b->analysis->efficiency / c.a->analysis->efficiency;
                if (c.significant) {
                    // Each factor alone within the threshold while their product is not: both moved.
                    const bool roof = beyond_threshold(*c.roof_ratio, c.threshold);
                    const bool efficiency = beyond_threshold(*c.efficiency_ratio, c.threshold);
                    c.cause = roof == efficiency ? "both" : roof ? "roof" : "efficiency";
                }
            }
        }
        out.push_back(std::move(c));
    }
    std::unordered_map<std::string, std::size_t> occurrence_b;
    for (std::size_t j = 0; j < b.size(); ++j) {
        const std::size_t k = ++occurrence_b[b[j].name];
        if (b_paired[j]) continue;
        PointChange c;
        c.name = b[j].name;
        c.occurrence = static_cast<int>(k);
        c.repeated = repeated(b[j].name);
        c.b = side_of(b[j], roofline_b, view);
        out.push_back(std::move(c));
    }
    return out;
}

void judge_work_changes_on_time(std::vector<PointChange>& points) {
    for (auto& p : points) {
        if (!p.work || p.cut_off()) continue;  // compare_points leaves a cut-off pair without `work`
        p.by_time = true;
        p.significant = p.work->time_changed;
        p.cause = "work";
    }
}

void find_changes(FigureHistory& history) {
    history.changes.clear();
    history.unjudged.clear();
    std::optional<std::size_t> previous;
    for (std::size_t i = 0; i < history.runs.size(); ++i) {
        if (!history.runs[i].figure) continue;
        // Unstable, or no rate (a point without FLOPs: 0 GFLOP/s whatever its time): not judged,
        // nor judged against.
        if (history.runs[i].figure->unstable || !(history.runs[i].figure->value > 0) || history.runs[i].cut_off) {
            history.unjudged.push_back(i);
            continue;
        }
        if (previous) {
            const auto& before = *history.runs[*previous].figure;
            const auto& now = *history.runs[i].figure;
            // Runs of one command line whose work differs are a change of the program itself
            // (figures named by what ran, reference kernels and models, keep their rates judged).
            const auto work = history.command.empty() ? std::nullopt : work_change(before, now);
            if (work || changed(before, now))
                history.changes.push_back({i, now.value / before.value, change_threshold(before, now), work});
        }
        previous = i;
    }
}

FigureHistory::Latest FigureHistory::latest() const {
    if (runs.empty() || !runs.back().figure) return Latest::absent;
    const auto judged = [&](std::size_t i) {
        return runs[i].figure && std::find(unjudged.begin(), unjudged.end(), i) == unjudged.end();
    };
    const std::size_t last = runs.size() - 1;
    if (!judged(last))
        return runs.back().figure->unstable ? Latest::unstable
               : runs.back().cut_off        ? Latest::cut_off
                                            : Latest::no_rate;
    for (std::size_t i = 0; i < last; ++i)
        if (judged(i)) return Latest::judged;
    return Latest::nothing_before;
}

std::optional<HistoryMachine> history_machine(const std::vector<StoredMachine>& machines, const std::string& host,
                                              const std::string& cpu) {
    const auto latest = std::find_if(machines.rbegin(), machines.rend(), [&](const StoredMachine& m) {
        return (host.empty() || m.hostname == host) && (cpu.empty() || m.cpu_model == cpu);
    });
    if (latest == machines.rend()) return std::nullopt;
    return HistoryMachine{latest->hostname, latest->cpu_model};
}

std::vector<FigureHistory> roof_histories(const std::vector<MachineModel>& models, const std::vector<std::string>& runs) {
    std::vector<const MachineModel*> pointers;
    for (const auto& m : models) pointers.push_back(&m);
    const auto keyed = keyed_roofs(pointers);
    std::vector<FigureHistory> out;
    std::vector<std::string> plain;            // each history's plain key
    std::map<std::string, std::size_t> index;  // key -> its history in `out`
    for (std::size_t m = 0; m < keyed.size(); ++m) {
        for (const auto& roof : keyed[m]) {
            auto [it, added] = index.try_emplace(roof.key, out.size());
            if (added) {
                FigureHistory h;
                h.key = roof.key;
                h.unit = roof.unit;
                for (const auto& r : runs) h.runs.push_back({r, std::nullopt});
                out.push_back(std::move(h));
                plain.push_back(roof.plain_key);
            }
            out[it->second].runs[m].figure = roof.figure;
        }
    }
    for (auto& h : out) find_changes(h);
    return next_to_their_kin(std::move(out), plain);
}

} // namespace roofline
