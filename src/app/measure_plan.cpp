// CPU measure's options to its runs' request; see app/measure_plan.hpp.
#include "app/measure_plan.hpp"

#include "app/request_error.hpp"
#include "bench/cache_probe.hpp"
#include "core/message_name.hpp"
#include "core/repeated_timing.hpp"
#include "io/install_layout.hpp"
#include "io/machine_json.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/store_location.hpp"
#include "measure/cache_hierarchy.hpp"
#include "measure/child_process.hpp"
#include "measure/merge.hpp"
#include "measure/native_glibc.hpp"
#include "measure/source_lines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string_view>

namespace roofline::app {
namespace {

// The cores the cache simulator models: its limit; more threads wrap.
int simulated_cores(int cores) { return std::clamp(cores, 1, 1024); }

// Measuring a launcher measures the launcher (its own few FLOPs), not the ranks it starts.
void refuse_launcher(const std::string& command) {
    const auto program = std::filesystem::path(command).filename().string();
    for (const char* launcher : {"mpirun", "mpiexec", "orterun", "prterun", "mpiexec.hydra", "srun", "aprun"})
        if (program == launcher)
            throw RequestError(fmt::format(
                "'{}' is a launcher: measuring it would measure the launcher, not the ranks it starts. Put "
                "roofline inside it, so that each rank measures itself: {} [launcher options] roofline measure "
                "[options] -- ./app",
                program, program));
}

// --loops: the file whose instructions the tool counts one by one: `command` found as execvp
// would, with its links resolved (as Valgrind names it).
std::string loops_object(const std::string& command) {
    const auto path = measure::find_executable(command);
    if (path.empty()) throw RequestError(fmt::format("--loops: '{}' is not a program found in PATH", command));
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(path, ec);
    return ec ? path : resolved.string();
}

// --times takes the native times of an earlier run: only those of a run of this very
// command (program and arguments; the program's path may be written differently)
// that was timed natively and ended as it does normally, else the counts of one
// program would be divided by the time of another.
void check_times_source(const PointsDocument& doc, const std::string& path, const std::vector<std::string>& command) {
    const std::string need = "--times needs the points file of an earlier 'roofline measure --engine time -o FILE' "
                             "run of the same command";
    if (!doc.provenance)
        throw RequestError(fmt::format("{} does not say how it was measured (no provenance): {}", path, need));
    const auto& p = *doc.provenance;
    if (std::find(p.runs.begin(), p.runs.end(), "native") == p.runs.end())
        throw RequestError(fmt::format("{} holds no native timing (its runs: {}): {}", path,
                                       p.runs.empty() ? "none" : fmt::to_string(fmt::join(p.runs, ", ")), need));
    auto same_program = [](const std::string& a, const std::string& b) {
        return a == b || std::filesystem::path(a).filename() == std::filesystem::path(b).filename();
    };
    const bool same = p.command.size() == command.size() && !command.empty() &&
                      same_program(p.command.front(), command.front()) &&
                      std::equal(command.begin() + 1, command.end(), p.command.begin() + 1);
    if (!same)
        throw RequestError(fmt::format("{} timed another command ('{}'), not '{}': {}", path,
                                       fmt::join(p.command, " "), fmt::join(command, " "), need));
    if (const auto it = p.options.find("interrupted"); it != p.options.end())
        throw RequestError(fmt::format("{} comes from a run interrupted by {}: its times are partial; {}", path,
                                       it->second, need));
    if (const auto it = p.options.find("native_status"); it != p.options.end() && it->second.starts_with("signal"))
        throw RequestError(fmt::format("{} comes from a run killed by {}: its times are partial; {}", path,
                                       it->second, need));
}

// The per-function options of a command line, for a suggested command.
std::string per_function_flags(const MeasureOptions& options) {
    std::string flags = options.functions ? " --functions" : "";
    for (const auto& f : options.region_functions) flags += " --region-function '" + f + "'";
    return flags;
}

// Engine names for a refusal, from measure's registry: "perf and time", "--engine perf or --engine
// time" (each name after `before_each`, the last two joined by `last_joint`).
std::string engines_text(const std::vector<std::string>& names, std::string_view before_each,
                         std::string_view last_joint) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += fmt::format("{}{}{}", i == 0 ? "" : i + 1 == names.size() ? last_joint : ", ", before_each, names[i]);
    return text;
}

// What the engine auto resolves to (or the one requested) can do, asked as each check needs it.
bool resolved_can(const measure::MeasureRequest& request, measure::EngineCapability capability) {
    return measure::engine_descriptor(measure::resolve_engine(request)).can(capability);
}

// --times FILE: the native times of an earlier run of this command (this rank's in a job), for
// the instrument engine's counts.
void take_earlier_times(measure::MeasureRequest& request, const MeasureOptions& o,
                        const std::optional<measure::MpiRank>& mpi) {
    const auto& counting = measure::engine_for(measure::EngineCapability::counting_run);
    if (!measure::engine_descriptor(request.engine).can(measure::EngineCapability::counting_run)) {
        const auto others = measure::cpu_engines_without(measure::EngineCapability::counting_run);
        throw RequestError(fmt::format("--times replaces the native run of the {} engine; the {} engine{} take{} "
                                       "their own times",
                                       counting.name, engines_text(others, "", " and "), others.size() == 1 ? "" : "s",
                                       others.size() == 1 ? "s" : ""));
    }
    request.engine = counting.kind;
    const auto doc = read_points_document(o.times);
    check_times_source(doc, o.times, o.command);
    try {
        request.times =
            measure::earlier_times(doc.points, mpi ? std::optional<int>(mpi->rank) : std::nullopt, o.times);
    } catch (const std::invalid_argument& e) {
        throw RequestError(e.what());
    }
}

// Whether every run (native, tool, call timing, sampling) may initialize MPI in this rank: the
// environment that lets it, or a refusal when the engine needs two runs and it may start one;
// a rank but 0 checks that it can write its points file.
bool plan_rank_runs(measure::MeasureRequest& request, const MeasureOptions& o, const measure::MpiRank& mpi,
                    const measure::EnvLookup& getenv) {
    const bool rerun = measure::rank_can_rerun(mpi, getenv);
    if (rerun) {
        for (auto& kv : measure::rank_rerun_env()) request.env.push_back(std::move(kv));
    } else if (!request.times && resolved_can(request, measure::EngineCapability::counting_run)) {
        throw RequestError(fmt::format(
            "under {} each rank may start the program only once (its PMI connection closes when the program "
            "finalizes MPI), and the {} engine needs two runs: a native one for time and one under "
            "the Valgrind tool for counts. Measure in two launches:\n"
            "  mpiexec -n {} roofline measure --engine time -o times.json -- {}\n"
            "  mpiexec -n {} roofline measure --times times.json{}{} -- {}",
            mpi.launcher, measure::engine_for(measure::EngineCapability::counting_run).name, mpi.size,
            fmt::to_string(fmt::join(o.command, " ")), mpi.size, per_function_flags(o),
            o.output.empty() ? "" : " -o " + o.output, fmt::to_string(fmt::join(o.command, " "))));
    }
    if (mpi.rank != 0) check_writable(measure::rank_points_path(o.output, mpi, mpi.rank));
    return rerun;
}

} // namespace

