// The runs of a CPU measurement, in order; see app/measure.hpp.
#include "app/measure.hpp"

#include "measure/child_process.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/function_cfg.hpp"
#include "measure/clone_names.hpp"
#include "measure/function_names.hpp"
#include "measure/function_list.hpp"
#include "measure/merge.hpp"
#include "measure/output_tee.hpp"
#include "measure/timed_build_loops.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <cstdint>

namespace roofline::app {
namespace {

using Sampling = std::optional<measure::SamplingResult>;

// A function's counts and its sampled self CPU time as a point (--functions); nullopt without samples.
std::optional<Point> sampled_point(const measure::RegionCounts& counts, const Sampling& sampling) {
    if (!sampling) return std::nullopt;
    const auto it = sampling->functions.find(counts.name);
    if (it == sampling->functions.end() || it->second.samples == 0) return std::nullopt;
    Point p;
    p.name = counts.name;
    measure::apply_counts(p, counts);
    p.seconds = it->second.seconds;
    p.threads = 1;  // CPU time summed over threads: compare with one thread's roofline
    p.source = PointOrigin::instrument_sampling;
    p.details["samples"] = static_cast<double>(it->second.samples);
    p.details["sample_period_seconds"] = sampling->period_seconds;
    p.details[kRunsDetail] = 1;  // one time, no spread: --repeat repeats the timed native run only
    p.details["sampled_runs"] = sampling->runs;  // the runs whose samples were pooled into it
    // What report weighs the calls' own cost and library code by (core/code_traits): its
    // instructions, its calls (the tool's entries; an older tool's output has none) and its file.
    if (counts.instructions > 0) p.details[kInstructionsDetail] = counts.instructions;
    if (counts.entries > 0) p.details[kFunctionCallsDetail] = counts.entries;
    p.object = counts.object;
    return p;
}

// The tool counts a function's calls as the runs of its first instruction; a loop that starts
// there (no prologue before it: a leaf's do-while) would count each pass as a call and make a
// loop look like a function called for a few instructions. Its code, decoded once per file,
// says whether a jump inside it goes back there. A function that cannot be read keeps its count.
class EntryLoopCheck {
public:
    bool operator()(const measure::RegionCounts& f) {
        if (f.object.empty()) return true;
        auto& symbols = files_[f.object];
        if (!symbols) symbols = std::make_unique<measure::ElfSymbols>(f.object);
        if (!symbols->loaded()) return true;
        std::string name = f.name;
        if (!symbols->symbol_named(name) && name.ends_with(")") && name.rfind(" (") != std::string::npos)
            name = name.substr(0, name.rfind(" ("));  // "f (file.c)": two functions of that name
        const auto cfg = measure::function_cfg(*symbols, name);
        return !cfg || !measure::entry_is_jump_target(*cfg);
    }

private:
    std::map<std::string, std::unique_ptr<measure::ElfSymbols>> files_;
};

std::optional<Point> function_region_point(const FunctionRegion& f, const Sampling& sampling) {
    if (!f.time.seconds || *f.time.seconds <= 0) return std::nullopt;
    Point p;
    p.name = f.counts->name;
    measure::apply_counts(p, *f.counts);
    p.seconds = *f.time.seconds;
    p.threads = f.time.threads;
    p.details[kRunsDetail] = 1;  // one call-timing or sampled run: --repeat repeats the native run only
    if (f.time.source == measure::TimeSource::timed_calls) {
        p.source = PointOrigin::instrument_calltiming;
        p.details["timed_calls"] = static_cast<double>(f.time.timed_calls);
    } else {
        p.source = f.time.source == measure::TimeSource::sampled_stacks ? PointOrigin::instrument_callstacks
                                                                         : PointOrigin::instrument_sampling;
        p.details["samples"] = static_cast<double>(f.time.samples);
        p.details["sample_period_seconds"] = sampling ? sampling->period_seconds : 0;
    }
    return p;
}

// Which functions a --region-function NAME matched, when that is not one: none (with names
// that look alike), or several (all counted together).
std::optional<std::string> region_match_warning(const measure::RegionCounts& c,
                                                const std::vector<measure::RegionCounts>& functions) {
    const auto pattern = measure::function_of_region(c.name);
    if (c.matched.empty()) {
        std::vector<std::string> names;
        for (const auto& f : functions) names.push_back(f.name);
        const auto close = measure::closest_names(pattern, names);
        std::string hint = close.empty() ? "" : "; names that look alike: " + fmt::to_string(fmt::join(close, ", "));
        return fmt::format("--region-function {}: no function of that name was called (it may not exist, or be "
                           "inlined into its callers: mark it __attribute__((noinline))){}",
                           pattern, hint);
    }
    if (c.matched.size() > 1)
        return fmt::format("--region-function {} matches {} functions, counted together: {}; give a qualified name, "
                           "the parameter list, or the file as 'NAME (FILE)' to pick one",
                           pattern, c.matched.size(), fmt::to_string(fmt::join(c.matched, "; ")));
    return std::nullopt;
}

// A function's time comes from the call-timing or sampling run, the whole
// program's from the native run: on a shared host two runs can differ by tens
// of percent, so a function may show more time than the program. Say so
// rather than let it look like a measurement of one run.
void note_function_longer_than_program(const std::vector<Point>& points, std::vector<MeasureMessage>& messages) {
    const auto program = std::find_if(points.begin(), points.end(),
                                      [](const Point& p) { return p.name == measure::kProgramRegion; });
    if (program == points.end() || program->seconds <= 0) return;
    for (const auto& p : points) {
        const bool function = !measure::function_of_region(p.name).empty() ||
                              p.source == PointOrigin::instrument_sampling;  // --functions' sampled points
        if (!function || p.seconds <= program->seconds) continue;
        messages.push_back({MeasureMessage::Kind::note,
                            fmt::format("{} took {:.4g} s in its own run, {:.0f}% more than the whole program's {:.4g} "
                                        "s in the native run: the runs are separate and this host's run-to-run noise "
                                        "is that large; compare its time with the program's own clock, or rerun",
                                        p.name, p.seconds, 100 * (p.seconds / program->seconds - 1),
                                        program->seconds)});
    }
}

// A run after the native one (call timing, sampling) that ended otherwise than the native run:
// its output was not shown, so the warning quotes the end of its standard error.
void warn_later_run_ended_otherwise(const std::string& what, const measure::ChildStatus& status,
                             const std::string& stderr_tail, measure::MeasureResult& result) {
    const auto& native = result.status;
    if (!native.started || !status.started || measure::interrupt_signal()) return;  // a stop is said elsewhere
    if (status.exited == native.exited && status.exit_code == native.exit_code && status.signal == native.signal)
        return;
    result.warnings.push_back(fmt::format("{} {}, the native run {}{}", what, status.describe(), native.describe(),
                                          measure::stderr_tail_text(stderr_tail)));
}

} // namespace

ProgramMeasurement measure_program(const ProgramMeasureRequest& request) {
    const auto interrupted = [] { return measure::interrupt_signal() != 0; };
    const auto& argv = request.measure.argv;
    const auto& env = request.measure.env;
    ProgramMeasurement m;
    if (request.replay_stdin) m.stdin_replay = measure::replay_stdin_for_every_run();
    auto& result = m.result;
    result = measure::run_measurement(request.measure);
    const auto to_time = measure::functions_to_time(result.counts, request.max_timed_calls);
    const bool rerun = request.rank_can_rerun;
    if (!interrupted() && (request.in_rank ? rerun && request.region_functions : !to_time.empty())) {
        m.timing = measure::time_function_calls(argv, env, to_time);
        measure::account_stops_by_wall_time(*m.timing, result.wall_seconds);
        measure::note_quiet_output(result.notes);
        if (m.timing->ok) warn_later_run_ended_otherwise("the call-timing run", m.timing->status, m.timing->stderr_tail, result);
    }
    // Sampling: IP samples for --functions (self time); call stacks too for region functions whose calls
    // were not timed (called too often, or too short), for their inclusive time.
    const bool untimed_region_function = std::any_of(result.counts.begin(), result.counts.end(), [&](const auto& c) {
        return !measure::function_of_region(c.name).empty() && !c.matched.empty() &&
               measure::function_region_time(c, result.functions, m.timing ? &*m.timing : nullptr, nullptr,
                                             request.max_timed_calls)
                       .source == measure::TimeSource::unknown;
    });
    // (In a rank: whenever functions are asked for, as the ranks' runs must not depend on their counts.)
    const bool call_stacks = request.in_rank ? request.region_functions : untimed_region_function;
    const bool sample = request.functions || request.loops || call_stacks;
    if (!interrupted() && (request.in_rank ? rerun && sample : sample)) {
        auto options = measure::SamplingOptions::for_run(call_stacks, result.wall_seconds);
        options.code_addresses = request.loops;
        if (request.sample_period_us > 0) options.period_ns = static_cast<std::uint64_t>(request.sample_period_us * 1e3);
        // IP samples of a few runs are pooled (call stacks, costly to take, come from one).
        const int runs = call_stacks ? 1 : measure::sampled_runs_for(result.wall_seconds);
        std::vector<measure::SamplingResult> sampled;
        for (int r = 0; r < runs && !interrupted(); ++r) {
            auto s = measure::sample_functions(argv, env, options);
            measure::note_quiet_output(result.notes);
            if (!s.ok) {
                m.sampling_error = s.error + measure::stderr_tail_text(s.stderr_tail);
                sampled.clear();
                break;
            }
            warn_later_run_ended_otherwise(runs > 1 ? fmt::format("sampling run {} of {}", r + 1, runs) : "the sampling run",
                                    s.status, s.stderr_tail, result);
            sampled.push_back(std::move(s));
        }
        if (!sampled.empty()) {
            m.sampling = measure::pool_sampling_runs(std::move(sampled));
            // Functions two files share a name of: the sampler's names made the tool's, so counts and time meet.
            measure::use_tool_function_names(result.functions, *m.sampling);
            // --counts-from: a function GCC cloned in one build only (foo.constprop.0 vs foo), matched.
            if (!request.measure.counts_from.empty() && !argv.empty())
                for (auto& n : measure::use_counted_build_names(result.functions, request.measure.counts_from, argv.front(),
                                                                *m.sampling))
                    result.notes.push_back(std::move(n));
        }
    }
    measure::stop_stdin_replay();
    return m;
}

MeasuredPoints measure_points(const ProgramMeasurement& measured, const PointsRequest& request) {
    const auto& result = measured.result;
    const auto& timing = measured.timing;
    const auto& sampling = measured.sampling;
    MeasuredPoints made;
    auto& points = made.points;
    const auto note = [&](std::string text) { made.messages.push_back({MeasureMessage::Kind::note, std::move(text)}); };
    std::vector<std::string> skipped;
    points = measure::merge_points(result, &skipped);
    for (const auto& p : points)
        if (const auto busy = p.details.find("threads_from_cpu_time"); busy != p.details.end())
            note(fmt::format("{}: {} threads, from its CPU time over its wall time ({:.2f} CPUs busy on average in "
                             "the first native run): {}",
                             p.name, p.threads, busy->second,
                             p.work_counted ? "the Valgrind tool saw one thread working at a time (it runs one at a "
                                              "time, and a thread that ends before the next starts never overlaps it)"
                                            : "nothing counted its threads (no marker region, no tool)"));
    for (auto& why : measure::refused_regions(result))
        made.messages.push_back({MeasureMessage::Kind::warning, std::move(why)});
    for (const auto& c : result.counts) {
        if (measure::function_of_region(c.name).empty()) continue;
        if (auto warning = region_match_warning(c, result.functions))
            made.messages.push_back({MeasureMessage::Kind::warning, std::move(*warning)});
        if (c.matched.empty()) continue;
        FunctionRegion f{&c, measure::function_region_time(c, result.functions, timing ? &*timing : nullptr,
                                                           sampling ? &*sampling : nullptr, request.max_timed_calls)};
        if (auto p = function_region_point(f, sampling)) {
            // Timed in runs started as the native run was: the same CPUs allowed.
            if (result.cpus_allowed > 0) p->details[kCpusAllowed] = result.cpus_allowed;
            points.push_back(std::move(*p));
        }
        else
            note(fmt::format("not placed: {} (time {})", c.name, f.time.note));
        made.function_regions.push_back(std::move(f));
    }
    made.shown_functions =
        measure::significant_functions(result.functions, sampling ? &*sampling : nullptr, request.min_share);
    if (request.functions && sampling) {
        EntryLoopCheck entries_are_calls;
        for (const auto& f : measure::functions_worth_a_point(made.shown_functions, result.functions, request.min_share)) {
            if (std::any_of(points.begin(), points.end(), [&](const Point& p) { return p.name == f.name; })) continue;
            auto p = sampled_point(f, sampling);
            if (!p) continue;
            if (p->details.contains(kFunctionCallsDetail) && !entries_are_calls(f)) {
                p->details.erase(kFunctionCallsDetail);
                note(fmt::format("{}: a loop starts at its first instruction, so the runs of that instruction are "
                                 "not its calls: its calls are not counted",
                                 f.name));
            }
            points.push_back(std::move(*p));
        }
    }
    for (const auto& s : skipped)
        if (measure::function_of_region(s.substr(0, s.rfind(" ("))).empty()) note("not placed: " + s);
    if (request.loops) {
        const auto program = std::find_if(result.counts.begin(), result.counts.end(),
                                          [](const auto& c) { return c.name == measure::kProgramRegion; });
        const auto whole = program != result.counts.end() ? *program : measure::RegionCounts{};
        // With --region-function: the loops run inside the functions it matched.
        measure::LoopScope scope;
        for (const auto& c : result.counts)
            if (!measure::function_of_region(c.name).empty())
                scope.within_functions.insert(scope.within_functions.end(), c.matched.begin(), c.matched.end());
        const auto sampled = sampling ? &*sampling : nullptr;
        // Marker regions whose counts by instruction the tool did not keep (--region-scope thread):
        // the loops are the whole run's, said.
        const bool unsplit_regions =
            result.region_breakdowns.empty() && std::any_of(result.counts.begin(), result.counts.end(), [](const auto& c) {
                return c.name != measure::kProgramRegion && measure::function_of_region(c.name).empty();
            });
        if (unsplit_regions)
            note("--loops: the loops' counts and times are the whole run's, not split by marker region: with "
                 "--region-scope thread the counts by instruction are not kept per region (another thread's "
                 "work moves the same counters); a loop run inside and outside a region holds both");
        if (!request.loops_timed_file.empty()) {
            // Counted in one build, timed in another: every loop counted (the share is cut on the
            // source loops), then matched to the timed build's by source lines.
            auto counted = measure::program_loops(result.instructions, result.functions, whole, sampled, 0, scope);
            if (!sampled) {
                made.loops.push_back(std::move(counted));
            } else if (result.region_breakdowns.empty()) {
                made.loops.push_back(measure::loops_timed_in_other_build(std::move(counted), request.loops_counted_file,
                                                                         request.loops_timed_file, *sampled, whole,
                                                                         request.min_share));
            } else {
                // Marker regions: each region's loops counted in the counting build while it was open,
                // timed by the other build's samples of the same source loops, each sample given the
                // region's share of its source loop's runs (the whole run's loops say the share).
                scope.whole_instructions = &result.instructions;
                scope.whole_functions = &result.functions;
                scope.whole_program = &whole;
                const measure::OtherBuildRegion of_whole{&counted, &whole};
                for (const auto& b : result.region_breakdowns) {
                    const auto region = std::find_if(result.counts.begin(), result.counts.end(),
                                                     [&](const auto& c) { return c.name == b.region; });
                    if (region == result.counts.end()) continue;
                    scope.region = b.region;
                    made.loops.push_back(measure::loops_timed_in_other_build(
                        measure::program_loops(b.instructions, b.functions, *region, sampled, 0, scope),
                        request.loops_counted_file, request.loops_timed_file, *sampled, *region, request.min_share,
                        of_whole));
                }
                note("--loops with --counts-from: the loops are given per marker region, each with what ran while the "
                     "region was open in the counting build; code run outside every region is in none. The timed "
                     "build's instructions are not the counting build's, so a loop's time in a region is its samples "
                     "(matched by source lines) times the region's share of that source loop's runs in the counting "
                     "build, not each instruction's share as in one build: a loop whose iterations cost differently "
                     "inside and outside the region is timed by its average iteration");
            }
        } else if (result.region_breakdowns.empty()) {
            made.loops.push_back(measure::program_loops(result.instructions, result.functions, whole, sampled,
                                                        request.min_share, scope));
        } else {
            // Marker regions: the loops run while each was open, the region's counts by instruction.
            scope.whole_instructions = &result.instructions;
            scope.whole_functions = &result.functions;
            scope.whole_program = &whole;
            for (const auto& b : result.region_breakdowns) {
                const auto region = std::find_if(result.counts.begin(), result.counts.end(),
                                                 [&](const auto& c) { return c.name == b.region; });
                if (region == result.counts.end()) continue;
                scope.region = b.region;
                made.loops.push_back(measure::program_loops(b.instructions, b.functions, *region, sampled,
                                                            request.min_share, scope));
            }
            note("--loops: the loops are given per marker region, each with what ran while the region was open; "
                 "code run outside every region is in none. A loop's time in a region is its samples' share by "
                 "the region's share of each sampled instruction's runs (the sampled run does not see regions)");
        }
        for (const auto& loops : made.loops)
            for (auto& p : measure::loop_points(loops)) points.push_back(std::move(p));
    }
    note_function_longer_than_program(points, made.messages);
    return made;
}

} // namespace roofline::app
