#include "render/comparison_text.hpp"

#include "core/cut_off_point.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace roofline {
namespace {

using nlohmann::json;

json figure_json(const std::optional<SpreadFigure>& f) {
    if (!f) return nullptr;
    json j{{"value", f->value}};
    j["spread"] = f->spread_known ? json(f->spread) : json(nullptr);
    if (f->spread_known) j["spread_from"] = spread_source_name(f->source);
    return j;
}

// A roof's evidence beside its figure: bursts (kept, set aside), samples, CV, stable.
json roof_figure_json(const std::optional<SpreadFigure>& f) {
    json j = figure_json(f);
    if (!f) return j;
    if (f->bursts > 0) j["bursts"] = f->bursts;
    if (f->set_aside > 0) j["bursts_set_aside"] = f->set_aside;
    if (f->runs > 0) j["samples"] = f->runs;
    if (f->cv > 0) j["cv"] = f->cv;
    j["stable"] = !f->unstable;
    return j;
}

// "A's CV", "B's top bursts", "floor", "none recorded": what the band of a pair is made of.
std::string band_source_text(const SpreadFigure& a, const SpreadFigure& b) {
    const BandSource s = band_source(a, b);
    if (s.side) return fmt::format("{}'s {}", s.side, spread_source_name(s.source));
    return s.floor ? "floor" : "none recorded";
}

// The band of B/A (or of a step's ratio) that is no change, as JSON.
json band_json(double threshold) {
    const ChangeBand band = change_band(threshold);
    return {{"low", band.low}, {"high", band.high}};
}

std::string band_text(double threshold) {
    const ChangeBand band = change_band(threshold);
    return fmt::format("{:.3f}-{:.3f}", band.low, band.high);
}

// "59.1 (spread 0.4%)": the spread is the whole width its repeats fell in, relative to it.
std::string figure_text(const std::optional<SpreadFigure>& f) {
    if (!f) return "-";
    return f->spread_known ? fmt::format("{} (spread {})", format_number(f->value), format_percent(f->spread))
                           : format_number(f->value);
}

// A roof: "44.6 (8 bursts, CV 13.9%)", "505 (4 bursts + 2 set aside, CV 8.0%, unstable)",
// "133 (4 bursts, top bursts 2.8%)": its evidence, and its spread named by what it is.
std::string roof_figure_text(const std::optional<SpreadFigure>& f) {
    if (!f) return "-";
    std::vector<std::string> parts;
    if (f->bursts > 0)
        parts.push_back(fmt::format("{} burst{}{}", f->bursts, f->bursts == 1 ? "" : "s",
                                    f->set_aside > 0 ? fmt::format(" + {} set aside", f->set_aside) : ""));
    else if (f->runs > 0)
        parts.push_back(fmt::format("{} run{}", f->runs, f->runs == 1 ? "" : "s"));
    if (f->spread_known) parts.push_back(fmt::format("{} {}", spread_source_name(f->source), format_percent(f->spread)));
    if (f->unstable) parts.push_back("unstable");
    if (parts.empty()) return format_number(f->value);
    std::string inside;
    for (const auto& p : parts) inside += (inside.empty() ? "" : ", ") + p;
    return fmt::format("{} ({})", format_number(f->value), inside);
}

// "unstable in A (CV 8.0%): not judged": a roof its run did not call stable.
std::string unstable_text(const SpreadFigure& a, const SpreadFigure& b) {
    const auto side = [](const SpreadFigure& f) {
        return f.cv > 0 ? fmt::format(" (CV {})", format_percent(f.cv)) : std::string();
    };
    if (a.unstable && b.unstable) return fmt::format("unstable in A{} and B{}: not judged", side(a), side(b));
    return a.unstable ? fmt::format("unstable in A{}: not judged", side(a))
                      : fmt::format("unstable in B{}: not judged", side(b));
}

// A pair of points without a rate on a side (no FLOPs counted, or no time): nothing to judge.
std::string no_rate_text(const PointChange& p, const std::string& work_unit) {
    const bool in_a = !(p.a->performance.value > 0), in_b = !(p.b->performance.value > 0);
    return fmt::format("not judged: no {} rate in {}", rate_unit(work_unit),
                       in_a && in_b ? "A or B" : in_a ? "A" : "B");
}

// "B cut off by SIGINT", "A and B cut off by SIGINT": the sides of a pair a signal cut off.
std::string cut_off_sides_text(const PointChange& p) {
    const auto& a = p.a->cut_off;
    const auto& b = p.b->cut_off;
    if (a && b)
        return *a == *b ? fmt::format("A and B cut off by {}", signal_text(*a))
                        : fmt::format("A cut off by {}, B by {}", signal_text(*a), signal_text(*b));
    return fmt::format("{} cut off by {}", a ? "A" : "B", signal_text(a ? *a : *b));
}

// A pair not judged: a side cut off by a signal (its time only a part of a run), or without a rate.
std::string not_judged_text(const PointChange& p, const std::string& work_unit) {
    if (p.cut_off()) return "not judged: " + cut_off_sides_text(p);
    return no_rate_text(p, work_unit);
}

std::string change_text(double ratio, double threshold, bool significant) {
    if (!(ratio > 0)) return "";
    if (!significant) return fmt::format("same (B/A inside {})", band_text(threshold));
    return fmt::format("{} ({:+.0f}%)", ratio > 1 ? "FASTER" : "SLOWER", (ratio - 1) * 100);
}

// The words every comparison ends with: what counts as a change.
constexpr const char* kChangeRule =
    "a change counts when the ratio leaves the band 1/(1+s) to 1+s, s the larger spread of the two figures "
    "(at least 5% for a roof, 2% for a point; 5% where no spread was recorded), so a slowdown counts as soon as "
    "the speedup by the same factor would. A roof's spread is the wider of the CV of its bursts' samples and how "
    "far apart its two best bursts landed; a roof its run marked unstable is not judged";

// Columns padded to their widest cell; the last column is not padded.
std::string table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], row[i].size());
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i)
            line += i + 1 == row.size() ? row[i] : fmt::format("{:<{}}  ", row[i], width[i]);
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

