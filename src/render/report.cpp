#include "render/report.hpp"

#include "core/cut_off_point.hpp"
#include "core/llc_occupancy.hpp"
#include "core/name_table.hpp"
#include "core/rep_string_stores.hpp"
#include "render/advice_text.hpp"
#include "render/csv.hpp"
#include "render/number_format.hpp"
#include "render/short_names.hpp"
#include "render/text_escape.hpp"
#include "render/timing_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string_view>

namespace roofline {
namespace {

// ---------------------------------------------------------------- shared wording

std::string ceiling_unit(const Roofline& r, const Ceiling& c) {
    return c.kind == CeilingKind::compute ? rate_unit(r.work_unit) : "GB/s";
}
std::string factor(double value) { return format_number(value) + "x"; }

std::string ceiling_text(const Roofline& r, const Ceiling& c) {
    return fmt::format("{} ({}, {} {})", c.name, ceiling_kind_name(c.kind), format_number(c.value), ceiling_unit(r, c));
}

std::string bound_text(const Analysis& a) {
    return a.memory_bound ? fmt::format("{} (memory)", a.binding_roof) : fmt::format("{} (compute)", a.binding_roof);
}

// With its DRAM bytes at their upper bound the DRAM roof would bind it lower (core/dram_may_bind).
std::string may_bind_text(const Analysis& a) {
    return dram_may_bind_text(*a.dram_may_bind, a.binding_roof, a.attainable,
                              fmt::format("L{}", a.llc_near_full->llc_level));
}

std::string headroom_text(const Analysis& a) {
    std::string text;
    for (const auto& h : a.headroom) {
        if (!text.empty()) text += ", ";
        text += fmt::format("{} {}", h.roof, factor(h.factor));
    }
    return text;
}

// "DP peak 102 GFLOP/s, L1 load 400 GB/s, ...": the roofs every point is placed under.
std::string roofs_text(const Roofline& r) {
    std::string text = fmt::format("{} {} {}", r.compute.name, format_number(r.compute.value), rate_unit(r.work_unit));
    for (const auto& roof : r.bandwidth) text += fmt::format(", {} {} GB/s", roof.name, format_number(roof.value));
    return text;
}

std::vector<std::string> next_steps_text(const Roofline& r, const Analysis& a) {
    std::vector<std::string> out;
    for (const auto& step : a.next_steps) out.push_back(next_step_text(r, step));
    return out;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += separator;
        out += items[i];
    }
    return out;
}

// "dp, 2 threads, CARM view" (only the parts that are known).
std::string context_text(const Roofline& r, std::optional<View> view) {
    std::vector<std::string> parts;
    if (!r.precision.empty()) parts.push_back(r.precision);
    if (r.threads > 0) parts.push_back(fmt::format("{} thread{}", r.threads, r.threads == 1 ? "" : "s"));
    if (view) {
        std::string name = view_name(*view);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::toupper(ch); });
        parts.push_back(name + " view");
    }
    return join(parts, ", ");
}

std::string title_text(const Roofline& r, std::optional<View> view) {
    const auto context = context_text(r, view);
    const auto label = r.label.empty() ? std::string("unnamed machine") : r.label;
    return context.empty() ? label : fmt::format("{} ({})", label, context);
}

// ---------------------------------------------------------------- text

enum class Align { left, right };

// Columns padded to their widest cell, two spaces apart, no trailing blanks.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows, const std::vector<Align>& align) {
    std::vector<std::size_t> widths(align.size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c > 0) line += "  ";
            line += align[c] == Align::left ? fmt::format("{:<{}}", row[c], widths[c])
                                            : fmt::format("{:>{}}", row[c], widths[c]);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

// The intensity with the level whose bytes it is over ("0.0838 (L3)"): a point's intensity is at
// its binding level, or for a compute-bound one its last, so one column holds several levels' (the
// Markdown table gave an L3 figure beside a DRAM one, and measure's table the L1 one, unsaid).
std::string intensity_cell(const Analysis& a) {
    return a.intensity_level.empty() ? format_number(a.intensity)
                                     : fmt::format("{} ({})", format_number(a.intensity), a.intensity_level);
}

