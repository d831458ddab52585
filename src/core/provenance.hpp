// Where a set of points came from: written with every points file and stored
// point set that `roofline measure` makes, so that sets can be told apart and
// a measurement repeated.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// A measurement made by the ranks of one MPI launch.
struct MpiProvenance {
    std::string launcher;            // "Open MPI", "MPICH/Hydra", "PMIx", "Slurm"
    std::string job;                 // the launch's id; empty when the launcher gives none
    int rank = -1;                   // the rank a file is from; -1: the whole job
    int ranks = 0;                   // the job's size
    std::vector<std::string> hosts;  // the whole job: each rank's host, by rank ("" when missing)
};

struct Provenance {
    std::vector<std::string> command;  // as run, program first
    std::string cwd;
    std::string date;                  // ISO 8601 UTC
    std::string host;
    std::string cpu;                   // CPUID brand string
    std::vector<std::string> runs;     // what ran, in order: "native", "instrument", "call-timing", "sampling"
    std::string engine;                // the counting engine: "instrument", "perf", "time"
    std::map<std::string, std::string> options;  // settings that change the numbers (region scope ...)
    std::string tool_version;
    std::optional<MpiProvenance> mpi;  // measured inside an MPI launch
};

// Whether the run that made a set of points was stopped before its end (a signal): its points
// are what it had measured by then. options["interrupted"] holds the signal's name ("SIGINT");
// kernels files before issue 33 hold "yes: ...". nullopt: not interrupted; else the signal's
// name, "" when the set does not say which.
inline std::optional<std::string> interrupted_by(const Provenance& provenance) {
    const auto it = provenance.options.find("interrupted");
    if (it == provenance.options.end()) return std::nullopt;
    const std::string& text = it->second;
    const auto at = text.find("SIG");
    if (at == std::string::npos) return std::string();
    auto end = at + 3;
    while (end < text.size() && text[end] >= 'A' && text[end] <= 'Z') ++end;
    return end > at + 3 ? text.substr(at, end - at) : std::string();
}

// The signal that killed the timed program itself (a crash: "SIGSEGV"), from options["native_status"]
// ("signal SIGSEGV"; "exit N" when it ended by itself); nullopt when it was not killed or the set
// does not say. Its points hold what it did before it died.
inline std::optional<std::string> killed_by(const Provenance& provenance) {
    const auto it = provenance.options.find("native_status");
    constexpr std::string_view kSignal = "signal ";
    if (it == provenance.options.end() || !it->second.starts_with(kSignal)) return std::nullopt;
    return it->second.substr(kSignal.size());
}

} // namespace roofline
