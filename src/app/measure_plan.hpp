// Planning CPU measure (`roofline measure` with a CPU engine): its options turned into the
// request app/measure runs, every option that makes no sense refused before anything runs.
// The steps are the caller's to call in this order, since the errors are said in it and cli
// has checks of its own between them (the AVX-512 guard, a --cache-model read from the store):
//   requested_engine, measures_gpu_kernels (else app/gpu_measure), MeasurePlanner(options),
//   [guard], simulate_*_caches when simulates_caches(), plan_runs.
// A request the asker got wrong is a RequestError naming the option; nothing is printed.
#pragma once

#include "app/measure.hpp"
#include "app/measure_repeat.hpp"
#include "core/machine_model.hpp"
#include "measure/engine_registry.hpp"
#include "measure/mpi_rank.hpp"
#include "topo/topology.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::app {

// measure's options as given (cli parses them); those of the CPU engines, and the GPU's that
// the CPU engines refuse.
struct MeasureOptions {
    std::vector<std::string> command;
    std::string output;                    // -o (empty: none)
    std::string db;                        // --db (empty: the default store)
    bool no_store = false;
    bool functions = false;                // --functions
    bool loops = false;                    // --loops
    std::vector<std::string> loops_libraries;  // --loops-library: libraries whose loops are found too
    std::vector<std::string> region_functions;
    std::string region_scope = "process";
    bool cache_sim = true;                 // --cache-sim on
    std::string cache_model;               // --cache-model as given (the caller reads it)
    std::string counts_from;               // --counts-from PROGRAM
    std::string times;                     // --times FILE
    bool gpu_options = false;              // --offload or --offload-summary given
    long long max_timed_calls = 10000;
    double sample_period_us = 0;           // 0: chosen from the native run's length
    RepeatOptions repeat;

    bool per_function() const { return functions || !region_functions.empty(); }
};

// --engine NAME's row; RequestError naming the engines for a name the registry lacks.
const measure::EngineDescriptor& requested_engine(const std::string& name);

// Whether the measurement is GPU measure's (app/gpu_measure): an engine run through the GPU
// backend, or --ncu-csv under auto. RequestError for --ncu-csv with a CPU engine.
bool measures_gpu_kernels(const measure::EngineDescriptor& requested, bool ncu_csv, const std::string& engine_name);

// -o naming the results store itself would write JSON over every stored run: RequestError.
void refuse_output_over_store(const std::string& output, const std::string& db, bool no_store);

// This machine's topology and checked data caches, found once for the cache simulation and
// --cold: as reported, checked against the table and, when a size is still doubted, a probe
// of a second or two: never a size we have reason to doubt (a guest's 508 MiB L3 made a
// 256 MiB stream miss DRAM entirely).
class MachineCaches {
public:
    // Throws when the topology cannot be read. `notes` gets what the check found, once.
    const std::pair<Topology, std::vector<CacheLevel>>& get(std::vector<std::string>& notes);

private:
    std::optional<std::pair<Topology, std::vector<CacheLevel>>> found_;
};

// What plan_runs gives: the runs' request and where this run stands in an MPI launch.
struct MeasurePlan {
    ProgramMeasureRequest program;
    std::optional<measure::MpiRank> mpi;  // inside an MPI launch: this rank
    bool rank_rerun = true;               // every run may initialize MPI in this rank
    double started_unix_seconds = 0;      // before the runs (an MPI job's rank files are newer)
    std::string cache_model;              // what the instrument engine simulates, for the provenance
    std::vector<std::string> notes;       // the caches', then --repeat's: said before the runs' own
    bool quiet_rank() const { return mpi && mpi->rank != 0; }  // rank 0 speaks for the job
};

class MeasurePlanner {
public:
    // The engine that can do what the options ask (auto picks it), the command checked (not a
    // launcher), -o writable and not the store, --loops' program found; RequestError otherwise.
    MeasurePlanner(MeasureOptions options, const measure::EngineDescriptor& requested);

    const MeasureOptions& options() const { return options_; }
    // --loops with --counts-from: the timed program's file (its loops matched to the counted one's); else empty.
    const std::string& loops_timed_file() const { return loops_timed_file_; }
    measure::MeasureRequest& request() { return request_; }
    // Whether the counting run simulates the caches (--cache-sim on, an engine that can).
    bool simulates_caches() const;
    // --cache-model: the caches of `model` (from `source`, as people name it). RequestError
    // when they cannot be simulated.
    void simulate_model_caches(const MachineModel& model, const std::string& source);
    // This machine's caches; without them (no topology) a note says bytes below L1 are not measured.
    void simulate_this_machines_caches();
    // The rest, in order: --region-scope, this MPI rank, --times' earlier run (read and checked
    // to be of this command), whether the rank may run the program more than once, --repeat,
    // --cold's buffer, whether standard input is replayed for every run. `getenv` reads the
    // launcher's variables.
    MeasurePlan plan_runs(const measure::EnvLookup& getenv);

private:
    MeasureOptions options_;
    measure::MeasureRequest request_;
    MachineCaches caches_;
    std::string cache_model_;
    std::vector<std::string> cache_notes_;  // said before the runs: the caches', --loops' math libraries

    std::string loops_timed_file_;
};

} // namespace roofline::app