// A side whose point is above its roof beyond the roof's spread: a measurement error, not
// a change to explain (report and plot say the same of it).
std::string above_roof_text(const PointChange& c) {
    std::string out;
    for (const auto& [side, point] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}}) {
        if (!*point || !(*point)->analysis) continue;
        const auto& above = (*point)->analysis->above_roof;
        if (!above || above->within_spread) continue;
        out += fmt::format("{}{} is ABOVE ITS ROOF ({} of it)", out.empty() ? "" : "; ", side,
                           format_percent((*point)->analysis->efficiency));
    }
    return out.empty() ? out : out + ": a measurement error, not a result (roofline report says what may cause it)";
}

// "the work: B did x2.00 A's FLOPs in x2.07 its time (rate x0.967)": why a pair is judged on its time.
std::string work_text(const WorkChange& w, const std::string& work_unit) {
    return fmt::format("B did x{:.2f} A's {}s in x{:.2f} its time (rate x{:.3f})", w.work_ratio, work_unit,
                       w.time_ratio, w.time_ratio > 0 ? w.work_ratio / w.time_ratio : 0.0);
}

std::string cause_text(const PointChange& c, const std::string& work_unit) {
    if (const std::string above = above_roof_text(c); !above.empty()) return above;
    if (c.by_time && c.work) return "the work: " + work_text(*c.work, work_unit);
    if (c.cause.empty() || !c.roof_ratio || !c.efficiency_ratio) return "";
    const auto& a = *c.a->analysis;
    const auto& b = *c.b->analysis;
    const std::string roof = a.binding_roof == b.binding_roof
                                 ? fmt::format("{} allows x{:.2f}", b.binding_roof, *c.roof_ratio)
                                 : fmt::format("bound by {} in A, {} in B (x{:.2f})", a.binding_roof, b.binding_roof,
                                               *c.roof_ratio);
    const std::string efficiency =
        fmt::format("efficiency {} -> {}", format_percent(a.efficiency), format_percent(b.efficiency));
    if (c.cause == "roof") return "the roof: " + roof;
    if (c.cause == "efficiency") return "the code or run: " + efficiency;
    return "both: " + roof + "; " + efficiency;
}

// WHY: the cause, and for sets of different command lines that the runs were not alike.
std::string why_text(const PointChange& c, bool commands_differ, const std::string& work_unit) {
    std::string cause = cause_text(c, work_unit);
    // A side whose region a signal cut off (core/cut_off_point): its figure is of the part that ran.
    for (const auto& [letter, side] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}})
        if (*side && (*side)->cut_off)
            cause = fmt::format("{} cut off by {} (its time only the part that ran){}", letter,
                                signal_text(*(*side)->cut_off), cause.empty() ? "" : "; " + cause);
    // Another command line's work may differ (another input): said, its rate still judged.
    if (c.work && !c.by_time) cause += (cause.empty() ? "" : "; ") + work_text(*c.work, work_unit);
    if (!commands_differ || !c.significant) return cause;
    return cause.empty() ? "other command line" : "other command line; " + cause;
}

// A point's verdict: on its rate, or on its time where its work changed (PointChange::by_time).
std::string point_change_text(const PointChange& p) {
    if (!p.by_time || !p.work) return change_text(p.ratio, p.threshold, p.significant);
    if (!p.significant) return fmt::format("same time (B/A of time inside {})", band_text(p.threshold));
    return fmt::format("{} (time {:+.0f}%)", p.slower() ? "SLOWER" : "FASTER", (p.work->time_ratio - 1) * 100);
}

// Said under the tables when a pair or a step was judged on its time.
constexpr const char* kWorkRule =
    "A point whose counted work differs beyond that band did other work (a pass added or removed): its rate "
    "alone would hide the time it takes, so it is judged on its time (seconds B/A), with the same band";


// "dp peak 8t", "DRAM bandwidth 8t": a sheet's figure as the tables name it.
std::string spec_figure_name(const SpecMatch& m) {
    return fmt::format("{} {} {}t", m.what, m.compute ? "peak" : "bandwidth", m.spec_threads);
}