std::string render_text(const std::vector<Analysis>& analyses, const Roofline& r, std::optional<View> view,
                        const std::vector<std::string>& interrupted, bool moved,
                        const std::vector<MeasuredElsewhere>& elsewhere) {
    std::string out = fmt::format("Roofline report: {}\n", terminal_text(title_text(r, view)));
    if (!interrupted.empty()) out += terminal_text(partial_points_text(interrupted)) + "\n";
    if (!elsewhere.empty()) out += "Measured elsewhere: " + terminal_text(measured_elsewhere_text(elsewhere)) + "\n";
    out += fmt::format("Roofs: {}\n\n", terminal_text(roofs_text(r)));
    // Points that only moved data follow in a section of their own: not "No points." above them.
    if (analyses.empty()) return moved ? out.substr(0, out.size() - 1) : out + "No points.\n";

    std::vector<std::vector<std::string>> rows;
    rows.push_back({"Point", rate_unit(r.work_unit), intensity_unit(r.work_unit), "Attainable " + rate_unit(r.work_unit), "Efficiency",
                    "Bound by", "Zone"});
    // Escaped before measuring, so the columns still line up; shortened (each still told apart)
    // where a C++ function's name would make every row hundreds of characters: the section
    // below each table gives the name whole.
    std::vector<std::string> names;
    for (const auto& a : analyses) names.push_back(terminal_text(a.point));
    names = short_names(names, 60);
    for (std::size_t i = 0; i < analyses.size(); ++i) {
        const auto& a = analyses[i];
        rows.push_back({names[i], format_number(a.performance), intensity_cell(a),
                        format_number(a.attainable), efficiency_text(a), terminal_text(bound_text(a)),
                        region_name(a.region)});
    }
    out += aligned_table(rows, {Align::left, Align::right, Align::right, Align::right, Align::right, Align::left,
                                Align::left});

    for (const auto& a : analyses) {
        out += fmt::format("\n{}\n", terminal_text(a.point));
        const auto at = a.intensity_level.empty()
                            ? std::string(" (no level's bytes to judge)")
                            : fmt::format(" at {} {} ({})", format_number(a.intensity), intensity_unit(r.work_unit),
                                          a.intensity_level);
        out += fmt::format("  achieved         {} {}{}\n", format_number(a.performance), rate_unit(r.work_unit), at);
        if (a.timing) out += fmt::format("  timed            {}\n", timing_text(*a.timing));
        if (a.cut_off) out += fmt::format("  {:<17}{}\n", "PARTIAL", cut_off_text(*a.cut_off, true));
        if (a.outside_code) out += fmt::format("  {:<17}{}\n", "not its code", outside_code_text(*a.outside_code));
        out += fmt::format("  attainable       {} {}, bound by {}, efficiency {}\n", format_number(a.attainable),
                           rate_unit(r.work_unit), bound_text(a), efficiency_text(a));
        if (a.above_roof) out += fmt::format("  {:<17}{}\n", a.above_roof->within_spread ? "note" : "WARNING",
                                             above_roof_text(*a.above_roof));
        if (!a.unjudged_levels.empty()) out += fmt::format("  {:<17}{}\n", "not judged", unjudged_levels_text(a));
        if (a.llc_near_full) out += fmt::format("  {:<17}{}\n", "note", llc_near_full_text(*a.llc_near_full));
        if (a.dram_may_bind) out += fmt::format("  {:<17}{}\n", "bound unsure", may_bind_text(a));
        if (a.math_library) out += fmt::format("  {:<17}{}\n", "note", math_library_flops_text(*a.math_library));
        if (a.thread_imbalance)
            out += fmt::format("  {:<17}{}\n", "note", thread_imbalance_text(*a.thread_imbalance));
        if (a.judged_threads) out += fmt::format("  {:<17}{}\n", "threads", judged_threads_text(*a.judged_threads));
        if (a.throughput) out += fmt::format("  {:<17}{}\n", "throughput", throughput_text(*a.throughput, r.work_unit));
        out += fmt::format("  upper ceiling    {}\n",
                           a.upper ? ceiling_text(r, *a.upper) : std::string("none below the roof"));
        out += fmt::format("  lower ceiling    {}\n", a.lower ? ceiling_text(r, *a.lower) : std::string("none"));
        out += fmt::format("  limiting metric  {}\n", limiting_metric_text(r, a));
        if (!a.headroom.empty()) out += fmt::format("  headroom         {}\n", headroom_text(a));
        for (std::size_t i = 0; i < a.next_steps.size(); ++i) {
            out += fmt::format("  {:<17}{}. {}\n", i == 0 ? "next steps" : "", i + 1, next_step_text(r, a.next_steps[i]));
        }
    }
    // Machine-file names (roofs, ceilings, the label) appear inside longer
    // phrases above: the last guard escapes whatever they carry.
    return terminal_block(out);
}

// ---------------------------------------------------------------- markdown

// Markup, "|" and newlines escaped (a row stays one row), controls made visible.
std::string markdown_escape(const std::string& text) { return markdown_text(text); }