const measure::EngineDescriptor& requested_engine(const std::string& name) {
    try {
        return measure::engine_named(name);
    } catch (const std::invalid_argument& e) {
        throw RequestError(e.what());
    }
}

bool measures_gpu_kernels(const measure::EngineDescriptor& requested, bool ncu_csv, const std::string& engine_name) {
    if (!requested.runs_through_gpu_backend && !ncu_csv) return false;
    if (!requested.runs_through_gpu_backend && !requested.automatic)
        throw RequestError(fmt::format("--ncu-csv is read by the {} engine, not --engine {}",
                                       measure::engine_for(measure::EngineCapability::gpu_kernels).name, engine_name));
    return true;
}

void refuse_output_over_store(const std::string& output, const std::string& db, bool no_store) {
    if (output.empty() || no_store) return;
    const auto location = db.empty() ? ResultsStore::default_path() : db;
    if (is_postgres_url(location)) return;  // a server, not a file -o could name
    std::error_code ec1, ec2;
    const auto store = std::filesystem::weakly_canonical(location, ec1);
    const auto out = std::filesystem::weakly_canonical(output, ec2);
    if (!ec1 && !ec2 && store == out)
        throw RequestError(fmt::format("-o {} is the results store (--db): name another file for the points", output));
}

const std::pair<Topology, std::vector<CacheLevel>>& MachineCaches::get(std::vector<std::string>& notes) {
    if (!found_) {
        auto topology = Topology::discover(CpuScope::whole_machine);
        topology.require_this_machine("the cache simulation");
        auto caches = checked_data_caches(topology, CacheProbe::when_doubtful);
        for (const auto& c : caches)
            if (!c.finding.empty()) notes.push_back("cache hierarchy: " + c.finding);
        found_.emplace(std::move(topology), std::move(caches));
    }
    return *found_;
}