// How many threads the matched roof ran, against the sheet's count and the machine's.
std::string spec_threads_text(const SpecMatch& m, int machine_threads) {
    if (!m.sheet_all) return fmt::format("{} (the sheet's)", m.measured_threads);
    const int all = machine_threads > 0 ? machine_threads : m.model_threads;
    if (m.measured_threads >= all) return fmt::format("all ({})", m.measured_threads);
    return fmt::format("{} of {} (the most measured)", m.measured_threads, all);
}

std::string spec_verdict_text(const SpecMatch& m) {
    if (m.verdict == SpecVerdict::unmatched) return "not matched: " + m.why_unmatched;
    // The band above the sheet's figure that is still 'at' it: the measured spread, or 5% unrecorded.
    const std::string band = m.measured && m.measured->spread_known && m.measured->spread >= kMinimumChange
                                 ? fmt::format("the measured spread, {}", format_percent(m.threshold))
                             : m.measured && m.measured->spread_known
                                 ? fmt::format("{}, the least change that counts", format_percent(m.threshold))
                                 : fmt::format("{}, no spread recorded", format_percent(m.threshold));
    std::string v;
    if (m.verdict == SpecVerdict::below) v = fmt::format("below: {} of the sheet's", format_percent(m.ratio));
    else if (m.verdict == SpecVerdict::at) v = fmt::format("at the sheet's (above it within {})", band);
    else
        v = fmt::format("ABOVE THE SHEET'S ({:+.0f}%, beyond {}): the sheet or the measurement is wrong",
                        (m.ratio - 1) * 100, band);
    if (m.measured && m.measured->unstable) v += "; unstable in its run: likely low";
    return v;
}

json spec_comparison_json(const SpecComparison& c) {
    json j{{"spec_side", c.spec_is_a ? "A" : "B"},
           {"sheet_threads", c.sheet_cores},
           {"machine_threads", c.machine_threads > 0 ? json(c.machine_threads) : json(nullptr)},
           {"ratio_is", "measured / spec"},
           {"figures", json::array()},
           {"not_in_sheet", json::array()},
           {"ceilings_not_compared", c.ceilings_not_compared},
           {"matched", c.matched()},
           {"above", c.above()}};
    for (const auto& m : c.matches) {
        json e{{"figure", spec_figure_name(m)},
               {"kind", m.compute ? "compute" : "memory"},
               {m.compute ? "precision" : "level", m.what},
               {"unit", m.unit},
               {"spec", m.spec},
               {"spec_threads", m.spec_threads},
               {"at_sheet_threads", m.sheet_all},
               {"measured_roof", m.measured_key.empty() ? json(nullptr) : json(m.measured_key)},
               {"measured", roof_figure_json(m.measured)},
               {"ratio", m.ratio > 0 ? json(m.ratio) : json(nullptr)},
               {"verdict", spec_verdict_name(m.verdict)}};
        if (m.verdict != SpecVerdict::unmatched) {
            e["measured_threads"] = m.measured_threads;
            e["model_threads"] = m.model_threads;
            e["threshold"] = m.threshold;
        } else {
            e["why_unmatched"] = m.why_unmatched;
        }
        j["figures"].push_back(std::move(e));
    }
    for (const auto& n : c.not_in_sheet)
        j["not_in_sheet"].push_back({{"kind", n.compute ? "compute" : "memory"},
                                     {n.compute ? "precision" : "level", n.what},
                                     {"measured_roof", n.measured_key},
                                     {"measured", n.measured},
                                     {"unit", n.unit}});
    return j;
}

