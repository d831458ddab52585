#include "render/model_report.hpp"

#include "core/byte_sizes.hpp"
#include "core/precision.hpp"
#include "render/advice_text.hpp"
#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace roofline {
namespace {

using nlohmann::ordered_json;

// Bytes as KiB ... TiB; a figure past what 64 bits count (elements: 1e30) as a number of
// bytes, not the wrapped cast's "0 B".
std::string bytes_text(double bytes) {
    if (!(bytes < 9.2e18)) return fmt::format("{:.3g} B", bytes);
    return format_bytes(static_cast<std::uint64_t>(std::max(0.0, bytes)));
}

void require_text_or_json(ReportFormat format) {
    if (format != ReportFormat::text && format != ReportFormat::json)
        throw std::invalid_argument(fmt::format("model output is text or json, not {}", report_format_name(format)));
}

std::string bytes_list(const std::map<std::string, double>& per_level) {
    std::string out;
    for (const auto& level : spec_levels())
        if (auto it = per_level.find(level); it != per_level.end())
            out += fmt::format("{}{} {}", out.empty() ? "" : ", ", level, format_count(it->second));
    return out.empty() ? "none (everything in registers)" : out;
}

const char* basis_name(SpecPrecision::Basis b) {
    switch (b) {
    case SpecPrecision::Basis::declared: return "declared";
    case SpecPrecision::Basis::element_types: return "element_types";
    case SpecPrecision::Basis::mixed_types: return "mixed_types";
    case SpecPrecision::Basis::unknown: break;
    }
    return "unknown";
}

const char* choice_name(PrecisionChoice c) {
    switch (c) {
    case PrecisionChoice::own: return "own";
    case PrecisionChoice::asked: return "asked";
    case PrecisionChoice::own_missing: return "own_missing";
    case PrecisionChoice::lower_peak: return "lower_peak";
    case PrecisionChoice::figures: return "figures";
    case PrecisionChoice::not_flop: break;
    }
    return "not_flop";
}

std::string precision_words(const std::string& p) {
    if (p == "dp") return "double precision";
    if (p == "sp") return "single precision";
    if (p == "fp16") return "half precision";
    return precision_label(p);
}

// Why the spec's FLOPs are of their precision, or why it cannot say.
std::string own_reason(const SpecPrecision& own) {
    std::vector<std::string> words;
    for (const auto& t : own.types) words.push_back(precision_words(t));
    switch (own.basis) {
    case SpecPrecision::Basis::declared: return "as the spec declares";
    case SpecPrecision::Basis::element_types:
        return fmt::format("every floating-point operand is {}", precision_words(own.precision));
    case SpecPrecision::Basis::mixed_types:
        return fmt::format("the operands are {} and the spec does not say which FLOPs are which (declare "
                           "'precision:')",
                           fmt::join(words, " and "));
    case SpecPrecision::Basis::unknown: break;
    }
    return "no operand has a floating-point type (declare 'precision:', or give the operands a 'type')";
}

// The spec's own precision with its reason: "SP (every floating-point operand is single precision)".
std::string own_text(const SpecPrecision& own) {
    if (own.precision.empty()) return fmt::format("not known: {}", own_reason(own));
    return fmt::format("{} ({})", precision_label(own.precision), own_reason(own));
}

// The precision line: which compute roof judged the kernel, and why that one.
std::string precision_text(const KernelModelResult& result) {
    const Roofline& r = result.roofline;
    const SpecPrecision& own = result.precision;
    const std::string roof =
        fmt::format("the {} ({} {})", r.compute.name, format_count(r.compute.value), rate_unit(r.work_unit));
    switch (result.choice) {
    case PrecisionChoice::own: return fmt::format("{}: judged on {}", own_text(own), roof);
    case PrecisionChoice::asked:
        if (!own.precision.empty() && own.precision != r.precision)
            return fmt::format("{} (--precision {}), but the spec's FLOPs are {}: judged on another precision's "
                               "peak, {}",
                               precision_label(r.precision), r.precision, own_text(own), roof);
        return fmt::format("{} (--precision {}): judged on {}", precision_label(r.precision), r.precision, roof);
    case PrecisionChoice::own_missing:
        return fmt::format("{}, but the machine has no {} compute roof: judged on the lower peak it has, {}",
                           own_text(own), precision_label(own.precision), roof);
    case PrecisionChoice::lower_peak: return fmt::format("{}: judged on the lower peak, {}", own_text(own), roof);
    case PrecisionChoice::figures:
        return fmt::format("{}: --peak is taken as its peak, {}",
                           own.basis == SpecPrecision::Basis::unknown ? std::string("not stated") : own_text(own), roof);
    case PrecisionChoice::not_flop: break;
    }
    return "";
}

// Whether the view bounds a kernel at `level` (ORM: DRAM only).
bool judges(View view, const std::string& level) { return view != View::orm || level == "DRAM"; }

// Why the compute roof is the one used, after its name and figure.
std::string compute_choice_text(const KernelModelResult& result) {
    const ComputeRoofChoice& c = result.compute_choice;
    const Roofline& r = result.roofline;
    const std::string bits = c.vector_bits > 0 ? fmt::format("{}-bit", c.vector_bits) : std::string("of no known width");
    const std::string wanted = fmt::format("{} bits or narrower{}", c.wanted_bits, c.fma ? "" : ", without FMA");
    switch (c.basis) {
    case ComputeRoofChoice::Basis::widest:
        if (c.vector_bits <= 0) return "the machine's peak (its width not known)";
        return fmt::format("{}, the widest the model has (the spec gives no 'isa:'; code built for narrower "
                           "vectors cannot reach it)",
                           bits);
    case ComputeRoofChoice::Basis::spec_isa:
        return fmt::format("the fastest the model has at {} ('isa: {}')", wanted, c.isa);
    case ComputeRoofChoice::Basis::no_such_width:
        return fmt::format("{}, the fastest the model has: it has no compute roof of {} ('isa: {}'; 'roofline bench "
                           "--full' measures each width), so {} code may not reach it",
                           bits, wanted, c.isa, c.isa);
    case ComputeRoofChoice::Basis::not_flop:
        return fmt::format("as the machine gives it: 'isa: {}' says nothing of a peak in {}", c.isa,
                           rate_unit(r.work_unit));
    case ComputeRoofChoice::Basis::no_model: break;
    }
    return "--peak as given";
}

std::string share_text(double share) { return format_percent(share); }

// Why a level's roof is the one used for the loop, after its name and figure.
std::string level_choice_text(const LevelRoofChoice& c, const std::string& spec_isa) {
    std::string out;
    const std::string stores = c.store_share > 0
                                   ? fmt::format("stores are {} of its bytes there{}", share_text(c.store_share),
                                                 c.non_temporal ? " (non-temporal)" : "")
                                   : std::string("it only loads there");
    switch (c.basis) {
    case LevelRoofChoice::Basis::pattern:
        out = fmt::format("{}, as in {}", stores, c.patterns.front());
        break;
    case LevelRoofChoice::Basis::between:
        out = fmt::format("{}: between {} ({}, {} GB/s) and {} ({}, {} GB/s), their times added for {} and {} "
                          "of the bytes",
                          stores, c.patterns[0], share_text(c.pattern_shares[0]), format_count(c.pattern_gbs[0]),
                          c.patterns[1], share_text(c.pattern_shares[1]), format_count(c.pattern_gbs[1]),
                          share_text(c.weight), share_text(1 - c.weight));
        break;
    case LevelRoofChoice::Basis::fastest_unknown:
        out = "the level's fastest: no roof there has a known access pattern to match the loop's";
        break;
    case LevelRoofChoice::Basis::fastest_no_nt:
        out = fmt::format("the level's fastest: {}, and the model measured no pattern with non-temporal stores there",
                          stores);
        break;
    case LevelRoofChoice::Basis::fastest_beyond:
        out = fmt::format("the level's fastest: {}, and the {}patterns measured there store {} to {}", stores,
                          c.non_temporal ? "non-temporal " : "", share_text(c.min_share), share_text(c.max_share));
        break;
    case LevelRoofChoice::Basis::no_model:
        return "--bw as given, for every pattern";
    }
    if (c.isa_basis == LevelRoofChoice::Isa::spec_trial && c.isa == spec_isa)
        out += fmt::format("; scaled to {} by bench's ISA trials", c.isa);
    else if (c.isa_basis == LevelRoofChoice::Isa::spec_trial)
        out += fmt::format("; scaled by bench's ISA trials to {}, which stands for {} code (bench's memory kernels "
                           "are sse2, avx2 and avx512)",
                           c.isa, spec_isa);
    else if (c.isa_basis == LevelRoofChoice::Isa::no_trial)
        out += fmt::format("; the model has no {} trial of it, so the fastest ISA's figure", c.isa);
    return out;
}

std::string roofs_used_text(const KernelModelResult& result, View view) {
    const Roofline& r = result.roofline;
    std::string out = fmt::format("  roofs used      {} {} {}: {}\n", r.compute.name, format_count(r.compute.value),
                                  rate_unit(r.work_unit), compute_choice_text(result));
    for (const auto& c : result.level_choices)
        if (judges(view, c.level))
            out += fmt::format("                  {} {} GB/s: {}\n", c.roof.name, format_count(c.roof.value),
                           level_choice_text(c, result.compute_choice.isa));
    return out;
}

std::string kernel_text(const KernelModelResult& result, View view) {
    const KernelSpec& k = result.spec;
    const KernelPrediction& p = result.prediction;
    const Roofline& r = result.roofline;
    const std::string rate = rate_unit(r.work_unit);
    // Spec files are anyone's: their names and descriptions reach the terminal escaped.
    std::string out = fmt::format("{}  ({})\n", terminal_text(k.name), terminal_text(result.file));
    if (!k.description.empty()) out += fmt::format("  {}\n", terminal_text(k.description));
    if (result.choice != PrecisionChoice::not_flop && k.work_per_iteration > 0)
        out += fmt::format("  precision       {}\n", precision_text(result));
    const auto bytes = bytes_per_iteration(k);
    const auto nominal = nominal_bytes_per_iteration(k);
    out += fmt::format("  per iteration   {} {}; bytes {}\n", format_count(k.work_per_iteration), k.work_unit,
                       bytes_list(bytes));
    if (bytes != nominal) out += fmt::format("                  (nominal, without write-allocate: {})\n", bytes_list(nominal));
    if (k.work_per_iteration > 0) {
        std::string intensities;
        for (const auto& level : spec_levels())
            if (auto it = p.intensity.find(level); it != p.intensity.end())
                intensities += fmt::format("{}{} {}", intensities.empty() ? "" : ", ", level, format_number(it->second));
        out += fmt::format("  intensity       {} {}\n", intensities.empty() ? "-" : intensities,
                           intensity_unit(k.work_unit));
    }
    if (p.binding_level.empty()) {
        out += fmt::format("  predicted       {} {}, compute-bound ({} {})\n", format_number(p.performance), rate,
                           p.binding_roof, format_count(r.compute.value));
    } else {
        const Roof* roof = nullptr;
        for (const auto& b : r.bandwidth)
            if (b.level == p.binding_level) roof = &b;
        out += fmt::format("  predicted       {} {}, bound by {} ({} GB/s", format_number(p.performance), rate,
                           p.binding_roof, format_count(roof ? roof->value : p.binding_bandwidth_gbs));
        if (k.work_per_iteration > 0)
            out += fmt::format(" x {} {}", format_number(p.intensity.at(p.binding_level)), intensity_unit(k.work_unit));
        out += ")\n";
    }
    out += roofs_used_text(result, view);
    if (result.fit) {
        const CacheFit& f = *result.fit;
        const std::string size = bytes_text(f.footprint);
        // 'per_thread' operands count once in each cache instance the team uses, not once.
        const bool copies = r.threads > 1 && std::any_of(k.arrays.begin(), k.arrays.end(), [](const ArraySpec& a) {
                                return a.per_thread && a.elements && a.resident_in != "registers" && !a.non_temporal;
                            });
        out += fmt::format("  working set     {} ({}{}) fits in {} ({} for {}): {} predicted from {}, as when "
                           "the loop runs again over data it has touched ('resident_in: memory' keeps an operand "
                           "streaming)\n",
                           f.exact ? size : "at most " + size,
                           f.exact ? "the operands' 'elements'"
                                   : fmt::format("the bytes its reads and writes touch over {} iterations",
                                                 format_count(k.iterations.value_or(1))),
                           copies ? ", the 'per_thread' ones once in each cache the threads use" : "",
                           f.level, bytes_text(f.capacity),
                           count_of(std::max(1, r.threads), "thread"), terminal_text(fmt::format("{}", fmt::join(f.moved, ", "))),
                           f.level);
    }
    if (result.from_memory) {
        const KernelPrediction& m = *result.from_memory;
        out += fmt::format("  from memory     {} {}, {} (a first pass over it, caches cold)\n", format_number(m.performance),
                           rate, m.binding_level.empty() ? "compute-bound" : "bound by " + m.binding_roof);
    }
    if (p.seconds) {
        const bool as_written = k.iterations_text.empty() || k.iterations_text == fmt::format("{}", *k.iterations);
        out += fmt::format("  time            {} for {} iterations{}\n", format_seconds(*p.seconds),
                           format_count(*k.iterations), as_written ? "" : " (" + k.iterations_text + ")");
    } else {
        out += fmt::format("  time            {} per iteration (no 'iterations' in the spec)\n",
                           format_seconds(p.seconds_per_iteration));
    }
    if (!p.lifts.empty() || !p.analysis.next_steps.empty()) {
        out += "  would lift it\n";
        for (const auto& lift : p.lifts)
            out += fmt::format("    - {}: {} {}\n", lift_text(lift, k.work_unit), format_number(lift.performance), rate);
        if (p.lifts.empty())
            for (const auto& step : p.analysis.next_steps) out += fmt::format("    - {}\n", next_step_text(r, step));
    }
    if (p.one_chain_performance) {
        const bool one = p.accumulators.size() == 1;
        out += fmt::format("  one chain       {} accumulate{} in a register: compiled without reassociation (no "
                           "-ffast-math) {} one dependent chain of adds, at most {} {} (one add per 2 cycles "
                           "at {} GHz); partial sums or -ffast-math lift that\n",
                           terminal_text(fmt::format("{}", fmt::join(p.accumulators, ", "))), one ? "s" : "",
                           one ? "its adds form" : "each is", format_number(*p.one_chain_performance), rate,
                           format_number(r.clock_ghz));
    }
    const auto unmodelled = unmodelled_effects(k);
    for (std::size_t i = 0; i < unmodelled.size(); ++i)
        out += fmt::format("  {:<16}{}\n", i == 0 ? "not modelled" : "", terminal_text(unmodelled[i]));
    if (!p.must_beat.empty()) {
        std::string names;
        for (const auto& c : p.must_beat)
            names += fmt::format("{}{} ({} {})", names.empty() ? "" : ", ", terminal_text(c.name), format_number(c.value),
                                 c.kind == CeilingKind::bandwidth ? std::string("GB/s") : rate);
        out += fmt::format("  reaching it needs the code above: {}\n", names);
    }
    return out;
}

ordered_json cache_fit_json(const KernelModelResult& result) {
    if (!result.fit) return nullptr;
    const CacheFit& f = *result.fit;
    ordered_json out = {{"level", f.level},
                        {"footprint_bytes", f.footprint},
                        {"exact", f.exact},
                        {"capacity_bytes", f.capacity},
                        {"moved", f.moved}};
    if (result.from_memory) {
        const KernelPrediction& m = *result.from_memory;
        out["from_memory"] = {{"performance", m.performance},
                              {"binding_roof", m.binding_roof},
                              {"binding_level", m.binding_level},
                              {"seconds", m.seconds ? ordered_json(*m.seconds) : ordered_json(nullptr)}};
    }
    return out;
}

const char* compute_basis_name(ComputeRoofChoice::Basis b) {
    switch (b) {
    case ComputeRoofChoice::Basis::widest: return "widest";
    case ComputeRoofChoice::Basis::spec_isa: return "spec_isa";
    case ComputeRoofChoice::Basis::no_such_width: return "no_such_width";
    case ComputeRoofChoice::Basis::not_flop: return "not_flop";
    case ComputeRoofChoice::Basis::no_model: break;
    }
    return "no_model";
}

const char* level_basis_name(LevelRoofChoice::Basis b) {
    switch (b) {
    case LevelRoofChoice::Basis::pattern: return "pattern";
    case LevelRoofChoice::Basis::between: return "between";
    case LevelRoofChoice::Basis::fastest_unknown: return "fastest_unknown_patterns";
    case LevelRoofChoice::Basis::fastest_beyond: return "fastest_beyond_measured";
    case LevelRoofChoice::Basis::fastest_no_nt: return "fastest_no_nt_pattern";
    case LevelRoofChoice::Basis::no_model: break;
    }
    return "no_model";
}

const char* level_isa_name(LevelRoofChoice::Isa i) {
    switch (i) {
    case LevelRoofChoice::Isa::spec_trial: return "spec_trial";
    case LevelRoofChoice::Isa::no_trial: return "no_trial";
    case LevelRoofChoice::Isa::as_measured: break;
    }
    return "as_measured";
}

// Which roofs judged the loop and why: the compute roof's width, each level's pattern.
ordered_json roofs_used_json(const KernelModelResult& result, View view) {
    const ComputeRoofChoice& c = result.compute_choice;
    const Roofline& r = result.roofline;
    ordered_json levels = ordered_json::array();
    for (const auto& l : result.level_choices) {
        if (!judges(view, l.level)) continue;
        ordered_json patterns = ordered_json::array();
        for (std::size_t i = 0; i < l.patterns.size(); ++i)
            patterns.push_back({{"pattern", l.patterns[i]},
                                {"gbs", l.pattern_gbs[i]},
                                {"store_share", l.pattern_shares[i]},
                                {"bytes_share", i == 0 ? l.weight : 1 - l.weight}});
        levels.push_back({{"level", l.level},
                          {"name", l.roof.name},
                          {"gbs", l.roof.value},
                          {"store_share", l.store_share},
                          {"non_temporal", l.non_temporal},
                          {"basis", level_basis_name(l.basis)},
                          {"patterns", patterns},
                          {"isa", {{"basis", level_isa_name(l.isa_basis)},
                                   {"trial", l.isa.empty() ? ordered_json(nullptr) : ordered_json(l.isa)}}},
                          {"fastest", {{"name", l.fastest.name}, {"gbs", l.fastest.value}}},
                          {"why", level_choice_text(l, c.isa)}});
    }
    return {{"compute",
             {{"name", r.compute.name},
              {"value", r.compute.value},
              {"vector_bits", c.vector_bits > 0 ? ordered_json(c.vector_bits) : ordered_json(nullptr)},
              {"basis", compute_basis_name(c.basis)},
              {"why", compute_choice_text(result)}}},
            {"bandwidth", levels}};
}

ordered_json kernel_json(const KernelModelResult& result, View view) {
    const KernelSpec& k = result.spec;
    const KernelPrediction& p = result.prediction;
    const Roofline& r = result.roofline;
    ordered_json lifts = ordered_json::array();
    for (const auto& l : p.lifts)
        lifts.push_back({{"what", lift_text(l, k.work_unit)}, {"performance", l.performance}});
    ordered_json next_steps = ordered_json::array();
    for (const auto& step : p.analysis.next_steps) next_steps.push_back(next_step_text(r, step));
    ordered_json headroom = ordered_json::array();
    for (const auto& h : p.analysis.headroom) headroom.push_back({{"roof", h.roof}, {"attainable", h.attainable}});
    ordered_json must_beat = ordered_json::array();
    for (const auto& c : p.must_beat)
        must_beat.push_back({{"name", c.name},
                             {"kind", ceiling_kind_name(c.kind)},
                             {"level", c.level},
                             {"value", c.value},
                             {"advice", ceiling_advice(r, c)}});
    return {{"name", k.name},
            {"file", result.file},
            {"description", k.description},
            {"work_unit", k.work_unit},
            {"work_per_iteration", k.work_per_iteration},
            {"precision",
             {{"judged", r.precision},
              {"own", result.precision.precision.empty() ? ordered_json(nullptr) : ordered_json(result.precision.precision)},
              {"basis", basis_name(result.precision.basis)},
              {"operand_types", result.precision.types},
              {"choice", choice_name(result.choice)}}},
            {"compute_roof", {{"name", r.compute.name}, {"value", r.compute.value}}},
            {"isa", k.isa.empty() ? ordered_json(nullptr) : ordered_json(k.isa)},
            {"roofs_used", roofs_used_json(result, view)},
            {"iterations", k.iterations ? ordered_json(*k.iterations) : ordered_json(nullptr)},
            {"bytes_per_iteration", bytes_per_iteration(k)},
            {"nominal_bytes_per_iteration", nominal_bytes_per_iteration(k)},
            {"intensity", p.intensity},
            {"performance", p.performance},
            {"binding_roof", p.binding_roof},
            {"binding_level", p.binding_level},
            {"memory_bound", !p.binding_level.empty()},
            {"seconds", p.seconds ? ordered_json(*p.seconds) : ordered_json(nullptr)},
            {"seconds_per_iteration", p.seconds_per_iteration},
            {"cache_fit", cache_fit_json(result)},
            {"one_chain", p.one_chain_performance ? ordered_json{{"accumulators", p.accumulators},
                                                                 {"performance", *p.one_chain_performance}}
                                                  : ordered_json(nullptr)},
            {"warnings", result.warnings},
            {"not_modelled", unmodelled_effects(k)},
            {"lifts", lifts},
            {"next_steps", next_steps},
            {"headroom", headroom},
            {"must_beat", must_beat}};
}

} // namespace

