// The ranks of one MPI launch meeting through files in a directory they share: each rank
// writes its own file (atomically, so no reader sees half of one) and waits for the files of
// the ranks it needs. No MPI library of ours: the ranks are roofline processes the launcher
// started, and across nodes the directory must be on a file system they share. Used by
// measure's rank 0 gathering the job's points (mpi_job: gather_job) and by bench --mpi, whose
// ranks say which node they run on and wait for the nodes' models (app/cluster_bench).
#pragma once

#include <functional>
#include <vector>

namespace roofline::measure {

// Polls `arrived(rank)` for each rank of `ranks` that has not arrived yet, until every one has
// or `timeout_seconds` passed (each is polled at least once); returns those that did not
// arrive, in the order given. A rank whose file is there but cannot be read counts as arrived
// (`arrived` keeps the problem). Polls every 50 ms at first, backing off to every 2 s, so that a
// thousand ranks polling a shared file system for minutes do not load it. `waiting(missing)`
// is called once, when the wait has lasted 2 s.
std::vector<int> wait_for_ranks(const std::vector<int>& ranks, double timeout_seconds,
                                const std::function<bool(int rank)>& arrived,
                                const std::function<void(int missing)>& waiting = {});

} // namespace roofline::measure
