// The engines' table: a new engine is one row here and its own file of runs.
#include "measure/engine_registry.hpp"

#include "core/name_table.hpp"
#include "io/install_layout.hpp"
#include "measure/child_process.hpp"
#include "measure/elf_symbols.hpp"
#include "measure/engines_internal.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>

namespace roofline::measure {

namespace detail {

bool is_32_bit_program(const MeasureRequest& request) {
    if (request.argv.empty()) return false;
    const auto exe = find_executable(request.argv[0]);
    return !exe.empty() && executable_elf_class(exe) == ElfClass::elf32;
}

} // namespace detail

namespace {

constexpr NameTable<EngineCapability, 11> kCapabilityNames{{
    {EngineCapability::regions, "regions"},
    {EngineCapability::functions, "functions"},
    {EngineCapability::cache_simulation, "cache simulation"},
    {EngineCapability::loops, "loops"},
    {EngineCapability::threads, "threads"},
    {EngineCapability::mpi, "MPI"},
    {EngineCapability::gpu_kernels, "GPU kernels"},
    {EngineCapability::hardware_counters, "hardware counters"},
    {EngineCapability::counts, "counts"},
    {EngineCapability::counting_run, "counting run"},
    {EngineCapability::counts_avx512, "counts AVX-512"}}};

EngineAvailability perf_availability(const MeasureRequest&, EngineProbes& probes) {
    const auto& probe = probes.perf();
    if (probe.hardware) return {true, "hardware counters are available"};
    return {false, fmt::format("perf is unavailable: {}", probe.reason)};
}

EngineAvailability instrument_availability(const MeasureRequest& request, EngineProbes&) {
    std::string why;
    const bool have_valgrind = !find_executable("valgrind").empty();
    const bool have_tool = !vgtool_dir(request.self_exe, why).empty();
    if (!have_valgrind) why = "valgrind is not installed";
    if (!have_valgrind || !have_tool) return {false, fmt::format("the instrument engine is unavailable: {}", why)};
    // The tool runs 64-bit programs only: auto falls back to what still works, the native timing.
    if (detail::is_32_bit_program(request))
        return {false, fmt::format("the instrument engine's Valgrind tool runs 64-bit programs only and {} is "
                                   "32-bit (ELF32)",
                                   request.argv[0])};
    return {true, "valgrind and the Valgrind tool are installed"};
}

const std::vector<EngineDescriptor>& engine_table() {
    using enum EngineCapability;
    static const std::vector<EngineDescriptor> table{
        {.kind = EngineKind::automatic,
         .name = "auto",
         .help = "perf when hardware counters are available, else instrument (Valgrind tool), else time",
         // What it can be made to do: the engine it picks for a request that needs it (engine_for).
         .capabilities = {regions, functions, cache_simulation, loops, threads, mpi, counts, counting_run},
         .automatic = true},
        {.kind = EngineKind::perf,
         .name = "perf",
         .help = "hardware counters",
         // A region counts the threads that opened it, those started inside it and the OpenMP teams
         // forked inside it only (perf_event counters follow a thread; the marker library reads a team
         // thread's around its body, a started thread's from its start to its exit or the region's end).
         .capabilities = {regions, mpi, hardware_counters, counts, counts_avx512},
         .availability = perf_availability,
         .run = [](const MeasureRequest& request, MeasureResult& result, EngineProbes& probes) {
             detail::run_perf_engine(request, result, probes.perf());
         }},
        {.kind = EngineKind::instrument,
         .name = "instrument",
         .help = "Valgrind tool",
         // Valgrind decodes no AVX-512 (EVEX) code: hence counts_avx512 is missing, and the check before it runs.
         .capabilities = {regions, functions, cache_simulation, loops, threads, mpi, counts, counting_run},
         .availability = instrument_availability,
         .run = [](const MeasureRequest& request, MeasureResult& result, EngineProbes&) {
             detail::run_instrument_engine(request, result);
         }},
        {.kind = EngineKind::time,
         .name = "time",
         .help = "timing only",
         .capabilities = {regions, threads, mpi},
         .run = [](const MeasureRequest& request, MeasureResult& result, EngineProbes&) {
             detail::run_time_engine(request, result);
         }},
        {.kind = EngineKind::ncu,
         .name = "ncu",
         .help = "a CUDA program, a point per kernel from Nsight Compute (FLOPs per precision, bytes at L1, L2 and "
                 "DRAM)",
         .capabilities = {gpu_kernels, hardware_counters, counts},
         .runs_through_gpu_backend = true,
         .gpu_vendor = GpuVendor::nvidia},
    };
    return table;
}

} // namespace

const char* capability_name(EngineCapability capability) { return name_of(kCapabilityNames, capability); }

const PerfProbe& EngineProbes::perf() {
    if (!perf_) perf_ = probe_perf();
    return *perf_;
}

bool EngineDescriptor::can(EngineCapability capability) const {
    return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
}

const std::vector<EngineDescriptor>& engines() { return engine_table(); }

const EngineDescriptor& engine_descriptor(EngineKind kind) {
    for (const auto& e : engine_table())
        if (e.kind == kind) return e;
    throw std::logic_error("an EngineKind without a row in the engine table");
}

const EngineDescriptor& engine_named(std::string_view name) {
    for (const auto& e : engine_table())
        if (name == e.name) return e;
    throw std::invalid_argument(fmt::format("unknown engine '{}' ({})", name, fmt::join(engine_names(), ", ")));
}

std::vector<std::string> engine_names() {
    std::vector<std::string> names;
    for (const auto& e : engine_table()) names.emplace_back(e.name);
    return names;
}

std::string engines_help() {
    std::vector<std::string> parts;
    for (const auto& e : engine_table()) parts.push_back(fmt::format("{}: {}", e.name, e.help));
    return fmt::format("{}", fmt::join(parts, "; "));
}

const EngineDescriptor& engine_for(EngineCapability capability) {
    for (const auto& e : engine_table())
        if (!e.automatic && e.can(capability)) return e;
    throw std::logic_error(fmt::format("no engine can do {}", capability_name(capability)));
}

std::vector<std::string> cpu_engines_without(EngineCapability capability) {
    std::vector<std::string> names;
    for (const auto& e : engine_table())
        if (!e.automatic && !e.runs_through_gpu_backend && !e.can(capability)) names.emplace_back(e.name);
    return names;
}

const char* engine_name(EngineKind kind) { return engine_descriptor(kind).name; }

EngineKind parse_engine(const std::string& text) { return engine_named(text).kind; }

EngineChoice choose_engine(const MeasureRequest& request, EngineProbes& probes) {
    const auto& requested = engine_descriptor(request.engine);
    if (!requested.automatic) return {request.engine, "requested"};
    std::vector<std::string> why_not;  // of the engines passed over, in order
    for (const auto& e : engine_table()) {
        if (e.automatic || e.runs_through_gpu_backend) continue;
        const auto availability = e.availability ? e.availability(request, probes) : EngineAvailability{};
        if (!availability.available) {
            why_not.push_back(availability.reason);
            continue;
        }
        if (why_not.empty()) return {e.kind, availability.reason};
        return {e.kind, fmt::format("{}{}", e.can(EngineCapability::counts) ? "" : "time only, no FLOPs or bytes: ",
                                    fmt::join(why_not, "; "))};
    }
    throw std::logic_error("no engine is available, not even the time engine");
}

} // namespace roofline::measure
