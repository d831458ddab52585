// Engine selection and dispatch.

#include "core/message_name.hpp"
#include "core/name_table.hpp"
#include "io/install_layout.hpp"
#include "measure/child_process.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/engines_internal.hpp"
#include "measure/event_file.hpp"

#include <fmt/core.h>

#include <unistd.h>

namespace roofline::measure {

namespace {
constexpr NameTable<EngineKind, 4> kEngineNames{{{EngineKind::automatic, "auto"},
                                                 {EngineKind::instrument, "instrument"},
                                                 {EngineKind::perf, "perf"},
                                                 {EngineKind::time, "time"}}};
constexpr NameTable<RegionScope, 2> kScopeNames{{{RegionScope::process, "process"}, {RegionScope::thread, "thread"}}};
} // namespace

const char* engine_name(EngineKind kind) { return name_of(kEngineNames, kind); }

EngineKind parse_engine(const std::string& text) {
    if (const auto k = value_of(kEngineNames, text)) return *k;
    throw std::invalid_argument(fmt::format("unknown engine '{}' (auto, instrument, perf, time)", text));
}

const char* region_scope_name(RegionScope scope) { return name_of(kScopeNames, scope); }

RegionScope parse_region_scope(const std::string& text) {
    if (const auto s = value_of(kScopeNames, text)) return *s;
    throw std::invalid_argument(fmt::format("unknown region scope '{}' (process, thread)", text));
}

namespace {

bool is_32_bit(const MeasureRequest& request) {
    if (request.argv.empty()) return false;
    const auto exe = find_executable(request.argv[0]);
    return !exe.empty() && executable_elf_class(exe) == ElfClass::elf32;
}

// The engine and why; `probe` is filled whenever perf was probed (auto or perf).
EngineKind choose_engine(const MeasureRequest& request, std::string& why, PerfProbe& probe) {
    why = "requested";
    EngineKind engine = request.engine;
    if (engine == EngineKind::automatic || engine == EngineKind::perf) probe = probe_perf();
    if (engine == EngineKind::automatic) {
        std::string vg_why;
        const bool have_vg = !find_executable("valgrind").empty() && !vgtool_dir(request.self_exe, vg_why).empty();
        if (find_executable("valgrind").empty()) vg_why = "valgrind is not installed";
        if (probe.hardware) {
            engine = EngineKind::perf;
            why = "hardware counters are available";
        } else if (have_vg && is_32_bit(request)) {
            // The tool runs 64-bit programs only: fall back to what still works, the native timing.
            engine = EngineKind::time;
            why = fmt::format("time only, no FLOPs or bytes: perf is unavailable: {}; the instrument engine's "
                              "Valgrind tool runs 64-bit programs only and {} is 32-bit (ELF32)",
                              probe.reason, request.argv.empty() ? "the command" : request.argv[0]);
        } else if (have_vg) {
            engine = EngineKind::instrument;
            why = fmt::format("perf is unavailable: {}", probe.reason);
        } else {
            engine = EngineKind::time;
            why = fmt::format("time only, no FLOPs or bytes: perf is unavailable: {}; the instrument engine is "
                              "unavailable: {}",
                              probe.reason, vg_why);
        }
    }
    return engine;
}

} // namespace

EngineKind resolve_engine(const MeasureRequest& request, std::string* reason) {
    std::string why;
    PerfProbe probe;
    const EngineKind engine = choose_engine(request, why, probe);
    if (reason) *reason = why;
    return engine;
}

MeasureResult run_measurement(const MeasureRequest& request) {
    if (request.argv.empty()) throw CommandNotFound("no command given: put it after '--', e.g. roofline measure -- ./app");
    // Checked before anything runs, so a typo does not start valgrind.
    if (find_executable(request.argv[0]).empty()) {
        const auto& name = request.argv[0];
        if (name.find('/') != std::string::npos && ::access(name.c_str(), F_OK) == 0)
            throw CommandNotFound(fmt::format("cannot execute {}: permission denied", message_name(name)), 126);
        throw CommandNotFound(fmt::format("command not found: {}", message_name(name)));
    }
    MeasureResult result;
    PerfProbe probe;
    const EngineKind engine = choose_engine(request, result.engine_reason, probe);
    if (engine == EngineKind::time && request.engine == EngineKind::automatic)
        result.warnings.push_back("no engine can count FLOPs here: points have time only");
    if (engine == EngineKind::instrument && is_32_bit(request))
        throw MeasureError(fmt::format(
            "{} is a 32-bit program (ELF32): the instrument engine's Valgrind tool (and so --functions and "
            "--region-function) runs 64-bit programs only. Use --engine time for its time, --engine perf where "
            "hardware counters are available, or build it 64-bit",
            request.argv[0]));
    result.engine = engine;
    switch (engine) {
    case EngineKind::perf: detail::run_perf_engine(request, result, probe); break;
    case EngineKind::instrument: detail::run_instrument_engine(request, result); break;
    default: detail::run_time_engine(request, result); break;
    }
    return result;
}

} // namespace roofline::measure
