// `mpirun -np N roofline measure -- ./app`: each roofline process is started
// as one rank of the job, measures its own rank, and rank 0 gathers the job.
// This file says whether we are a rank (from the launcher's environment) and
// what the rank's runs need to join the job more than once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline::measure {

struct MpiRank {
    int rank = 0;
    int size = 1;
    std::string job;       // the launch's id (same in every rank), empty when the launcher gives none
    std::string launcher;  // "Open MPI", "PMIx", "MPICH/Hydra", "Slurm": where rank and size came from
};

using EnvLookup = std::function<const char*(const char*)>;

// The rank this process is, from the variables launchers set for their ranks
// (Open MPI's OMPI_COMM_WORLD_*, PMIx's PMIX_RANK, Hydra's PMI_RANK/PMI_SIZE,
// srun's SLURM_PROCID/SLURM_NTASKS inside a job step); nullopt when not started
// as a rank. A size of 1 is still a rank (mpirun -np 1).
std::optional<MpiRank> detect_mpi_rank(const EnvLookup& getenv);

// Whether the rank's process may start the program more than once (native
// run, tool run ...): yes under Open MPI and PMIx launchers (with
// rank_rerun_env()); no under Hydra (MPICH, Intel MPI), whose PMI socket
// closes when the first run finalizes.
bool rank_can_rerun(const MpiRank& rank, const EnvLookup& getenv);

// Environment for each run of the program inside a rank. A rank's process may
// join its job only once by default: Open MPI 4 with PMIx's shared-memory job
// store (gds ds21/ds12) answers a second MPI_Init's "local rank" query with
// "not found". Its hash store sends the job data over the connection instead,
// so every run (native, under the tool, timed) can initialize MPI.
std::vector<std::pair<std::string, std::string>> rank_rerun_env();

// A job id made safe for a file name ("job" when empty).
std::string job_file_name(const std::string& job);

// Where rank R writes its own points for the job file `job_output`:
// "job.json" -> "job.rank1.json". Without an output, a hidden file in the
// working directory named after the job id.
std::string rank_points_path(const std::string& job_output, const MpiRank& rank, int of_rank);

} // namespace roofline::measure
