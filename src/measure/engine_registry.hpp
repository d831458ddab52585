// The measure engines, one descriptor each: its name and one line of help, what it can do,
// whether it can run on this machine for a request and why (not), and how it runs. `auto`
// picks among them; the CLI takes --engine's names, help and every check from here, so an
// engine is one row of the table (engine_registry.cpp) and its own file of runs.
#pragma once

#include "core/gpu_model.hpp"

#include "measure/engine.hpp"
#include "measure/perf_events.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline::measure {

// What an engine can do (or, for `auto`, can be made to do by picking an engine that can).
enum class EngineCapability {
    regions,            // counts or times per marker region
    functions,          // --functions and --region-function: per function, no recompiling
    cache_simulation,   // bytes below L1 from a simulated hierarchy (--cache-sim, --cache-model)
    loops,              // --loops: counts per instruction, so per loop
    threads,            // a region holds the work of every thread while it is open (--region-scope process)
    mpi,                // runs inside an MPI launch, each rank measuring itself
    gpu_kernels,        // a point per GPU kernel
    hardware_counters,  // needs hardware counters (perf_event)
    counts,             // FLOPs and bytes (not time only)
    counting_run,       // counts in a run of its own after the native timed run (--times, --counts-from)
    counts_avx512,      // counts the native timed run itself, AVX-512 (EVEX) code included
};
const char* capability_name(EngineCapability capability);

// This machine's answers that several engines' checks share, each found once per measurement.
class EngineProbes {
public:
    const PerfProbe& perf();  // probe_perf(), the first time it is asked
private:
    std::optional<PerfProbe> perf_;
};

struct EngineAvailability {
    bool available = true;
    std::string reason;  // a clause: why it can run ("hardware counters are available") or why not
};

struct EngineDescriptor {
    EngineKind kind;
    const char* name;
    const char* help;  // one line, for --engine's help
    std::vector<EngineCapability> capabilities;
    bool automatic = false;  // `auto`: the first available engine of the table that counts on the CPU
    // Run by app's GPU measure through the GPU backend (app may use measure, not the reverse):
    // cli dispatches it there, and run_measurement refuses it.
    bool runs_through_gpu_backend = false;
    // For such an engine: the vendor whose GPU backend runs it (core/gpu_model), so a second
    // vendor's profiler is one more row here and its folder in app/gpu/.
    GpuVendor gpu_vendor = GpuVendor::unknown;
    // Whether it can run here for `request`, and why (not); null: always (or checked when it runs).
    EngineAvailability (*availability)(const MeasureRequest& request, EngineProbes& probes) = nullptr;
    // Its runs; null for `auto` and for an engine run through the GPU backend.
    void (*run)(const MeasureRequest& request, MeasureResult& result, EngineProbes& probes) = nullptr;

    bool can(EngineCapability capability) const;
};

// Every engine, `auto` first, then in auto's order of preference.
const std::vector<EngineDescriptor>& engines();
const EngineDescriptor& engine_descriptor(EngineKind kind);
// The engine called `name`; throws std::invalid_argument naming the engines otherwise.
const EngineDescriptor& engine_named(std::string_view name);
std::vector<std::string> engine_names();
// "auto: ...; perf: ...; ...": each engine's name and help, for --engine.
std::string engines_help();
// The first engine (not `auto`) that can do `capability`: the one `auto` becomes when a request needs it.
const EngineDescriptor& engine_for(EngineCapability capability);
// The engines run on the CPU (not `auto`, none run through the GPU backend) that cannot do
// `capability`, in the table's order: those a refusal names ("drop --engine perf or --engine time").
std::vector<std::string> cpu_engines_without(EngineCapability capability);

// The engine `request` runs and why ("requested" unless automatic): auto takes the first available
// engine that runs on the CPU, and says why those before it could not.
struct EngineChoice {
    EngineKind kind = EngineKind::time;
    std::string reason;
};
EngineChoice choose_engine(const MeasureRequest& request, EngineProbes& probes);

} // namespace roofline::measure
