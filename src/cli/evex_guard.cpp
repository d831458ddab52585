#include "cli/evex_guard.hpp"

#include "cli/usage_error.hpp"
#include "core/message_name.hpp"

#include "core/evex_code.hpp"
#include "measure/child_process.hpp"
#include "measure/engine_registry.hpp"
#include "measure/evex_scan.hpp"
#include "measure/perf_events.hpp"
#include "render/evex_text.hpp"
#include "topo/cpu_features.hpp"

#include <fmt/format.h>

namespace roofline::cli {

EvexCheck check_evex_before_running(const std::string& timed, const std::string& counts_from,
                                    const std::string& perf_unavailable) {
    EvexCheck check;
    const std::string& counted = counts_from.empty() ? timed : counts_from;
    const auto timed_exe = measure::find_executable(timed);
    const auto counted_exe = measure::find_executable(counted);
    if (counted_exe.empty()) return check;  // run_measurement says "command not found"
    const auto scan = measure::scan_program_code(counted_exe);
    const auto judgement = judge_evex(scan.objects);
    if (judgement.kind == EvexJudgement::Kind::refuse)
        throw EvexRefusal(render_evex_refusal(judgement, timed, counts_from, perf_unavailable));

    // What each run can execute: natively this CPU's CPUID; under Valgrind the CPU that this
    // Valgrind says it presents (VEX's choice from the host's hwcaps), read before the runs.
    const auto native = detect_cpu_features().names();
    const auto valgrind_cpu = measure::probe_valgrind_cpu();
    const auto counting = valgrind_cpu ? valgrind_cpu_isa(valgrind_cpu->hwcaps) : valgrind_cpu_isa();
    const auto missing = isa_missing(native, counting);
    check.provenance["isa_timed"] = render_timed_isa(native);
    check.provenance["isa_counted"] = render_counted_isa(counting, valgrind_cpu);
    // What the timed program's libraries choose at run time matters too when it is another build.
    std::vector<ObjectCode> timed_objects;
    EvexJudgement timed_judgement;
    if (!timed_exe.empty() && timed_exe != counted_exe) {
        timed_objects = measure::scan_program_code(timed_exe).objects;
        timed_judgement = judge_evex(timed_objects);
    }
    auto dispatch = judgement;
    for (const auto* o : timed_judgement.dispatching) {
        bool seen = false;
        for (const auto* d : dispatch.dispatching) seen = seen || d->path == o->path;
        if (!seen) dispatch.dispatching.push_back(o);
    }
    dispatch.glibc_dispatches = judgement.glibc_dispatches || timed_judgement.glibc_dispatches;
    if (auto w = render_dispatch_warning(dispatch, missing); !w.empty()) check.warnings.push_back(w);
    if (auto w = render_unconfirmed_warning(judgement); !w.empty()) check.warnings.push_back(w);
    const auto glibc = render_glibc_dispatch_note(dispatch, missing);
    for (const auto& n : scan.notes) check.notes.push_back("AVX-512 check: " + n);
    if (!scan.objects.front().readable) {
        check.notes.push_back(fmt::format("AVX-512 check: {} is not a 64-bit x86 ELF program (a script?): not "
                                          "scanned, nor what it starts",
                                          counted));
        return check;
    }
    std::uint64_t bytes = 0;
    for (const auto& o : scan.objects) bytes += o.code_bytes;
    // One line: what was scanned, how long it took, what was found (glibc's variants in a clause).
    const bool only_glibc = judgement.kind == EvexJudgement::Kind::dispatched && judgement.dispatching.empty();
    check.notes.push_back(fmt::format(
        "AVX-512 check: {} and {} librar{} it loads at start ({:.1f} MB of code) scanned in {:.2f} s: {}; libraries "
        "opened later with dlopen are not known before the run",
        counted, scan.objects.size() - 1, scan.objects.size() == 2 ? "y" : "ies", bytes / 1e6, scan.seconds,
        judgement.kind == EvexJudgement::Kind::none ? std::string("no AVX-512 code")
        : only_glibc ? (glibc.empty() ? std::string("AVX-512 code in glibc only, chosen by the CPU at run time")
                                      : "no AVX-512 code but glibc's: " + glibc)
                     : std::string("AVX-512 code only where it is chosen by the CPU at run time (see the warning)")));
    check.provenance["evex_scan"] =
        judgement.kind == EvexJudgement::Kind::none ? "no AVX-512 code" : "AVX-512 code chosen at run time only";
    return check;
}

std::optional<EvexCheck> guard_evex(measure::MeasureRequest& request, const std::string& counts_from,
                                    bool instrument_needed) {
    if (request.argv.empty()) return std::nullopt;
    if (!counts_from.empty()) {
        // The counts come from another program's run, so only an engine that counts in a run of its own.
        if (!measure::engine_descriptor(request.engine).can(measure::EngineCapability::counting_run))
            throw UsageError(fmt::format("--counts-from runs {} under the {} engine's Valgrind tool for the "
                                         "counts: drop --engine {}",
                                         message_name(counts_from),
                                         measure::engine_for(measure::EngineCapability::counting_run).name,
                                         measure::engine_name(request.engine)));
        if (measure::find_executable(counts_from).empty())
            throw UsageError(fmt::format("--counts-from {}: no such program (or not executable)",
                                         message_name(counts_from)));
        request.engine = measure::engine_for(measure::EngineCapability::counting_run).kind;
        request.counts_from = counts_from;
        instrument_needed = true;
    }
    std::string reason;
    const auto& engine = measure::engine_descriptor(measure::resolve_engine(request, &reason));
    // Only an engine that counts but not AVX-512 code (the Valgrind tool decodes no EVEX) needs the check.
    const bool blind_to_avx512 =
        engine.can(measure::EngineCapability::counts) && !engine.can(measure::EngineCapability::counts_avx512);
    if (!instrument_needed && !blind_to_avx512) return std::nullopt;
    // Why perf is not the answer here, for the refusal ("perf is unavailable: ...").
    std::string perf_unavailable;
    if (const auto at = reason.find("perf is unavailable: "); at != std::string::npos)
        perf_unavailable = reason.substr(at + 21);
    else if (const auto probe = measure::probe_perf(); !probe.hardware)
        perf_unavailable = probe.reason;
    return check_evex_before_running(request.argv[0], counts_from, perf_unavailable);
}

} // namespace roofline::cli
