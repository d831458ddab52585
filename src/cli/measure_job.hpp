// `mpirun -np N roofline measure ...`: what a rank does with its points once
// it has measured itself. Every rank but 0 writes its own file; rank 0 gathers
// them, prints the job (each rank and the sum over ranks), writes the job's
// points file and stores it. Part of the measure command (cli/measure_cmd.cpp).
#pragma once

#include "cli/point_delivery.hpp"
#include "core/provenance.hpp"
#include "core/roofline.hpp"
#include "core/machine_file.hpp"
#include "measure/mpi_rank.hpp"

#include <optional>
#include <string>
#include <vector>

namespace roofline::cli {

// A measured point's place on the machine's roofline; nullopt when it cannot
// be placed (no time, no bytes, or a job point spanning several hosts).
std::optional<Analysis> place_measured(const MachineFile& machine, const Point& p);
void print_measured_points(const std::vector<Point>& points, const std::optional<MachineFile>& machine);


struct RankJobOutput {
    std::string output;  // -o: the job's points file (rank files go next to it); empty: none
    std::string db;
    bool no_store = false;
    bool quiet = false;
    double started_epoch_seconds = 0;  // when this rank started (stale rank files are older)
    double wait_seconds = 120;         // how long rank 0 waits for the others after its own runs
};

// Returns false when this rank's points could not be written (rank 0: the job's, to -o or the
// store); they are then rescued with rescue_points, and rank 0 keeps the rank files.
bool finish_rank(const measure::MpiRank& rank, const std::vector<Point>& points, Provenance provenance,
                 const std::optional<MachineFile>& machine, const RankJobOutput& out);

} // namespace roofline::cli