// The sheet's figures beside the measured roofs they were matched to, what was not, and what
// a measured roof above a sheet's figure means.
std::string spec_comparison_text(const SpecComparison& c) {
    const char* sheet = c.spec_is_a ? "A" : "B";
    const char* model = c.spec_is_a ? "B" : "A";
    std::string out = fmt::format(
        "\n{} is a spec sheet: its figures are as written in it, none measured. Each is matched to {}'s measured roof "
        "that answers it: a peak to the best compute roof of its precision (any ISA and op mix), a bandwidth to the "
        "best roof of its level (any pattern, nominal bytes); a figure at the sheet's own thread count ({}) at the "
        "most threads {} measured, one at another count at that count. MEASURED/SPEC: the measured figure over the "
        "sheet's.\n",
        sheet, model, c.sheet_cores, model);
    if (c.machine_threads > 0 && c.sheet_cores > 0 && c.machine_threads != c.sheet_cores)
        out += fmt::format("The sheet's figures are for {} thread{}; {}'s machine has {}: whole machines are compared, "
                           "not per thread.\n",
                           c.sheet_cores, c.sheet_cores == 1 ? "" : "s", model, c.machine_threads);
    std::vector<std::vector<std::string>> rows{
        {"SPEC FIGURE", "UNIT", "SPEC", fmt::format("MEASURED ROOF ({})", model), "THREADS", "MEASURED", "MEASURED/SPEC", "VERDICT"}};
    for (const auto& m : c.matches) {
        const bool found = m.verdict != SpecVerdict::unmatched;
        rows.push_back({terminal_text(spec_figure_name(m)), terminal_text(m.unit), format_number(m.spec),
                        found ? m.measured_key : "-", found ? spec_threads_text(m, c.machine_threads) : "-",
                        roof_figure_text(m.measured), m.ratio > 0 ? fmt::format("{:.3f}", m.ratio) : "-",
                        terminal_text(spec_verdict_text(m))});
    }
    out += table(rows);
    // A whole machine's figure beside a roof of fewer threads: 'below' is owed to that too.
    const std::size_t fewer = static_cast<std::size_t>(std::count_if(c.matches.begin(), c.matches.end(), [&](const SpecMatch& m) {
        return m.verdict != SpecVerdict::unmatched && m.sheet_all &&
               m.measured_threads < (c.machine_threads > 0 ? c.machine_threads : m.model_threads);
    }));
    if (fewer > 0)
        out += fmt::format("{} of the sheet's figures {} matched at fewer threads than the machine has (the model "
                           "measured no more): below the sheet's is owed to that too; 'roofline bench' at all threads "
                           "compares the whole machine.\n",
                           fewer, fewer == 1 ? "was" : "were");
    for (const bool compute : {true, false}) {
        std::vector<std::string> names;
        for (const auto& n : c.not_in_sheet)
            if (n.compute == compute)
                names.push_back(fmt::format("{} ({} {} {})", terminal_text(n.what), terminal_text(n.measured_key),
                                            format_number(n.measured), n.unit));
        if (names.empty()) continue;
        out += fmt::format("Measured, not on the sheet: {}: the sheet gives no {} of {}.\n", fmt::join(names, ", "),
                           compute ? "peak" : "bandwidth",
                           names.size() == 1 ? (compute ? "this precision" : "this level")
                                             : (compute ? "these precisions" : "these levels"));
    }
    if (c.ceilings_not_compared > 0)
        out += fmt::format("Not compared: the sheet's {} ceiling{} (its own figures below its peaks, not what the "
                           "machine can reach at best).\n",
                           c.ceilings_not_compared, c.ceilings_not_compared == 1 ? "" : "s");
    std::size_t below = 0, at = 0, above = 0, unmatched = 0;
    for (const auto& m : c.matches) {
        switch (m.verdict) {
        case SpecVerdict::below: ++below; break;
        case SpecVerdict::at: ++at; break;
        case SpecVerdict::above: ++above; break;
        case SpecVerdict::unmatched: ++unmatched; break;
        }
    }
    out += fmt::format("\n{} below the sheet's figure, {} at it, {} above it, {} not matched.\n", below, at, above,
                       unmatched);
    if (above > 0)
        out += "A measured roof above the sheet's figure beyond its own spread cannot be true of both: the sheet is not "
               "this machine's (other cores, clocks or memory, or a figure understated), or the measurement is wrong "
               "(a timer or clock, work or bytes miscounted); find which before trusting either.\n";
    return out;
}
} // namespace

ComparedCount compared_count(const ComparisonInput& input) {
    ComparedCount n;
    if (input.spec) {  // a figure of the sheet matched to a measured roof is compared and judged
        n.pairs += input.spec->matched();
        n.judged += input.spec->matched();
    }
    for (const auto& r : input.roofs)
        if (r.a && r.b) {
            ++n.pairs;
            n.judged += r.judged();
        }
    for (const auto& p : input.points)
        if (p.a && p.b) {
            ++n.pairs;
            n.judged += p.judged();
        }
    return n;
}

std::string nothing_compared_text(const ComparisonInput& input) {
    const ComparedCount n = compared_count(input);
    if (n.judged > 0) return {};
    if (input.spec && !input.have_points)
        return fmt::format("nothing compared: no figure of the spec sheet ({} of them) has a measured roof to match it",
                           input.spec->matches.size());
    const std::string what = input.have_roofs && input.have_points ? "roof or point"
                             : input.have_points                   ? "point"
                                                                   : "roof";
    if (n.pairs == 0) {
        std::size_t in_a = 0, in_b = 0;
        for (const auto& r : input.roofs) in_a += r.a.has_value(), in_b += r.b.has_value();
        for (const auto& p : input.points) in_a += p.a.has_value(), in_b += p.b.has_value();
        return fmt::format("nothing compared: no {} of A is in B (A has {}, B has {}){}", what, in_a, in_b,
                           in_a == 0 && in_b == 0 ? "; both are empty"
                           : in_a == 0           ? "; A is empty"
                           : in_b == 0           ? "; B is empty"
                                                 : "");
    }
    bool unstable = false, no_rate = false, cut_off = false;
    for (const auto& r : input.roofs) unstable = unstable || (r.a && r.b && !r.judged());
    for (const auto& p : input.points) {
        cut_off = cut_off || p.cut_off();
        no_rate = no_rate || (p.a && p.b && !p.judged() && !p.cut_off());
    }
    std::vector<std::string> why;
    if (unstable) why.push_back("is unstable in A or B");
    if (no_rate) why.push_back("has no rate (no FLOPs) in A or B");
    if (cut_off) why.push_back("was cut off by a signal in A or B (its time only the part that ran)");
    return fmt::format("nothing judged: each of the {} {}{} in both runs {}", n.pairs, what, n.pairs == 1 ? "" : "s",
                       fmt::join(why, ", or "));
}