std::string residency_problem_text(const KernelSpec& spec, const ResidencyProblem& problem, int threads) {
    const std::string names = fmt::format("{}", fmt::join(problem.operands, ", "));
    const bool one = problem.operands.size() == 1;
    const std::string capacity = fmt::format("{} for {}", bytes_text(problem.capacity),
                                             count_of(std::max(1, threads), "thread"));
    switch (problem.kind) {
    case ResidencyProblem::Kind::too_small:
        return fmt::format("{} {} declared resident in {}, but {} 'elements' make {} {} and {} holds {}: {} cannot "
                           "stay there (give as 'elements' the part the loop keeps there, or leave 'resident_in' out "
                           "to stream from memory)",
                           names, one ? "is" : "are", problem.level, one ? "its" : "their", one ? "it" : "them",
                           bytes_text(problem.bytes), problem.level, capacity,
                           one ? "it" : "they");
    case ResidencyProblem::Kind::unchecked:
        return fmt::format("{} {} declared resident in {} with no size ('elements:'), and {} reads and writes over "
                           "{} iterations touch up to {}, more than {} holds ({}): unless the loop re-reads a "
                           "smaller part, {} cannot stay there; the prediction takes the declaration as given (give "
                           "'elements:' to have it checked)",
                           names, one ? "is" : "are", problem.level, one ? "its" : "their",
                           format_count(spec.iterations.value_or(1)),
                           bytes_text(problem.bytes), problem.level, capacity,
                           one ? "it" : "they");
    case ResidencyProblem::Kind::no_such_level: break;
    }
    return fmt::format("{} {} declared resident in {}, but the machine model has no {} cache: the bytes counted "
                       "there are bound by no roof",
                       names, one ? "is" : "are", problem.level, problem.level);
}