MeasurePlanner::MeasurePlanner(MeasureOptions options, const measure::EngineDescriptor& requested)
    : options_(std::move(options)) {
    const auto& o = options_;
    if (o.gpu_options)
        throw RequestError("--offload and --offload-summary are for CUDA programs: --engine ncu (or --ncu-csv)");
    if (o.command.empty())
        throw RequestError("no command to measure: put it after '--', e.g. roofline measure -- ./my_app");
    refuse_launcher(o.command[0]);
    request_.engine = requested.kind;
    // An option that needs what the requested engine cannot do is refused; under auto it picks the engine that can.
    const auto need = [&](measure::EngineCapability capability, const char* refusal) {
        const auto& able = measure::engine_for(capability);
        if (!requested.can(capability)) throw RequestError(fmt::format(fmt::runtime(refusal), able.name));
        if (requested.automatic) request_.engine = able.kind;
    };
    if (o.per_function())
        need(measure::EngineCapability::functions,
             "--functions and --region-function need the {0} engine (--engine {0})");
    if (o.loops)
        need(measure::EngineCapability::loops, "--loops needs the {0} engine (--engine {0}): it counts every instruction");
    // Two builds' loops are at different addresses: they are matched by their source lines, which
    // only DWARF line tables give (measure/timed_build_loops).
    if (o.loops && !o.counts_from.empty()) {
        if (!o.region_functions.empty())
            throw RequestError(fmt::format(
                "--loops with --counts-from gives the whole run's loops, not those inside --region-function's calls: "
                "which runs of a loop were made inside a call is counted by instruction in the counted build only, "
                "and the timed build's samples are matched to loops by source lines, not by instruction, so its "
                "time cannot be split the same way. Drop --region-function (the whole run's loops), or measure "
                "the counted build alone: roofline measure --loops --region-function NAME -- {} ... (its own time, "
                "not that of {})",
                message_name(o.counts_from), message_name(o.command.front())));
        for (const auto* program : {&o.counts_from, &o.command.front()}) {
            const auto path = loops_object(*program);
            if (!measure::SourceLines(path).has_lines())
                throw RequestError(fmt::format(
                    "--loops with --counts-from matches the loops of the counted and the timed build by their source "
                    "lines, and {} has no debug information (no DWARF line table): build both with -g",
                    message_name(*program)));
        }
        loops_timed_file_ = loops_object(o.command.front());
    }
    // Every destination and input is checked before the program runs, not discovered after it.
    refuse_output_over_store(o.output, o.db, o.no_store);
    if (!o.output.empty()) check_writable(o.output);
    request_.argv = o.command;
    request_.region_functions = o.region_functions;
    if (o.loops) request_.per_instruction_object = loops_object(o.counts_from.empty() ? o.command.front() : o.counts_from);
    if (!o.loops_libraries.empty() && !o.loops)
        throw RequestError("--loops-library adds a library's loops to those of --loops: give --loops too");
    for (const auto& library : o.loops_libraries) {
        // The tool knows a library by the file it mapped, links resolved.
        std::error_code ec;
        const auto resolved = std::filesystem::canonical(library, ec);
        if (ec || !std::filesystem::is_regular_file(resolved))
            throw RequestError(fmt::format("--loops-library {}: no such file (give the library's path, as ldd "
                                           "shows it for the program)",
                                           library));
        request_.per_instruction_libraries.push_back(resolved.string());
    }
    // --loops: the math library the program loads is counted too. A loop calling libm's exp held none
    // of its FLOPs: the exp the PLT reaches is a wrapper of no FLOPs that calls the work under another
    // name (__ieee754_exp_fma), in a file not counted instruction by instruction, so the hottest loop
    // of a program read 0 FLOPs with its calls unless --loops-library named libm.
    if (o.loops)
        for (const auto& math : measure::math_libraries_loaded(o.counts_from.empty() ? o.command.front() : o.counts_from))
            if (std::find(request_.per_instruction_libraries.begin(), request_.per_instruction_libraries.end(), math) ==
                request_.per_instruction_libraries.end()) {
                request_.per_instruction_libraries.push_back(math);
                cache_notes_.push_back(fmt::format(
                    "--loops: {} counted instruction by instruction too (a math library the program loads: "
                    "the FLOPs of its exp, sin, pow ... are the calling loops')",
                    math));
            }
    request_.self_exe = self_executable();
    if (!o.cache_model.empty() &&
        (!o.cache_sim || !measure::engine_descriptor(request_.engine).can(measure::EngineCapability::cache_simulation)))
        throw RequestError(fmt::format(
            "--cache-model is simulated by the {} engine: drop --cache-sim off, {}",
            measure::engine_for(measure::EngineCapability::cache_simulation).name,
            engines_text(measure::cpu_engines_without(measure::EngineCapability::cache_simulation), "--engine ", " or ")));
}

