#include "core/comparison.hpp"

#include "core/level.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <map>
#include <unordered_map>

namespace roofline {
namespace {

struct KeyedRoof {
    std::string key;
    std::string unit;
    SpreadFigure figure;
};

// A model's roofs under names that mean the same roof on another machine (the ISA
// of a memory roof is chosen by measurement, so it is not part of the name).
std::vector<KeyedRoof> keyed_roofs(const MachineModel& m) {
    std::vector<KeyedRoof> out;
    std::map<std::string, int> seen;
    const auto add = [&](std::string key, const std::string& unit, SpreadFigure f) {
        if (const int n = ++seen[key]; n > 1) key += fmt::format(" #{}", n);
        out.push_back({std::move(key), unit, f});
    };
    for (const auto& c : m.compute)
        add(fmt::format("{} {} {} {}t", c.precision, c.isa, c.mix, c.threads), "GFLOP/s", roof_figure(c.gflops, c.stats));
    for (const auto& r : m.memory) {
        // Working sets of no known level (older models' "custom") are told apart by their size.
        const auto level = is_custom_working_set(r.level) ? fmt::format("{} {} B", r.level, r.working_set_bytes) : r.level;
        add(fmt::format("{} {} {}t", level, r.pattern, r.threads), "GB/s", roof_figure(r.gbs, r.stats));
    }
    return out;
}

} // namespace

double change_threshold(const SpreadFigure& a, const SpreadFigure& b) {
    const double sa = a.spread_known ? a.spread : kUnknownSpread;
    const double sb = b.spread_known ? b.spread : kUnknownSpread;
    return std::max({sa, sb, kMinimumChange});
}

bool changed(const SpreadFigure& a, const SpreadFigure& b) {
    if (!(a.value > 0) || !(b.value > 0)) return false;
    return std::abs(b.value / a.value - 1) > change_threshold(a, b);
}

SpreadFigure roof_figure(double value, const Stats& stats) {
    SpreadFigure f;
    f.value = value;
    if (stats.runs > 1 && value > 0 && stats.max >= stats.min) {
        f.spread = (stats.max - stats.min) / value;
        f.spread_known = true;
    }
    return f;
}

SpreadFigure point_figure(const Point& p) {
    SpreadFigure f;
    f.value = performance(p);
    const auto fastest = p.details.find("seconds_fastest"), slowest = p.details.find("seconds_slowest");
    if (fastest != p.details.end() && slowest != p.details.end() && fastest->second > 0 &&
        slowest->second >= fastest->second) {
        f.spread = slowest->second / fastest->second - 1;  // the rate's range relative to the fastest sample
        f.spread_known = true;
    }
    return f;
}

std::vector<RoofChange> compare_roofs(const MachineModel& a, const MachineModel& b) {
    const auto ra = keyed_roofs(a), rb = keyed_roofs(b);
    std::vector<RoofChange> out;
    const auto find = [](const std::vector<KeyedRoof>& roofs, const std::string& key) -> const KeyedRoof* {
        for (const auto& r : roofs)
            if (r.key == key) return &r;
        return nullptr;
    };
    for (const auto& x : ra) {
        RoofChange c;
        c.key = x.key;
        c.unit = x.unit;
        c.a = x.figure;
        if (const auto* y = find(rb, x.key)) {
            c.b = y->figure;
            if (x.figure.value > 0) c.ratio = y->figure.value / x.figure.value;
            c.threshold = change_threshold(x.figure, y->figure);
            c.significant = changed(x.figure, y->figure);
        }
        out.push_back(std::move(c));
    }
    for (const auto& y : rb) {
        if (find(ra, y.key)) continue;
        RoofChange c;
        c.key = y.key;
        c.unit = y.unit;
        c.b = y.figure;
        out.push_back(std::move(c));
    }
    return out;
}

namespace {

PointSide side_of(const Point& p, const Roofline* roofline, View view) {
    PointSide s;
    s.performance = point_figure(p);
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
            if (fa.value > 0 && fb.value > 0) {
                c.ratio = fb.value / fa.value;
                c.threshold = change_threshold(fa, fb);
                c.significant = changed(fa, fb);
            }
            if (c.a->analysis && c.b->analysis && c.a->analysis->attainable > 0 && c.a->analysis->efficiency > 0) {
                c.roof_ratio = c.b->analysis->attainable / c.a->analysis->attainable;
                c.efficiency_ratio = c.b->analysis->efficiency / c.a->analysis->efficiency;
                if (c.significant) {
                    // Each factor alone within the threshold while their product is not: both moved.
                    const bool roof = std::abs(*c.roof_ratio - 1) > c.threshold;
                    const bool efficiency = std::abs(*c.efficiency_ratio - 1) > c.threshold;
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

void find_changes(FigureHistory& history) {
    history.changes.clear();
    std::optional<std::size_t> previous;
    for (std::size_t i = 0; i < history.runs.size(); ++i) {
        if (!history.runs[i].figure) continue;
        if (previous) {
            const auto& before = *history.runs[*previous].figure;
            const auto& now = *history.runs[i].figure;
            if (changed(before, now))
                history.changes.push_back({i, now.value / before.value, change_threshold(before, now)});
        }
        previous = i;
    }
}

std::vector<FigureHistory> roof_histories(const std::vector<MachineModel>& models, const std::vector<std::string>& runs) {
    std::vector<FigureHistory> out;
    for (std::size_t m = 0; m < models.size(); ++m) {
        for (const auto& roof : keyed_roofs(models[m])) {
            auto it = std::find_if(out.begin(), out.end(), [&](const FigureHistory& h) { return h.key == roof.key; });
            if (it == out.end()) {
                FigureHistory h;
                h.key = roof.key;
                h.unit = roof.unit;
                for (const auto& r : runs) h.runs.push_back({r, std::nullopt});
                out.push_back(std::move(h));
                it = out.end() - 1;
            }
            it->runs[m].figure = roof.figure;
        }
    }
    for (auto& h : out) find_changes(h);
    return out;
}

} // namespace roofline
