// The points of an MPI job: every rank's own points and, over the ranks, one
// point per region with the job's work and wall time. Rank 0 gathers the
// other ranks' files (written next to the job's output, so a file system the
// ranks share is needed across nodes).
#pragma once

#include "core/provenance.hpp"
#include "core/roofline.hpp"
#include "measure/mpi_rank.hpp"

#include <functional>
#include <string>
#include <vector>

namespace roofline::measure {

struct RankPoints {
    int rank = 0;
    std::string host;
    std::vector<Point> points;
};

// A rank's point in the job's file: "NAME [rank R]".
std::string rank_point_name(const std::string& name, int rank);

// A node's share of a job's region: "NAME [node HOST]" (core/cluster_roofline.hpp:
// node_point_name, which report and plot read back to judge it against its node).

// Each rank's points, named "NAME [rank R]" with details "mpi_rank"; then,
// when two ranks or more have a region, the job's point "NAME": FLOPs, bytes
// and counts summed over the ranks, seconds the longest rank's (the ranks run
// at once: the job's wall time), threads summed, details "mpi_ranks" (ranks
// that had it) and "mpi_hosts" (distinct hosts: above 1 the point is a
// cluster's, not one node's). A job point over several hosts is followed by
// one point per host, "NAME [node HOST]" (series "NAME per node"), its ranks
// summed the same way: what one node's roofline can judge. Pure.
std::vector<Point> job_points(const std::vector<RankPoints>& ranks);

struct GatheredJob {
    std::vector<RankPoints> ranks;       // by rank, the caller's own included
    std::vector<int> missing;            // ranks whose file did not come in time
    std::vector<std::string> problems;   // files that could not be read, with the reason
    std::vector<std::string> files;      // the rank files read (the caller may remove them)
};

// Rank 0: its own points plus every other rank's file (rank_points_path),
// waiting up to `timeout_seconds` for them. A file belongs to this launch when
// its provenance names the same job id, or, when the launcher gives none, when
// it was written after `started_epoch_seconds`. `waiting` is called once if
// the wait is longer than a moment.
GatheredJob gather_job(const MpiRank& self, RankPoints own, const std::string& job_output,
                       double started_epoch_seconds, double timeout_seconds,
                       const std::function<void(int missing)>& waiting);

} // namespace roofline::measure