std::string reused_operand_text(const ReusedOperand& reused, int threads) {
    return fmt::format("{} is touched {} times over the loop but has {} elements ({}), which {} holds ({} for {}); "
                       "with no 'resident_in' every access is counted from {}: if the loop keeps it there, say "
                       "'resident_in: {}' (operands streaming past may evict part of it)",
                       reused.operand, format_count(reused.accesses), format_count(reused.elements),
                       bytes_text(reused.bytes), reused.level,
                       bytes_text(reused.capacity),
                       count_of(std::max(1, threads), "thread"), reused.counted, reused.level);
}

std::string unroofed_fit_text(const CacheFit& fit, int threads, const std::string& predicted_from, View view) {
    const std::string t = count_of(std::max(1, threads), "thread");
    const std::string why = view == View::orm
                                ? std::string("the ORM view bounds loops by DRAM alone")
                                : fmt::format("the machine model has no {} bandwidth roof at {}", fit.level, t);
    return fmt::format("its working set ({}{}) fits in {} ({} for {}), but {}: predicted from {}, which the loop run "
                       "again over its data may beat",
                       fit.exact ? "" : "at most ", bytes_text(fit.footprint), fit.level, bytes_text(fit.capacity), t,
                       why, predicted_from.empty() ? "where the spec puts its operands" : predicted_from);
}

