#include "core/kernel_footprint.hpp"

#include "core/working_sets.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace roofline {
namespace {

const CacheCapacity* capacity_of(const std::vector<CacheCapacity>& capacities, const std::string& level) {
    for (const auto& c : capacities)
        if (c.level == level) return &c;
    return nullptr;
}

int depth_of(const std::string& resident_in) {
    if (resident_in == "registers") return 0;
    const auto& levels = spec_levels();
    const auto it = std::find(levels.begin(), levels.end(), resident_in);
    return it == levels.end() ? static_cast<int>(levels.size()) : static_cast<int>(it - levels.begin()) + 1;
}

} // namespace

std::vector<CacheCapacity> cache_capacities(const std::vector<CacheLevel>& caches, int threads) {
    std::vector<CacheCapacity> out;
    const int t = std::max(1, threads);
    for (int level = 1; level <= 3; ++level)
        for (const auto& c : caches)
            if (c.level == level && c.size_bytes > 0) {
                // Threads on consecutive cores use ceil(t / sharing) instances (at most the
                // machine's); spread evenly, the busiest holds ceil(t / instances used) of them.
                const int sharing = std::max(1, c.shared_by_cores);
                const int used = std::max(1, std::min(std::max(1, c.instances), (t + sharing - 1) / sharing));
                const int busiest = (t + used - 1) / used;
                const double copies = static_cast<double>(t) / busiest;
                out.push_back({fmt::format("L{}", level), static_cast<double>(c.size_bytes) * copies, copies});
                break;
            }
    return out;
}

std::optional<Footprint> operand_footprint(const ArraySpec& a, const KernelSpec& spec) {
    if (a.resident_in == "registers") return std::nullopt;
    if (a.elements) return Footprint{*a.elements * a.element_bytes, true};
    if (!spec.iterations) return std::nullopt;
    // What caches hold is lines: a strided or random access whose line is not used whole
    // occupies the part of the line it brings (a sum of every 8th double fills 64 B of
    // cache per 8 B read), so the bound counts that, not the elements alone. Lines a
    // cache keeps until used whole hold the elements only (the outermost level's figure).
    const double per_access = bytes_per_access(a, static_cast<int>(spec_levels().size()), spec.line_bytes);
    return Footprint{(a.reads_per_iteration + a.writes_per_iteration) * *spec.iterations * per_access, false};
}

double team_bytes(const ArraySpec& a, const Footprint& f, const CacheCapacity& at) {
    return a.per_thread && f.exact ? f.bytes * at.copies : f.bytes;
}

std::vector<ResidencyProblem> residency_problems(const KernelSpec& spec, const std::vector<CacheCapacity>& capacities) {
    std::vector<ResidencyProblem> out;
    if (capacities.empty()) return out;
    for (const std::string level : {"L1", "L2", "L3"}) {
        std::vector<std::string> named, sized, unsized;
        double exact = 0, most = 0;
        bool bounded = true;
        for (const auto& a : spec.arrays) {
            if (a.resident_in != level) continue;
            named.push_back(a.name);
        }
        if (named.empty()) continue;
        const CacheCapacity* cap = capacity_of(capacities, level);
        if (!cap) {
            out.push_back({ResidencyProblem::Kind::no_such_level, level, named, 0, 0});
            continue;
        }
        for (const auto& a : spec.arrays) {
            if (a.resident_in != level) continue;
            const auto f = operand_footprint(a, spec);
            if (f && f->exact) {
                sized.push_back(a.name);
                exact += team_bytes(a, *f, *cap);
            } else {
                unsized.push_back(a.name);
                if (f) most += f->bytes;
                else bounded = false;
            }
        }
        if (exact > cap->bytes) {
            out.push_back({ResidencyProblem::Kind::too_small, level, sized, exact, cap->bytes});
        } else if (!unsized.empty() && bounded && exact + most > cap->bytes) {
            out.push_back({ResidencyProblem::Kind::unchecked, level, unsized, most, cap->bytes - exact});
        }
    }
    return out;
}

std::optional<CacheFit> fit_in_cache(const KernelSpec& spec, const std::vector<CacheCapacity>& capacities) {
    CacheFit fit;
    fit.exact = true;
    bool any_free = false;
    std::vector<std::pair<const ArraySpec*, Footprint>> operands;
    for (const auto& a : spec.arrays) {
        if (a.resident_in == "registers" || a.non_temporal) continue;
        const auto f = operand_footprint(a, spec);
        if (!f) return std::nullopt;  // a size not known: nothing can be said
        operands.emplace_back(&a, *f);
        fit.exact = fit.exact && f->exact;
        any_free = any_free || !a.resident_given;
    }
    if (!any_free) return std::nullopt;
    for (const auto& c : capacities) {  // innermost first
        fit.footprint = 0;
        for (const auto& [a, f] : operands) fit.footprint += team_bytes(*a, f, c);
        if (fit.footprint > c.bytes) continue;
        fit.level = c.level;
        fit.capacity = c.bytes;
        fit.placed = spec;
        for (auto& a : fit.placed.arrays)
            if (!a.resident_given && !a.non_temporal && depth_of(a.resident_in) > depth_of(c.level)) {
                a.resident_in = c.level;
                fit.moved.push_back(a.name);
            }
        if (fit.moved.empty()) return std::nullopt;
        return fit;
    }
    return std::nullopt;
}

std::vector<ReusedOperand> reused_outside_their_cache(const KernelSpec& placed,
                                                      const std::vector<CacheCapacity>& capacities) {
    std::vector<ReusedOperand> out;
    if (!placed.iterations) return out;
    for (const auto& a : placed.arrays) {
        if (a.resident_given || a.non_temporal || a.resident_in == "registers" || !a.elements || !(*a.elements > 0))
            continue;
        const double accesses = (a.reads_per_iteration + a.writes_per_iteration) * *placed.iterations;
        if (!(accesses > *a.elements)) continue;  // each element touched once at most: nothing to keep
        const double bytes = *a.elements * a.element_bytes;
        for (const auto& c : capacities) {  // innermost first
            if (team_bytes(a, {bytes, true}, c) > c.bytes) continue;
            if (depth_of(c.level) < depth_of(a.resident_in))
                out.push_back({a.name, c.level, a.resident_in.empty() ? "memory" : a.resident_in, bytes, *a.elements,
                               accesses, c.bytes});
            break;
        }
    }
    return out;
}

} // namespace roofline