std::string render_comparison(const ComparisonInput& input, bool as_json) {
    if (as_json) {
        json j{{"schema", "roofline.comparison/1"}, {"a", input.label_a}, {"b", input.label_b}};
        if (input.have_roofs) {
            j["roofs"] = json::array();
            for (const auto& r : input.roofs) {
                json e{{"roof", r.key},
                       {"unit", r.unit},
                       {"a", roof_figure_json(r.a)},
                       {"b", roof_figure_json(r.b)},
                       {"ratio", r.ratio > 0 ? json(r.ratio) : json(nullptr)},
                       {"threshold", r.threshold},
                       {"changed", r.significant}};
                if (r.a && r.b) {
                    e["band"] = band_json(r.threshold);
                    e["band_from"] = band_source_text(*r.a, *r.b);
                    e["judged"] = r.judged();
                }
                if (r.working_set_a > 0) e["working_set_bytes_a"] = r.working_set_a;
                if (r.working_set_b > 0) e["working_set_bytes_b"] = r.working_set_b;
                if (r.other_working_set) e["other_working_set"] = true;  // the other run's is another roof
                j["roofs"].push_back(std::move(e));
            }
        }
        if (input.spec) j["spec_comparison"] = spec_comparison_json(*input.spec);
        if (!input.command_a.empty()) {
            j["command_a"] = input.command_a;
            j["command_b"] = input.command_b;
        }
        if (input.have_points) {
            j["measured_elsewhere"] = json::array();
            for (const auto& [side, e] : input.elsewhere)
                j["measured_elsewhere"].push_back({{"side", side},
                                                   {"set", e.set},
                                                   {"host", e.host},
                                                   {"cpu", e.cpu},
                                                   {"machine_host", e.machine_host},
                                                   {"machine_cpu", e.machine_cpu},
                                                   {"note", measured_elsewhere_text({e})}});
        }
        if (input.have_points) {
            j["points"] = json::array();
            for (const auto& p : input.points) {
                json e{{"point", p.name},
                       {"a", p.a ? figure_json(p.a->performance) : json(nullptr)},
                       {"b", p.b ? figure_json(p.b->performance) : json(nullptr)},
                       {"ratio", p.ratio > 0 ? json(p.ratio) : json(nullptr)},
                       {"threshold", p.threshold},
                       {"changed", p.significant},
                       {"cause", p.cause.empty() ? json(nullptr) : json(p.cause)}};
                if (p.judged()) e["band"] = band_json(p.threshold);
                if (p.a && p.b) e["judged"] = p.judged();
                // Why a pair of both runs was not judged: "B cut off by SIGINT", "no rate in A".
                if (p.a && p.b && !p.judged())
                    e["not_judged"] = p.cut_off() ? cut_off_sides_text(p)
                                                  : not_judged_text(p, input.work_unit).substr(sizeof("not judged: ") - 1);
                if (p.repeated) e["occurrence"] = p.occurrence;  // the k-th point of that name in its run
                if (!p.name_b.empty()) e["point_b"] = p.name_b;  // B's name for it (matched by meaning)
                if (p.work) {
                    e["work_ratio"] = p.work->work_ratio;
                    e["time_ratio"] = p.work->time_ratio;
                }
                e["judged_on"] = p.by_time ? "time" : "rate";
                // The signal a side's region was cut off by (core/cut_off_point), null for none.
                e["cut_off"] = {{"a", p.a && p.a->cut_off ? json(signal_text(*p.a->cut_off)) : json(nullptr)},
                                {"b", p.b && p.b->cut_off ? json(signal_text(*p.b->cut_off)) : json(nullptr)}};
                e["slower"] = p.slower();
                if (p.roof_ratio) e["roof_ratio"] = *p.roof_ratio;
                if (p.efficiency_ratio) e["efficiency_ratio"] = *p.efficiency_ratio;
                for (const auto& [side, point] : {std::pair{"a", &p.a}, std::pair{"b", &p.b}}) {
                    if (!*point || !(*point)->analysis) continue;
                    e[std::string("binding_roof_") + side] = (*point)->analysis->binding_roof;
                    e[std::string("efficiency_") + side] = (*point)->analysis->efficiency;
                    if (const auto& above = (*point)->analysis->above_roof)
                        e[std::string("above_roof_") + side] = {{"excess", above->excess},
                                                                 {"tolerance", above->tolerance},
                                                                 {"within_spread", above->within_spread}};
                }
                j["points"].push_back(std::move(e));
            }
        }
        const ComparedCount n = compared_count(input);
        j["compared"] = {{"pairs", n.pairs}, {"judged", n.judged}};
        return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    }
    std::string out = fmt::format("A: {}\nB: {}\n", terminal_text(input.label_a), terminal_text(input.label_b));
    const bool commands_differ = !input.command_a.empty();
    if (commands_differ)
        out += fmt::format("The command lines differ: A ran {}, B ran {}; a change may come from the program or its "
                           "input, not only from the build or the machine (history keeps them apart)\n",
                           terminal_text(input.command_a), terminal_text(input.command_b));
    for (const auto& [side, e] : input.elsewhere)
        out += fmt::format("Measured elsewhere: {}: {}\n", side, terminal_text(measured_elsewhere_text({e})));
    std::size_t faster = 0, slower = 0, same = 0, one_side = 0, unjudged = 0, no_rate = 0, cut_off = 0;
    const auto count = [&](bool is_slower, bool significant, bool both, bool judged = true, bool rated = true,
                           bool was_cut_off = false) {
        if (!both) ++one_side;
        else if (was_cut_off) ++cut_off;
        else if (!rated) ++no_rate;
        else if (!judged) ++unjudged;
        else if (!significant) ++same;
        else ++(is_slower ? slower : faster);
    };
    bool any_by_work = false;
    if (input.have_roofs) {
        std::vector<std::vector<std::string>> rows{{"ROOF", "UNIT", "A", "B", "B/A", "BAND FROM", "CHANGE"}};
        bool other_working_sets = false;
        for (const auto& r : input.roofs) {
            other_working_sets = other_working_sets || r.other_working_set;
            const std::string elsewhere = r.other_working_set ? " (the other run's is at another working set)" : "";
            rows.push_back({r.key, r.unit, roof_figure_text(r.a), roof_figure_text(r.b),
                            r.ratio > 0 ? fmt::format("{:.3f}", r.ratio) : "-",
                            r.judged() ? band_source_text(*r.a, *r.b) : "-",
                            !r.a          ? "only in B" + elsewhere
                            : !r.b        ? "only in A" + elsewhere
                            : !r.judged() ? unstable_text(*r.a, *r.b)
                                          : change_text(r.ratio, r.threshold, r.significant)});
            count(r.ratio < 1, r.significant, r.a && r.b, r.judged());
        }
        out += fmt::format("\nRoofs (each figure with its bursts, those set aside (threads found sharing a core), and "
                           "its spread: the CV of its bursts' samples or how far apart its two best bursts landed, "
                           "the wider; BAND FROM: whose spread set the band, or the 5% floor):\n{}",
                           table(rows));
        if (other_working_sets)
            out += "A memory roof named 'at SIZE' was measured at working sets the other run did not measure (bench "
                   "--working-set, --dram-size): another roof than the other run's, so the two are not compared.\n";
        // Two machines without a roof in common (two spec sheets at other thread counts; a model
        // beside a sheet is matched figure by figure instead, ComparisonInput::spec): said as such.
        const bool a_has = std::any_of(input.roofs.begin(), input.roofs.end(), [](const RoofChange& r) { return r.a.has_value(); });
        const bool b_has = std::any_of(input.roofs.begin(), input.roofs.end(), [](const RoofChange& r) { return r.b.has_value(); });
        const bool none_shared = std::none_of(input.roofs.begin(), input.roofs.end(),
                                              [](const RoofChange& r) { return r.a && r.b; });
        if (a_has && b_has && none_shared)
            out += "No roof of A has a counterpart in B, so nothing above is compared: roofs are matched by "
                   "precision, ISA, op mix and threads (compute) and by level, pattern and threads (memory), and "
                   "a spec sheet's are its peak ('spec best') and one bandwidth a level, at its own thread counts. "
                   "Set them side by side on one chart instead: roofline plot --machine A --machine B.\n";
    }
    if (input.spec) out += spec_comparison_text(*input.spec);
    if (input.have_points) {
        const std::string unit = rate_unit(input.work_unit);
        std::vector<std::vector<std::string>> rows{{"POINT", "A " + unit, "B " + unit, "B/A", "CHANGE", "WHY"}};
        bool any_repeated = false, any_renamed = false;
        for (const auto& p : input.points) {
            any_repeated = any_repeated || p.repeated;
            any_renamed = any_renamed || !p.name_b.empty();
            std::string name = p.repeated ? fmt::format("{} #{}", p.name, p.occurrence) : p.name;
            if (!p.name_b.empty()) name += " = " + p.name_b;
            rows.push_back({terminal_text(name),
                            p.a ? figure_text(p.a->performance) : "-",
                            p.b ? figure_text(p.b->performance) : "-",
                            p.ratio > 0 ? fmt::format("{:.3f}", p.ratio) : "-",
                            !p.a         ? "only in B"
                            : !p.b       ? "only in A"
                            : !p.judged() ? not_judged_text(p, input.work_unit)
                                          : point_change_text(p),
                            why_text(p, commands_differ, input.work_unit)});
            count(p.slower(), p.significant, p.a && p.b, true, p.judged(), p.cut_off());
            any_by_work = any_by_work || p.work;
        }
        out += fmt::format("\nPoints (matched by name{}{}; {}; a figure's spread: the range of its timed runs):\n{}",
                           any_repeated ? ", and points of one name (NAME #k) by their order in each run" : "",
                           any_renamed ? ", then A = B where only a compiler suffix or '<function ...>' differs" : "",
                           input.judged ? "each judged on its own machine's roofline"
                                        : "not judged: no machine model, so WHY cannot tell a moved roof from a "
                                          "changed efficiency (give --machine, or store one with 'roofline bench')",
                           table(rows));
    }
    // A spec sheet beside a model alone: its own summary said it all; the change rule is of runs.
    if (input.spec && !input.have_roofs && !input.have_points) {
        if (std::string none = nothing_compared_text(input); !none.empty()) {
            none[0] = 'N';
            out += none + ".\n";
        }
        return out;
    }
    out += fmt::format("\n{} faster, {} slower, {} within their spread, {}{}{}{} in one run only.\n", faster, slower,
                       same, unjudged > 0 ? fmt::format("{} not judged (unstable), ", unjudged) : "",
                       no_rate > 0 ? fmt::format("{} not judged (no rate), ", no_rate) : "",
                       cut_off > 0 ? fmt::format("{} not judged (cut off by a signal), ", cut_off) : "", one_side);
    if (std::string none = nothing_compared_text(input); !none.empty()) {
        none[0] = 'N';  // a sentence of its own here
        out += none + ".\n";
    }
    out += fmt::format("B/A: B's figure over A's; {}.\n", kChangeRule);
    if (any_by_work) out += fmt::format("{}{}.\n", kWorkRule,
                                        commands_differ ? " (of one command line; here the command lines differ, so "
                                                          "the rate is judged and the work is said in WHY)"
                                                        : "");
    return out;
}