std::string render_markdown(const std::vector<Analysis>& analyses, const Roofline& r, std::optional<View> view,
                        const std::vector<std::string>& interrupted, bool moved,
                        const std::vector<MeasuredElsewhere>& elsewhere) {
    std::string out = fmt::format("## Roofline report: {}\n\n", markdown_escape(title_text(r, view)));
    if (!interrupted.empty()) {
        const std::string text = partial_points_text(interrupted);
        out += fmt::format("> **PARTIAL**{}\n\n", markdown_escape(text.substr(std::string("PARTIAL").size())));
    }
    if (!elsewhere.empty())
        out += fmt::format("> **Measured elsewhere**: {}\n\n", markdown_escape(measured_elsewhere_text(elsewhere)));
    out += fmt::format("Roofs: {}\n\n", markdown_escape(roofs_text(r)));
    if (analyses.empty()) return moved ? out.substr(0, out.size() - 1) : out + "No points.\n";

    out += fmt::format("| Point | {} | {} | Attainable {} | Efficiency | Bound by | Upper ceiling | Lower ceiling | "
                       "Limiting metric |\n",
                       rate_unit(r.work_unit), intensity_unit(r.work_unit), rate_unit(r.work_unit));
    out += "|---|---:|---:|---:|---:|---|---|---|---|\n";
    for (const auto& a : analyses) {
        out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_escape(a.point),
                           format_number(a.performance), markdown_escape(intensity_cell(a)), format_number(a.attainable),
                           markdown_escape(efficiency_text(a)), markdown_escape(bound_text(a)),
                           a.upper ? markdown_escape(ceiling_text(r, *a.upper)) : "none",
                           a.lower ? markdown_escape(ceiling_text(r, *a.lower)) : "none",
                           markdown_escape(limiting_metric_text(r, a)));
    }
    out += "\n";
    for (const auto& a : analyses) {
        out += fmt::format("- **{}**: {}, efficiency {}\n", markdown_escape(a.point), region_name(a.region),
                           markdown_escape(efficiency_text(a)));
        if (a.timing) out += fmt::format("  - timed: {}\n", markdown_escape(timing_text(*a.timing)));
        if (a.cut_off) out += fmt::format("  - PARTIAL: {}\n", markdown_escape(cut_off_text(*a.cut_off, true)));
        if (a.outside_code)
            out += fmt::format("  - not its code: {}\n", markdown_escape(outside_code_text(*a.outside_code)));
        if (a.above_roof) out += fmt::format("  - {}\n", markdown_escape(above_roof_text(*a.above_roof)));
        if (!a.unjudged_levels.empty()) out += fmt::format("  - not judged: {}\n", markdown_escape(unjudged_levels_text(a)));
        if (a.llc_near_full) out += fmt::format("  - note: {}\n", markdown_escape(llc_near_full_text(*a.llc_near_full)));
        if (a.dram_may_bind) out += fmt::format("  - bound unsure: {}\n", markdown_escape(may_bind_text(a)));
        if (a.math_library) out += fmt::format("  - note: {}\n", markdown_escape(math_library_flops_text(*a.math_library)));
        if (a.thread_imbalance)
            out += fmt::format("  - note: {}\n", markdown_escape(thread_imbalance_text(*a.thread_imbalance)));
        if (a.judged_threads)
            out += fmt::format("  - threads: {}\n", markdown_escape(judged_threads_text(*a.judged_threads)));
        if (a.throughput)
            out += fmt::format("  - throughput: {}\n", markdown_escape(throughput_text(*a.throughput, r.work_unit)));
        if (!a.headroom.empty()) out += fmt::format("  - headroom: {}\n", markdown_escape(headroom_text(a)));
        for (std::size_t i = 0; i < a.next_steps.size(); ++i) {
            out += fmt::format("  - next {}: {}\n", i + 1, markdown_escape(next_step_text(r, a.next_steps[i])));
        }
    }
    return terminal_block(out);
}

// ---------------------------------------------------------------- csv

void append_ceiling_fields(std::vector<std::string>& fields, const Roofline& r, const std::optional<Ceiling>& c) {
    if (!c) {
        fields.insert(fields.end(), {"", "", "", "", ""});
        return;
    }
    fields.insert(fields.end(), {ceiling_kind_name(c->kind), c->category, c->name, exact_number(c->value), ceiling_unit(r, *c)});
}

std::vector<std::string> csv_header(const Roofline& r) {
    return {"point", fmt::format("performance ({})", rate_unit(r.work_unit)),
            fmt::format("intensity ({})", intensity_unit(r.work_unit)), "intensity level",
            fmt::format("attainable ({})", rate_unit(r.work_unit)), "efficiency", "binding roof",
            "binding level", "memory bound", "region", "upper ceiling type",
            "upper ceiling category", "upper ceiling name", "upper ceiling value",
            "upper ceiling unit", "lower ceiling type", "lower ceiling category",
            "lower ceiling name", "lower ceiling value", "lower ceiling unit", "limiting metric",
            "headroom", "next steps", "above roof"};
}

// One row per point, after `lead` (the sectioned report's roofline column).
std::string csv_rows(const std::vector<Analysis>& analyses, const Roofline& r, const std::vector<std::string>& lead) {
    std::string out;
    for (const auto& a : analyses) {
        std::vector<std::string> fields = lead;
        fields.insert(fields.end(), {a.point,
                                     exact_number(a.performance),
                                     exact_number(a.intensity),
                                     a.intensity_level,
                                     exact_number(a.attainable),
                                     exact_number(a.efficiency),
                                     a.binding_roof,
                                     a.binding_level,
                                     a.memory_bound ? "yes" : "no",
                                     region_name(a.region)});
        append_ceiling_fields(fields, r, a.upper);
        append_ceiling_fields(fields, r, a.lower);
        fields.push_back(limiting_metric_text(r, a));
        std::vector<std::string> headroom;
        for (const auto& h : a.headroom) headroom.push_back(fmt::format("{}: {}", h.roof, exact_number(h.factor)));
        fields.push_back(join(headroom, "; "));
        fields.push_back(join(next_steps_text(r, a), "; "));
        fields.push_back(a.above_roof ? above_roof_text(*a.above_roof) : "");
        out += csv_row(fields);
    }
    return out;
}