bool MeasurePlanner::simulates_caches() const {
    return options_.cache_sim &&
           measure::engine_descriptor(request_.engine).can(measure::EngineCapability::cache_simulation);
}

void MeasurePlanner::simulate_model_caches(const MachineModel& model, const std::string& source) {
    // Hardware the user does not have: the caches of a machine file or spec sheet.
    measure::SimulatedHierarchy hierarchy;
    try {
        hierarchy = measure::simulated_hierarchy(model.caches, model.cpu.vendor, simulated_cores(model.cpu.cores));
    } catch (const std::invalid_argument& e) {
        throw RequestError(fmt::format("--cache-model {}: {}", options_.cache_model, e.what()));
    }
    request_.cache_hierarchy = hierarchy.option;
    request_.cache_cores = simulated_cores(model.cpu.cores);
    cache_model_ = hierarchy.description + " (from " + source + ")";
    for (const auto& n : hierarchy.notes) cache_notes_.push_back("cache model: " + n);
}

void MeasurePlanner::simulate_this_machines_caches() {
    // The caches of this machine, as hwloc sees them; without them the points keep L1 bytes only.
    try {
        const auto& [topology, caches] = caches_.get(cache_notes_);
        const auto hierarchy =
            measure::simulated_hierarchy(caches, topology.cpu().vendor, simulated_cores(topology.cpu().cores));
        request_.cache_hierarchy = hierarchy.option;
        request_.cache_cores = simulated_cores(topology.cpu().cores);
        request_.cache_cpu_cores = measure::cpu_core_map(topology.cores(), request_.cache_cores);
        cache_model_ = hierarchy.description;
        for (const auto& n : hierarchy.notes) cache_notes_.push_back("cache simulation: " + n);
    } catch (const std::exception& e) {
        cache_notes_.push_back(fmt::format("no cache simulation ({}): bytes below L1 are not measured", e.what()));
    }
}

MeasurePlan MeasurePlanner::plan_runs(const measure::EnvLookup& getenv) {
    const auto& o = options_;
    auto& request = request_;
    try {
        request.region_scope = measure::parse_region_scope(o.region_scope);
    } catch (const std::invalid_argument& e) {
        throw RequestError(e.what());
    }
    MeasurePlan plan;
    // Inside an MPI launch each roofline is a rank: it measures its own rank, and rank 0 the job.
    plan.started_unix_seconds =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    plan.mpi = measure::detect_mpi_rank(getenv);
    const auto& mpi = plan.mpi;
    if (!o.times.empty()) take_earlier_times(request, o, mpi);
    if (mpi) plan.rank_rerun = plan_rank_runs(request, o, *mpi, getenv);
    const bool rerun = plan.rank_rerun;
    std::vector<std::string> repeat_notes;
    request.repeat = repeat_request(o.repeat,
                                    {request.times.has_value(), mpi.has_value(), rerun, mpi ? mpi->launcher : "",
                                     resolved_can(request, measure::EngineCapability::counting_run)},
                                    repeat_notes);
    if (o.repeat.cold) {
        std::vector<CacheLevel> caches;
        try {
            caches = caches_.get(cache_notes_).second;
        } catch (const std::exception& e) {
            cache_notes_.push_back(fmt::format("--cold: this machine's caches are not known ({}): the buffer is "
                                               "{} MiB",
                                               e.what(), kColdFlushUnknownBytes >> 20));
        }
        request.repeat.cold_flush_bytes = cold_flush_bytes(caches);
    }
    // More than one run reads standard input: each must read the same.
    const bool several_runs = !mpi || rerun;
    plan.program.replay_stdin =
        several_runs &&
        (((!request.times || o.per_function()) && resolved_can(request, measure::EngineCapability::counting_run)) ||
         (!request.times && may_repeat(request.repeat)));
    plan.cache_model = cache_model_;
    plan.notes = cache_notes_;
    plan.notes.insert(plan.notes.end(), repeat_notes.begin(), repeat_notes.end());
    plan.program.measure = request;
    plan.program.functions = o.functions;
    plan.program.loops = o.loops;
    plan.program.region_functions = !o.region_functions.empty();
    plan.program.max_timed_calls = o.max_timed_calls;
    plan.program.sample_period_us = o.sample_period_us;
    plan.program.in_rank = mpi.has_value();
    plan.program.rank_can_rerun = rerun;
    return plan;
}

} // namespace roofline::app
