// run_measurement: the engine chosen from the registry (engine_registry.hpp) and run.

#include "core/message_name.hpp"
#include "core/name_table.hpp"
#include "measure/child_process.hpp"
#include "measure/engine_registry.hpp"
#include "measure/engines_internal.hpp"
#include "measure/event_file.hpp"

#include <fmt/core.h>

#include <unistd.h>

namespace roofline::measure {

namespace {
constexpr NameTable<RegionScope, 2> kScopeNames{{{RegionScope::process, "process"}, {RegionScope::thread, "thread"}}};
} // namespace

const char* region_scope_name(RegionScope scope) { return name_of(kScopeNames, scope); }

RegionScope parse_region_scope(const std::string& text) {
    if (const auto s = value_of(kScopeNames, text)) return *s;
    throw std::invalid_argument(fmt::format("unknown region scope '{}' (process, thread)", text));
}

EngineKind resolve_engine(const MeasureRequest& request, std::string* reason) {
    EngineProbes probes;
    auto choice = choose_engine(request, probes);
    if (reason) *reason = std::move(choice.reason);
    return choice.kind;
}

MeasureResult run_measurement(const MeasureRequest& request) {
    if (request.argv.empty()) throw CommandNotFound("no command given: put it after '--', e.g. roofline measure -- ./app");
    // Checked before anything runs, so a typo does not start valgrind.
    if (find_executable(request.argv[0]).empty()) {
        const auto& name = request.argv[0];
        if (name.find('/') != std::string::npos && ::access(name.c_str(), F_OK) == 0)
            throw CommandNotFound(fmt::format("cannot execute {}: {}", message_name(name), not_executable_reason(name)),
                                  126);
        throw CommandNotFound(fmt::format("command not found: {}", message_name(name)));
    }
    const auto& requested = engine_descriptor(request.engine);
    if (requested.runs_through_gpu_backend)
        throw MeasureError(fmt::format("the {} engine runs through the GPU backend (app's GPU measure), not here",
                                       requested.name));
    MeasureResult result;
    EngineProbes probes;
    auto choice = choose_engine(request, probes);
    const auto& engine = engine_descriptor(choice.kind);
    result.engine_reason = std::move(choice.reason);
    if (!engine.can(EngineCapability::counts) && requested.automatic)
        result.warnings.push_back("no engine can count FLOPs here: points have time only");
    result.engine = engine.kind;
    engine.run(request, result, probes);
    return result;
}

} // namespace roofline::measure