std::string render_csv(const std::vector<Analysis>& analyses, const Roofline& r) {
    return csv_row(csv_header(r)) + csv_rows(analyses, r, {});
}

// ---------------------------------------------------------------- json
// ordered_json: keys in the order written (schema first), not sorted.

nlohmann::ordered_json number_json(double value) {
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json ceiling_json(const Roofline& r, const std::optional<Ceiling>& c) {
    if (!c) return nullptr;
    return {{"name", c->name},     {"kind", ceiling_kind_name(c->kind)},   {"category", c->category},   {"level", c->level},
            {"value", number_json(c->value)}, {"unit", ceiling_unit(r, *c)}, {"advice", ceiling_advice(r, *c)}};
}

// Each next step as data, in the order of next_steps: its kind (next_step_kind_name), the
// ceiling it lifts, and the figure that led to it (a share of the counts, or a rate cap).
nlohmann::ordered_json next_steps_typed_json(const Roofline& r, const Analysis& a) {
    auto steps = nlohmann::ordered_json::array();
    for (const auto& s : a.next_steps) {
        nlohmann::ordered_json step = {{"kind", next_step_kind_name(s.kind)}};
        // reach_compute carries a ceiling where the point's counted mix caps it below the roof.
        const bool mix_cap = s.kind == NextStep::Kind::reach_compute && !s.ceiling.name.empty();
        if (s.kind == NextStep::Kind::lift_ceiling || s.kind == NextStep::Kind::one_kind_mix || mix_cap)
            step["ceiling"] = ceiling_json(r, s.ceiling);
        if (s.kind == NextStep::Kind::one_kind_mix || mix_cap)
            step["operation"] = s.operation, step["operation_share"] = number_json(s.share);
        if (!s.level.empty()) step["level"] = s.level;
        if (s.kind == NextStep::Kind::vectorize) step["scalar_share"] = number_json(s.share);
        if (s.kind == NextStep::Kind::vectorize) {
            step["reduction"] = s.reduction;
            step["in_math_library"] = s.in_math_library;
        }
        if (s.kind == NextStep::Kind::split_chain) {
            step["store_share"] = number_json(s.share);
            // the width of a chain of vectors; null for a scalar one
            step["vector_bits"] = s.operation.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(std::atoi(s.operation.c_str()));
        }
        if (s.kind == NextStep::Kind::raise_intensity && s.share > 0) step["lines_used_share"] = number_json(s.share);
        if (s.kind == NextStep::Kind::leave_x87) step["x87_share"] = number_json(s.share);
        if (s.kind == NextStep::Kind::call_overhead) {
            step["calls"] = number_json(s.calls);
            step["flops_per_call"] = number_json(s.flops_per_call);
            step["instructions_per_call"] = number_json(s.instructions_per_call);
        }
        if (s.kind == NextStep::Kind::library_code) step["library"] = s.operation, step["roof"] = s.roof;
        if (s.kind == NextStep::Kind::non_temporal_stores) step["unread_write_allocate_share"] = number_json(s.share);
        if (s.cap > 0) step["cap"] = number_json(s.cap);
        steps.push_back(std::move(step));
    }
    return steps;
}

nlohmann::ordered_json throughput_json(const std::optional<BusThroughput>& t) {
    if (!t) return nullptr;
    return {{"bus", t->bus},
            {"throughput_intensity", number_json(t->intensity)},
            {"memory_level", t->memory_level},
            {"memory_intensity", t->memory_level.empty() ? nullptr : number_json(t->memory_intensity)},
            {"coefficient", t->memory_level.empty() ? nullptr : number_json(t->coefficient)}};
}

// How the point's seconds were taken (measure --repeat): the fastest of `runs`, their spread
// (slowest / fastest - 1); null when the point does not say (one run before --repeat, a kernel).
nlohmann::ordered_json timing_json(const std::optional<TimingSummary>& t) {
    if (!t) return nullptr;
    return {{"statistic", "min"},
            {"runs", t->runs},
            {"spread", t->runs > 1 ? number_json(t->spread()) : nlohmann::ordered_json(nullptr)},
            {"seconds_median", t->runs > 1 ? number_json(t->median) : nlohmann::ordered_json(nullptr)},
            {"seconds_slowest", t->runs > 1 ? number_json(t->slowest) : nlohmann::ordered_json(nullptr)},
            {"warmup_runs", t->warmup_runs}};
}

// A point whose region a signal cut off (core/cut_off_point): the signal, its name and the note;
// null when it was not cut off.
nlohmann::ordered_json cut_off_json(const std::optional<int>& sig, bool counted) {
    if (!sig) return nullptr;
    return {{"signal", *sig}, {"signal_name", signal_text(*sig)}, {"note", cut_off_text(*sig, counted)}};
}

// A point whose data fills most of the simulated LLC: the figures behind the note and its text;
// null when it has none.
nlohmann::ordered_json dram_lower_bound_json(const std::optional<LlcNearFull>& n) {
    if (!n) return nullptr;
    return {{"touched_bytes", number_json(n->touched_bytes)},
            // a marker region opened on different data: the union over its openings (touched_bytes
            // is its working set); null when not larger
            {"touched_all_openings_bytes", n->touched_all_openings_bytes > 0
                                               ? number_json(n->touched_all_openings_bytes)
                                               : nlohmann::ordered_json(nullptr)},
            {"touched_counted", n->touched_counted},
            {"touched_from", touched_from_name(n->touched_from)},
            {"llc_level", fmt::format("L{}", n->llc_level)},
            {"llc_bytes", number_json(n->llc_bytes)},
            {"llc_instances", n->instances > 0 ? nlohmann::ordered_json(n->instances) : nlohmann::ordered_json(nullptr)},
            {"llc_cores_per_instance",
             n->cores_per_instance > 0 ? nlohmann::ordered_json(n->cores_per_instance) : nlohmann::ordered_json(nullptr)},
            {"threads", n->threads},
            // whose threads those are: the point's, or (a function's or loop's point, whose threads
            // are not counted) those the program or its marker region ran
            {"threads_of", !n->threads_of_enclosing ? "point" : n->enclosing_is_region ? "region" : "program"},
            {"llc_instances_used", n->instances_used},
            {"capacity_bytes", number_json(n->capacity_bytes)},
            {"share", number_json(n->share)},
            {"note", llc_near_full_text(*n)}};
}

nlohmann::ordered_json dram_may_bind_json(const Analysis& a) {
    if (!a.dram_may_bind) return nullptr;
    const DramMayBind& d = *a.dram_may_bind;
    return {{"roof", d.roof},
            {"attainable", number_json(d.attainable)},
            {"intensity", number_json(d.intensity)},
            {"dram_bytes", number_json(d.dram_bytes)},
            {"dram_bytes_upper", number_json(d.dram_bytes_upper)},
            {"upper_from_time", d.upper_from_time},
            {"note", may_bind_text(a)}};
}

// Shares of the point's time its code did not spend (0: under the threshold); null when none is.
nlohmann::ordered_json outside_code_json(const std::optional<TimeOutsideCode>& t) {
    if (!t) return nullptr;
    return {{"kernel_share", number_json(t->kernel_share)},
            {"others_cpus", number_json(t->others_cpus)},
            {"steal_share", number_json(t->steal_share)},
            {"text", outside_code_text(*t)}};
}

nlohmann::ordered_json above_roof_json(const std::optional<AboveRoof>& above) {
    if (!above) return nullptr;
    nlohmann::ordered_json causes = nlohmann::ordered_json::array();
    for (auto c : above->causes) causes.push_back(above_roof_cause_text(c));
    return {{"excess", number_json(above->excess)},
            {"tolerance", number_json(above->tolerance)},
            {"within_spread", above->within_spread},
            {"text", above_roof_text(*above)},
            {"likely_causes", causes}};
}

// A point that moves data under half of every level's roof is not held back by bandwidth: said,
// with where its time may go and what lifts the first, only when it has bytes judged at every
// level the roofline has a roof for (ORM judges DRAM alone; a point may have bytes at some levels
// only): otherwise it is said to be under half of the roofs of the levels measured, no more. ""
// when a level is at half its roof or more, or above it (then nothing is judged).
std::string moved_data_advice(const DataMovement& m) {
    const bool far_under = std::all_of(m.levels.begin(), m.levels.end(), [](const LevelBandwidth& t) {
        return !t.above_roof && t.share < 0.5;
    });
    if (!far_under || m.nearest_level.empty() || m.above_roof()) return {};
    if (!m.unjudged_levels.empty()) {
        std::vector<std::string> measured;
        for (const auto& t : m.levels) measured.push_back(t.level);
        return fmt::format("Under half of the roofs of the levels measured ({}); {} {} not judged here, so this does not "
                           "say whether bandwidth holds it back",
                           join(measured, ", "), join(m.unjudged_levels, ", "),
                           m.unjudged_levels.size() == 1 ? "is" : "are");
    }
    return "Under half of every level's roof, so bandwidth is not what holds it back: its time goes to how it reaches "
           "memory (strided or random accesses, short runs the prefetchers do not follow, page walks, loads waiting on "
           "loads) or to other work (integer work, waiting, I/O); for the first, make accesses contiguous, block them "
           "into tiles a cache holds, or prefetch";
}

// The levels of a point with no work whose bandwidth is above their roof; empty when none is.
std::vector<std::string> above_roof_levels(const DataMovement& m) {
    std::vector<std::string> out;
    for (const auto& t : m.levels)
        if (t.above_roof) out.push_back(t.level);
    return out;
}

// "Not judged: its reading at L2 cannot be true ..." for a point with a level above its roof; "" otherwise.
std::string moved_data_unjudged_text(const DataMovement& m) {
    const auto above = above_roof_levels(m);
    if (above.empty()) return {};
    return fmt::format("Not judged: its reading at {} is above the roof, which cannot be, so no level is called its "
                       "bound",
                       join(above, ", "));
}

nlohmann::ordered_json report_json(const std::vector<Analysis>& analyses, const Roofline& r, std::optional<View> view,
                                   const std::vector<std::string>& interrupted,
                                   const std::vector<NotJudged>& not_judged, const std::vector<MovedData>& moved,
                                   const std::vector<MeasuredElsewhere>& elsewhere = {}) {
    using json = nlohmann::ordered_json;
    json out;
    out["schema"] = "roofline.report/1";
    out["partial"] = !interrupted.empty();  // points from an interrupted run: some may be missing
    out["interrupted_runs"] = interrupted;
    // Sets measured on another host or CPU than the roofs': a script can tell before trusting an efficiency.
    out["measured_elsewhere"] = json::array();
    for (const auto& e : elsewhere)
        out["measured_elsewhere"].push_back({{"set", e.set},
                                             {"host", e.host},
                                             {"cpu", e.cpu},
                                             {"machine_host", e.machine_host},
                                             {"machine_cpu", e.machine_cpu}});
    if (!elsewhere.empty()) out["measured_elsewhere_note"] = measured_elsewhere_text(elsewhere);
    json bandwidth = json::array();
    for (const auto& roof : r.bandwidth)
        bandwidth.push_back({{"name", roof.name}, {"level", roof.level}, {"gbs", number_json(roof.value)}});
    out["roofline"] = {{"label", r.label},
                       {"work_unit", r.work_unit},
                       {"precision", r.precision},
                       {"threads", r.threads},
                       {"view", view ? json(view_name(*view)) : json(nullptr)},
                       {"compute", {{"name", r.compute.name}, {"value", number_json(r.compute.value)}}},
                       {"bandwidth", bandwidth}};
    out["units"] = {{"performance", rate_unit(r.work_unit)}, {"intensity", intensity_unit(r.work_unit)}, {"bandwidth", "GB/s"}};
    json points = json::array();
    for (const auto& a : analyses) {
        json headroom = json::array();
        for (const auto& h : a.headroom)
            headroom.push_back(
                {{"roof", h.roof}, {"attainable", number_json(h.attainable)}, {"factor", number_json(h.factor)}});
        points.push_back({{"point", a.point},
                          {"performance", number_json(a.performance)},
                          {"intensity", number_json(a.intensity)},
                          {"intensity_level", a.intensity_level},
                          {"unjudged_levels", a.unjudged_levels},
                          {"attainable", number_json(a.attainable)},
                          {"efficiency", number_json(a.efficiency)},
                          {"binding_roof", a.binding_roof},
                          {"binding_level", a.binding_level},
                          {"memory_bound", a.memory_bound},
                          {"region", region_name(a.region)},
                          {"upper_ceiling", ceiling_json(r, a.upper)},
                          {"lower_ceiling", ceiling_json(r, a.lower)},
                          {"limiting_metric", limiting_metric_text(r, a)},
                          {"headroom", headroom},
                          {"next_steps", next_steps_text(r, a)},
                          {"next_steps_typed", next_steps_typed_json(r, a)},
                          {"above_roof", above_roof_json(a.above_roof)},
                          {"throughput", throughput_json(a.throughput)},
                          {"timing", timing_json(a.timing)},
                          {"cut_off", cut_off_json(a.cut_off, true)},
                          {"outside_code", outside_code_json(a.outside_code)},
                          {"dram_lower_bound", dram_lower_bound_json(a.llc_near_full)},
                          {"dram_may_bind", dram_may_bind_json(a)},
                          {"math_library_flops",
                           a.math_library ? nlohmann::ordered_json{{"flops", number_json(a.math_library->flops)},
                                                                  {"share", number_json(a.math_library->share)},
                                                                  {"note", math_library_flops_text(*a.math_library)}}
                                          : nlohmann::ordered_json(nullptr)},
                          {"thread_imbalance",
                           a.thread_imbalance
                               ? nlohmann::ordered_json{{"busiest", number_json(a.thread_imbalance->busiest)},
                                                        {"total", number_json(a.thread_imbalance->total)},
                                                        {"unit", a.thread_imbalance->bytes ? "bytes" : "FLOPs"},
                                                        {"threads_working", a.thread_imbalance->threads_working},
                                                        {"ratio", number_json(a.thread_imbalance->ratio)},
                                                        {"note", thread_imbalance_text(*a.thread_imbalance)}}
                               : nlohmann::ordered_json(nullptr)},
                          // It ran more threads than its run was allowed CPUs: judged by the CPUs (threads),
                          // on the roofline's count (roofline_threads); null where its own count judged it.
                          {"judged_threads",
                           a.judged_threads
                               ? nlohmann::ordered_json{{"threads", a.judged_threads->threads},
                                                        {"point_threads", a.judged_threads->point_threads},
                                                        {"cpus_allowed", a.judged_threads->threads},
                                                        {"roofline_threads", a.judged_threads->roofline_threads},
                                                        {"why", judged_threads_text(*a.judged_threads)}}
                               : nlohmann::ordered_json(nullptr)}});
    }
    out["points"] = points;
    json skipped = json::array();
    for (const auto& n : not_judged)
        skipped.push_back({{"point", n.point}, {"reason", n.reason}, {"cut_off", cut_off_json(n.cut_off, false)}});
    out["not_judged"] = skipped;
    json movements = json::array();
    for (const auto& m : moved) {
        json levels = json::array();
        for (const auto& t : m.movement.levels)
            levels.push_back({{"level", t.level},
                              {"bytes", number_json(t.bytes)},
                              {"gbs", number_json(t.gbs)},
                              {"roof", t.roof},
                              {"roof_gbs", number_json(t.roof_gbs)},
                              {"share", number_json(t.share)},
                              {"above_roof", t.above_roof}});
        const std::string advice = moved_data_advice(m.movement);
        const std::string unjudged = moved_data_unjudged_text(m.movement);
        movements.push_back({{"point", m.point},
                             {"nearest_level", m.movement.nearest_level.empty() ? json(nullptr) : json(m.movement.nearest_level)},
                             {"levels", levels},
                             {"unjudged_levels", m.movement.unjudged_levels},
                             {"judged", unjudged.empty()},
                             {"next_step", advice.empty() ? json(nullptr) : json(advice)},
                             {"dram_lower_bound", dram_lower_bound_json(m.movement.llc_near_full)}});
    }
    out["data_movement"] = movements;
    return out;
}

// Invalid UTF-8 in a name (a symbol, a command line) becomes U+FFFD instead of throwing.
std::string dump(const nlohmann::ordered_json& j) {
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace

namespace {

// The points not judged, grouped by reason in their order: "Not judged (3 points):" then a line a
// reason naming its points (the first 20, then how many more). Empty when there are none.
std::string not_judged_text(const std::vector<NotJudged>& not_judged, bool markdown) {
    if (not_judged.empty()) return {};
    std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;
    for (const auto& n : not_judged) {
        auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == n.reason; });
        // A point cut off by a signal says so beside its name (core/cut_off_point).
        const std::string name = n.cut_off ? fmt::format("{} (cut off by {})", n.point, signal_text(*n.cut_off)) : n.point;
        if (it == by_reason.end()) by_reason.push_back({n.reason, {name}});
        else it->second.push_back(name);
    }
    std::string out = fmt::format("\nNot judged ({} point{}):\n", not_judged.size(), not_judged.size() == 1 ? "" : "s");
    for (const auto& [reason, names] : by_reason) {
        std::vector<std::string> shown(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 20));
        std::string list = join(shown, ", ");
        if (names.size() > shown.size()) list += fmt::format(", and {} more", names.size() - shown.size());
        out += markdown ? fmt::format("- {}: {}\n", markdown_escape(reason), markdown_escape(list))
                        : fmt::format("  {}: {}\n", reason, list);
    }
    return markdown ? out : terminal_block(out);
}

