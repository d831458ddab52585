#include "measure/mpi_rank.hpp"

#include <fmt/core.h>

#include <cctype>
#include <charconv>
#include <filesystem>

namespace roofline::measure {
namespace {

std::optional<int> env_int(const EnvLookup& getenv, const char* name) {
    const char* text = getenv(name);
    if (!text || !*text) return std::nullopt;
    int value = 0;
    const std::string_view s(text);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc{} || end != s.data() + s.size() || value < 0) return std::nullopt;
    return value;
}

std::string env_string(const EnvLookup& getenv, const char* name) {
    const char* text = getenv(name);
    return text ? text : "";
}


} // namespace

std::optional<MpiRank> detect_mpi_rank(const EnvLookup& getenv) {
    MpiRank r;
    // Open MPI's own variables first: they also carry the size.
    if (auto rank = env_int(getenv, "OMPI_COMM_WORLD_RANK")) {
        r.rank = *rank;
        r.size = env_int(getenv, "OMPI_COMM_WORLD_SIZE").value_or(1);
        r.job = env_string(getenv, "PMIX_NAMESPACE");
        if (r.job.empty()) r.job = env_string(getenv, "OMPI_MCA_ess_base_jobid");
        r.launcher = "Open MPI";
    } else if (auto pmi = env_int(getenv, "PMI_RANK")) {
        r.rank = *pmi;
        r.size = env_int(getenv, "PMI_SIZE").value_or(1);
        r.launcher = "MPICH/Hydra";
        if (getenv("SLURM_STEP_ID")) {
            r.job = env_string(getenv, "SLURM_JOB_ID") + "." + env_string(getenv, "SLURM_STEP_ID");
            r.launcher = "Slurm";
        }
    } else if (auto pmix = env_int(getenv, "PMIX_RANK")) {
        r.rank = *pmix;
        r.size = env_int(getenv, "PMIX_SIZE").value_or(env_int(getenv, "SLURM_NTASKS").value_or(1));
        r.job = env_string(getenv, "PMIX_NAMESPACE");
        r.launcher = "PMIx";
    } else if (getenv("SLURM_STEP_ID") && env_int(getenv, "SLURM_PROCID")) {
        // srun without an MPI plugin: a job step's task (a batch script alone has no step id).
        r.rank = *env_int(getenv, "SLURM_PROCID");
        r.size = env_int(getenv, "SLURM_NTASKS").value_or(1);
        r.job = env_string(getenv, "SLURM_JOB_ID") + "." + env_string(getenv, "SLURM_STEP_ID");
        r.launcher = "Slurm";
    } else {
        return std::nullopt;
    }
    if (r.size < 1 || r.rank >= r.size) return std::nullopt;  // inconsistent: not a rank we can place
    return r;
}

bool rank_can_rerun(const MpiRank& rank, const EnvLookup& getenv) {
    // Hydra hands each rank an open PMI socket (PMI_FD) that closes when the first
    // run finalizes: a second MPI_Init writes to a closed socket (SIGPIPE).
    if (getenv("PMI_FD")) return false;
    return rank.launcher == "Open MPI" || getenv("PMIX_RANK") != nullptr;
}

std::vector<std::pair<std::string, std::string>> rank_rerun_env() {
    return {{"PMIX_GDS_MODULE", "hash"}, {"PMIX_MCA_gds", "hash"}};
}

std::string job_file_name(const std::string& job) {
    std::string out;
    for (char c : job) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
    return out.empty() ? "job" : out;
}

std::string rank_points_path(const std::string& job_output, const MpiRank& rank, int of_rank) {
    if (job_output.empty()) return fmt::format(".roofline-{}.rank{}.json", job_file_name(rank.job), of_rank);
    const std::filesystem::path out(job_output);
    auto name = out.stem().string() + fmt::format(".rank{}", of_rank) + out.extension().string();
    return (out.parent_path() / name).string();
}

} // namespace roofline::measure