std::string nothing_judged_in_latest_run_text(const HistoryInput& input) {
    if (input.figures.empty()) return "nothing judged: the history holds no figure";
    std::size_t absent = 0, unstable = 0, no_rate = 0, cut_off = 0, nothing_before = 0;
    for (const auto& h : input.figures) {
        switch (h.latest()) {
        case FigureHistory::Latest::judged: return {};
        case FigureHistory::Latest::absent: ++absent; break;
        case FigureHistory::Latest::unstable: ++unstable; break;
        case FigureHistory::Latest::no_rate: ++no_rate; break;
        case FigureHistory::Latest::cut_off: ++cut_off; break;
        case FigureHistory::Latest::nothing_before: ++nothing_before; break;
        }
    }
    const auto& runs = input.figures.front().runs;  // every figure has every run
    if (runs.empty()) return "nothing judged: the history holds no run";
    // The latest run as the RUNS table numbers it, with its id in the store ("run 3, #12").
    const std::string label = runs.back().run.substr(0, runs.back().run.find(' '));
    const std::string latest = fmt::format("run {}{}", runs.size(), label.empty() ? "" : ", " + terminal_text(label));
    if (runs.size() == 1)
        return fmt::format("nothing judged: the history holds one run ({}), with no run before it to judge it against",
                           latest);
    const std::size_t n = input.figures.size();
    std::vector<std::string> why;
    const auto add = [&](std::size_t count, const char* what) {
        if (count > 0) why.push_back(fmt::format("{} of {} {}", count, n, what));
    };
    add(unstable, "unstable in it");
    add(no_rate, "without a rate in it (no FLOPs)");
    add(cut_off, "cut off by a signal in it (its time only the part that ran)");
    add(absent, "not in it");
    add(nothing_before, "in no run before it that has it stable, with a rate and not cut off");
    return fmt::format("nothing judged: no figure of the latest run ({}) was judged against a run before it: {}",
                       latest, fmt::join(why, ", "));
}