// The points that only moved data: a line each, the level nearest its roof first ("nearest its
// roof at DRAM 10.9 GB/s, 17.2% of DRAM copy+WA (63.5 GB/s); L1 7.40 GB/s, 1.0% of L1 triad
// (718 GB/s)"), a level above its roof said as such. Empty when there are none.
std::string moved_data_text(const std::vector<MovedData>& moved, const std::string& work_unit, bool markdown) {
    if (moved.empty()) return {};
    const auto level_text = [](const LevelBandwidth& t, const DataMovement& m) {
        return fmt::format("{} {} GB/s, {} of {} ({} GB/s){}", t.level, format_number(t.gbs), format_percent(t.share),
                           t.roof, format_number(t.roof_gbs),
                           t.above_roof ? fmt::format(": ABOVE the roof, which cannot be ({})",
                                                      above_roof_level_causes(m, t.level))
                                        : "");
    };
    // The word report's notes use for the roofline's work (bit ops and exchanges are not FLOPs).
    const std::string work = work_unit == "FLOP" ? "FLOPs" : "work";
    std::string out = fmt::format("\nData movement only ({} point{} with no {}: bandwidth at each level against its "
                                  "roof; the level nearest its roof is the likely bound):\n",
                                  moved.size(), moved.size() == 1 ? "" : "s", work);
    for (const auto& m : moved) {
        std::vector<std::string> parts;
        const LevelBandwidth* nearest = nullptr;
        for (const auto& t : m.movement.levels)
            if (t.level == m.movement.nearest_level) nearest = &t;
        if (nearest) parts.push_back("nearest its roof at " + level_text(*nearest, m.movement));
        for (const auto& t : m.movement.levels)
            if (&t != nearest) parts.push_back(level_text(t, m.movement));
        std::string line = join(parts, "; ");
        if (const std::string advice = moved_data_advice(m.movement); !advice.empty()) line += ". " + advice;
        if (const std::string unjudged = moved_data_unjudged_text(m.movement); !unjudged.empty()) line += ". " + unjudged;
        if (m.movement.llc_near_full) line += ". Note: " + llc_near_full_text(*m.movement.llc_near_full);
        if (m.movement.rep_string_fill) line += ". Note: " + rep_string_fill_text(*m.movement.rep_string_fill);
        out += markdown ? fmt::format("- **{}**: {}\n", markdown_escape(m.point), markdown_escape(line))
                        : "  " + terminal_text(m.point + ": " + line) + "\n";
    }
    return out;
}

} // namespace