std::string render_formula(const FormulaResult& f, ReportFormat format) {
    require_text_or_json(format);
    if (format == ReportFormat::json) {
        const ordered_json out = {{"schema", "roofline.model/1"},
                                  {"work_unit", f.work_unit},
                                  {"peak", f.peak},
                                  {"bandwidth_gbs", f.bandwidth},
                                  {"intensity", f.intensity},
                                  {"attainable", f.attainable},
                                  {"ridge_point", f.ridge},
                                  {"bound", f.memory_bound ? "memory" : "compute"}};
        return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
    }
    const std::string rate = rate_unit(f.work_unit), per_byte = intensity_unit(f.work_unit);
    std::string out = fmt::format("attainable: {} {}\n", format_number(f.attainable), rate);
    if (f.memory_bound)
        out += fmt::format("  memory-bound: {} GB/s x {} {} (below the ridge point {} {}; peak {} {})\n",
                           format_count(f.bandwidth), format_count(f.intensity), per_byte, format_number(f.ridge),
                           per_byte, format_count(f.peak), rate);
    else
        out += fmt::format("  compute-bound: the peak {} {} (at or above the ridge point {} {})\n", format_count(f.peak),
                           rate, format_number(f.ridge), per_byte);
    return out;
}

std::string render_kernel_models(View view, const std::vector<KernelModelResult>& kernels, ReportFormat format) {
    require_text_or_json(format);
    if (kernels.empty()) throw std::invalid_argument("no kernel to render");
    // One machine and thread count; a compute roof per precision the kernels were judged on.
    const Roofline& r = kernels.front().roofline;
    std::vector<const Roofline*> computes;  // one per distinct compute roof
    std::vector<std::string> precisions;
    for (const auto& k : kernels) {
        if (std::none_of(computes.begin(), computes.end(), [&](const Roofline* c) {
                return c->work_unit == k.roofline.work_unit && c->compute.name == k.roofline.compute.name &&
                       c->compute.value == k.roofline.compute.value;
            }))
            computes.push_back(&k.roofline);
        const std::string name = k.roofline.precision.empty() ? k.roofline.work_unit : k.roofline.precision;
        if (std::find(precisions.begin(), precisions.end(), name) == precisions.end()) precisions.push_back(name);
    }
    // The machine's fastest roof per level; each kernel names the roofs its own mix is bound by.
    const std::vector<Roof>& machine_roofs =
        kernels.front().machine_bandwidth.empty() ? r.bandwidth : kernels.front().machine_bandwidth;
    if (format == ReportFormat::json) {
        ordered_json roofs = ordered_json::array();
        for (const auto& b : machine_roofs) roofs.push_back({{"name", b.name}, {"level", b.level}, {"gbs", b.value}});
        ordered_json compute_roofs = ordered_json::array();
        for (const Roofline* c : computes)
            compute_roofs.push_back({{"precision", c->precision}, {"name", c->compute.name}, {"value", c->compute.value}});
        ordered_json list = ordered_json::array();
        for (const auto& k : kernels) list.push_back(kernel_json(k, view));
        // "precision" and "compute_roof": the first kernel's; each kernel names its own.
        ordered_json out = {{"schema", "roofline.model/1"}, {"machine", r.label}, {"precision", r.precision}};
        // 0: figures given on the command line say nothing of threads (as the text leaves it out).
        if (r.threads > 0) out["threads"] = r.threads;
        out["view"] = view_name(view);
        out["work_unit"] = r.work_unit;
        out["compute_roof"] = {{"name", r.compute.name}, {"value", r.compute.value}};
        out["compute_roofs"] = compute_roofs;
        out["bandwidth_roofs"] = roofs;
        out["kernels"] = list;
        return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
    }
    std::string roofs;
    for (const Roofline* c : computes)
        roofs += fmt::format("{}{} {} {}", roofs.empty() ? "" : ", ", c->compute.name, format_count(c->compute.value),
                             rate_unit(c->work_unit));
    for (const auto& b : machine_roofs) roofs += fmt::format(", {} {} GB/s", b.level, format_count(b.value));
    std::string out = fmt::format("machine: {} ({}{}, {} view)\n  roofs: {}\n", terminal_text(r.label),
                                  fmt::join(precisions, " and "),
                                  r.threads > 0 ? ", " + count_of(r.threads, "thread") : "", view_name(view), roofs);
    for (const auto& k : kernels) out += "\n" + kernel_text(k, view);
    return terminal_block(out);  // the last guard: ceiling and roof names inside phrases
}

} // namespace roofline