std::string render_history(const HistoryInput& input, bool as_json) {
    if (as_json) {
        json j{{"schema", "roofline.history/1"}, {"what", input.what}, {"figures", json::array()}};
        for (const auto& h : input.figures) {
            json runs = json::array();
            // cut_off: the signal that cut the point's region off in that run (its figure only the part
            // that ran; the run is in `unjudged`), null where none did.
            for (const auto& r : h.runs)
                runs.push_back({{"run", r.run},
                                {"figure", roof_figure_json(r.figure)},
                                {"cut_off", r.cut_off ? json(signal_text(*r.cut_off)) : json(nullptr)}});
            json changes = json::array();
            for (const auto& c : h.changes)
            {
                json step{{"run", h.runs[c.run].run},
                          {"ratio", c.ratio},
                          {"threshold", c.threshold},
                          {"band", band_json(c.threshold)},
                          {"judged_on", c.work ? "time" : "rate"},
                          {"slower", c.slower()}};
                if (c.work) {
                    step["work_ratio"] = c.work->work_ratio;
                    step["time_ratio"] = c.work->time_ratio;
                }
                changes.push_back(std::move(step));
            }
            json figure{{"figure", h.key}, {"unit", h.unit}, {"runs", runs}, {"changes", changes}};
            if (!h.unjudged.empty()) {  // runs whose figure was unstable, had no rate or was cut off: not judged
                json unjudged = json::array();
                for (const auto i : h.unjudged) unjudged.push_back(h.runs[i].run);
                figure["unjudged"] = std::move(unjudged);
            }
            if (!h.command.empty()) figure["command"] = h.command;
            j["figures"].push_back(std::move(figure));
        }
        return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    }
    std::string out = fmt::format("History of {}, oldest run first:\n", terminal_text(input.what));
    if (!input.figures.empty()) {  // every figure has every run (a run without the figure: none)
        out += fmt::format("\nRUNS\n");
        // A run in which a signal cut off a point's region is marked '*', and the footnote names them.
        std::vector<std::string> cut_off;
        for (std::size_t i = 0; i < input.figures.front().runs.size(); ++i) {
            std::vector<std::string> points;
            for (const auto& h : input.figures)
                if (i < h.runs.size() && h.runs[i].cut_off)
                    points.push_back(fmt::format("'{}' by {}", terminal_text(h.key), signal_text(*h.runs[i].cut_off)));
            out += fmt::format("  {}  {}{}\n", i + 1, terminal_text(input.figures.front().runs[i].run),
                               points.empty() ? "" : "  *");
            if (!points.empty()) cut_off.push_back(fmt::format("run {}: {}", i + 1, fmt::join(points, ", ")));
        }
        if (!cut_off.empty())
            out += fmt::format("  * cut off by a signal ({}): the region was still open when the signal ended the "
                               "program, so the figure is of the part that ran, not a whole run; not judged, nor "
                               "judged against\n",
                               fmt::join(cut_off, "; "));
    }
    // Points measured from a program: each row is one command line's series.
    const bool commands = std::any_of(input.figures.begin(), input.figures.end(),
                                      [](const FigureHistory& h) { return !h.command.empty(); });
    std::vector<std::vector<std::string>> rows{{"FIGURE", "UNIT", "RUNS", "FIRST", "LAST", "MIN", "MAX", "CHANGES"}};
    if (commands) rows.front().insert(rows.front().begin() + 1, "COMMAND LINE");
    std::size_t flagged = 0;
    bool any_by_work = false;
    for (const auto& h : input.figures) {
        std::vector<double> values;
        for (const auto& r : h.runs)
            if (r.figure) values.push_back(r.figure->value);
        if (values.empty()) continue;
        std::string changes;
        for (const auto& c : h.changes) {
            if (c.work) {
                any_by_work = true;
                changes += fmt::format("{}run {}: work x{:.2f}, time {:+.0f}% ({}, rate x{:.3f})",
                                       changes.empty() ? "" : "; ", c.run + 1, c.work->work_ratio,
                                       (c.work->time_ratio - 1) * 100,
                                       c.work->time_changed ? fmt::format("outside {}", band_text(c.threshold))
                                                            : fmt::format("inside {}", band_text(c.threshold)),
                                       c.ratio);
                continue;
            }
            changes += fmt::format("{}run {}: {:+.0f}% (x{:.3f}, outside {})", changes.empty() ? "" : "; ", c.run + 1,
                                   (c.ratio - 1) * 100, c.ratio, band_text(c.threshold));
        }
        // Runs whose figure was unstable or had no rate, in run order among the steps: not judged
        // (nor judged against); a figure with no rate in any run (a point without FLOPs) in one line.
        const bool no_rate_at_all = std::none_of(values.begin(), values.end(), [](double v) { return v > 0; });
        if (no_rate_at_all)
            changes = fmt::format("not judged: no {} rate in any run (no FLOPs counted)", h.unit);
        for (const auto i : h.unjudged) {
            if (no_rate_at_all) break;
            const auto& f = *h.runs[i].figure;
            if (!(f.value > 0))
                changes += fmt::format("{}run {}: no rate, not judged", changes.empty() ? "" : "; ", i + 1);
            else if (h.runs[i].cut_off)
                changes += fmt::format("{}run {}: cut off by {}, not judged", changes.empty() ? "" : "; ", i + 1,
                                       signal_text(*h.runs[i].cut_off));
            else
                changes += fmt::format("{}run {}: unstable{}, not judged", changes.empty() ? "" : "; ", i + 1,
                                       f.cv > 0 ? fmt::format(" (CV {})", format_percent(f.cv)) : "");
        }
        flagged += h.changes.size();
        rows.push_back({terminal_text(h.key), h.unit, std::to_string(values.size()), format_number(values.front()),
                        format_number(values.back()), format_number(*std::min_element(values.begin(), values.end())),
                        format_number(*std::max_element(values.begin(), values.end())),
                        changes.empty() ? "none beyond the spread" : changes});
        if (commands) rows.back().insert(rows.back().begin() + 1, h.command.empty() ? "-" : terminal_text(h.command));
    }
    out += fmt::format("\n{}", table(rows));
    out += fmt::format("\n{} change{} beyond the recorded spread: each run against the run before it that has the "
                       "figure{}, the ratio x of that step; {}.\n",
                       flagged, flagged == 1 ? "" : "s", commands ? " and the same command line" : "", kChangeRule);
    if (std::string none = nothing_judged_in_latest_run_text(input); !none.empty()) {
        none[0] = 'N';  // a sentence of its own here
        out += none + ".\n";
    }
    if (any_by_work) out += fmt::format("{}.\n", kWorkRule);
    return out;
}

} // namespace roofline