std::string render_report(const std::vector<Analysis>& analyses, const Roofline& roofline, ReportFormat format,
                          std::optional<View> view, const std::vector<std::string>& interrupted,
                          const std::vector<NotJudged>& not_judged, const std::vector<MovedData>& moved,
                          const std::vector<MeasuredElsewhere>& elsewhere) {
    switch (format) {
    case ReportFormat::text:
        return render_text(analyses, roofline, view, interrupted, !moved.empty(), elsewhere) +
               moved_data_text(moved, roofline.work_unit, false) +
               not_judged_text(not_judged, false);
    case ReportFormat::markdown:
        return render_markdown(analyses, roofline, view, interrupted, !moved.empty(), elsewhere) +
               moved_data_text(moved, roofline.work_unit, true) +
               not_judged_text(not_judged, true);
    case ReportFormat::csv: return render_csv(analyses, roofline);
    case ReportFormat::json: return dump(report_json(analyses, roofline, view, interrupted, not_judged, moved, elsewhere));
    }
    throw std::invalid_argument("unknown report format");
}

std::string render_sectioned_report(const std::vector<ReportSection>& sections, ReportFormat format,
                                    std::optional<View> view, const std::vector<std::string>& interrupted) {
    std::string out;
    switch (format) {
    case ReportFormat::text:
    case ReportFormat::markdown:
        if (!interrupted.empty())
            out = format == ReportFormat::text ? terminal_text(partial_points_text(interrupted)) + "\n"
                                               : "> " + markdown_escape(partial_points_text(interrupted)) + "\n";
        for (const auto& s : sections) {
            if (!out.empty()) out += "\n";
            out += format == ReportFormat::text ? fmt::format("== {} ==\n", terminal_text(s.name))
                                                : fmt::format("## {}\n\n", markdown_escape(s.name));
            out += render_report(s.analyses, s.roofline, format, view, {}, s.not_judged, s.moved);
        }
        return out;
    case ReportFormat::csv: {
        if (sections.empty()) return out;
        auto header = csv_header(sections.front().roofline);
        header.insert(header.begin(), "roofline");
        out = csv_row(header);
        for (const auto& s : sections) out += csv_rows(s.analyses, s.roofline, {s.name});
        return out;
    }
    case ReportFormat::json: {
        nlohmann::ordered_json doc;
        doc["schema"] = "roofline.sectioned-report/1";
        doc["partial"] = !interrupted.empty();
        doc["interrupted_runs"] = interrupted;
        doc["sections"] = nlohmann::ordered_json::array();
        for (const auto& s : sections)
            doc["sections"].push_back(
                {{"name", s.name}, {"report", report_json(s.analyses, s.roofline, view, interrupted, s.not_judged, s.moved)}});
        return dump(doc);
    }
    }
    throw std::invalid_argument("unknown report format");
}

std::string partial_points_text(const std::vector<std::string>& interrupted) {
    if (interrupted.empty()) return {};
    return fmt::format("PARTIAL: the points come from {} that stopped before {} end, so the points {} had not measured "
                       "yet are missing: {}",
                       interrupted.size() == 1 ? "a run" : "runs", interrupted.size() == 1 ? "its" : "their",
                       interrupted.size() == 1 ? "it" : "they", join(interrupted, "; "));
}

namespace {
constexpr NameTable<ReportFormat, 4> kFormatNames{{{ReportFormat::text, "text"},
                                                   {ReportFormat::markdown, "markdown"},
                                                   {ReportFormat::csv, "csv"},
                                                   {ReportFormat::json, "json"}}};
} // namespace

const char* report_format_name(ReportFormat format) { return name_of(kFormatNames, format); }

ReportFormat parse_report_format(const std::string& name) {
    if (const auto format = value_of(kFormatNames, name)) return *format;
    throw std::invalid_argument(fmt::format("unknown report format '{}' (expected text, markdown, csv or json)", name));
}

} // namespace roofline
