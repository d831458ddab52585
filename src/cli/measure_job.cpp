#include "cli/measure_job.hpp"
#include "cli/messages.hpp"

#include "cli/stored_source.hpp"
#include "core/message_name.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "core/machine_roofline.hpp"
#include "measure/mpi_job.hpp"
#include "render/measure_tables.hpp"
#include "render/text_escape.hpp"
#include "topo/environment.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <utility>

#include <unistd.h>

namespace roofline::cli {
namespace {
// The roofline a counted, timed point with bytes is judged on: the policy plot and report use
// (the point's own precision and thread count where measured); none for a job over several nodes,
// which one node's roofline does not bound.
std::optional<Roofline> measured_roofline(const MachineFile& machine, const Point& p) {
    if (!p.work_counted || p.bytes.empty() || p.seconds <= 0) return std::nullopt;
    if (const auto it = p.details.find("mpi_hosts"); it != p.details.end() && it->second > 1) return std::nullopt;
    try {
        return roofline_from_machine_file(machine, select_roofline(machine.model, {p}, {}));
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

// A point with no FLOPs that moved data: its bandwidth at each level against the level's roof;
// nullopt for any other point.
std::optional<DataMovement> measured_data_movement(const MachineFile& machine, const Point& p) {
    if (p.work != 0) return std::nullopt;
    const auto r = measured_roofline(machine, p);
    return r ? data_movement(*r, p, View::carm) : std::nullopt;
}

// Points that ran with a thread count the model did not measure are judged on the roofs of the
// most threads it did (select_roofline, as report and plot judge them, and say): measure printed
// their % of attainable and binding roof without a word, so two OpenMP threads on a model of one
// thread read up to twice their efficiency. Said once per count, the points named (ten, the rest
// counted), as a warning as the precision one is: it bears on the table's figures.
void warn_unmeasured_threads(const std::vector<MeasuredRow>& rows, const MachineModel& model) {
    std::map<std::pair<int, int>, std::vector<std::string>> unmeasured;  // (ran with, judged at): names
    for (const auto& row : rows) {
        if (!row.analysis && !row.movement) continue;
        const auto selection = select_roofline(model, {row.point}, {});
        if (mixed_threads_note(model, {row.point}, {}, selection).empty()) continue;
        int judged = 0;
        for (const auto& c : model.compute)
            if (c.precision == selection.precision) judged = std::max(judged, c.threads);
        unmeasured[{judged_threads(row.point), judged}].push_back(row.point.name);
    }
    for (const auto& [counts, names] : unmeasured) {
        const auto [ran, judged] = counts;
        std::vector<std::string> quoted;
        for (std::size_t i = 0; i < names.size() && i < 10; ++i) quoted.push_back(fmt::format("'{}'", names[i]));
        if (names.size() > 10) quoted.push_back(fmt::format("{} more", names.size() - 10));
        std::fflush(stdout);  // under the table it speaks of
        print_stderr("roofline: warning: {}\n",
                     terminal_text(fmt::format(
                         "{} ran with {} thread{}, a count this model did not measure: {} judged against its roofs "
                         "for {} thread{}, so {} % of attainable and binding roof are against another thread "
                         "count's roofs; a model with roofs for {} thread{} (roofline bench --threads {}) judges {} "
                         "on {} own count, here and in report and plot",
                         fmt::join(quoted, ", "), ran, ran == 1 ? "" : "s", names.size() == 1 ? "it is" : "they are",
                         judged, judged == 1 ? "" : "s", names.size() == 1 ? "its" : "their", ran, ran == 1 ? "" : "s",
                         ran, names.size() == 1 ? "it" : "them", names.size() == 1 ? "its" : "their")));
    }
}

} // namespace

std::optional<Analysis> place_measured(const MachineFile& machine, const Point& p) {
    if (p.work <= 0) return std::nullopt;
    const auto r = measured_roofline(machine, p);
    if (!r) return std::nullopt;
    try {
        return analyze(*r, p, View::carm);
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

void print_measured_points(const std::vector<Point>& points, const std::optional<MachineFile>& machine) {
    std::vector<MeasuredRow> rows;
    for (const auto& p : points)
        rows.push_back({p, machine ? place_measured(*machine, p) : std::nullopt,
                        machine ? measured_data_movement(*machine, p) : std::nullopt});
    fmt::print("{}", render_measured_points(rows, machine.has_value()));
    if (!machine) return;
    warn_unmeasured_threads(rows, machine->model);
    // Each point is judged on its own precision's roofline where the model has one; those whose
    // precision it lacks (float code, a dp-only model) are said once, with report's words.
    std::vector<Point> other_precision;
    std::vector<std::string> names;
    for (const auto& row : rows) {
        if (!row.analysis) continue;
        const auto selection = select_roofline(machine->model, {row.point}, {});
        if (missing_precision_note(machine->model, {row.point}, {}, selection).empty()) continue;
        other_precision.push_back(row.point);
        names.push_back(row.point.name);
    }
    if (other_precision.empty()) return;
    std::fflush(stdout);  // under the table it speaks of, when both go to one pipe
    print_stderr("roofline: warning: {}\n",
                 terminal_text(missing_precision_note(machine->model, other_precision, {},
                                                      select_roofline(machine->model, other_precision, {}), names)));
}


bool finish_rank(const measure::MpiRank& rank, const std::vector<Point>& points, Provenance provenance,
                 const std::optional<MachineFile>& machine, const RankJobOutput& out) {
    auto note = [&](const std::string& text) {
        if (!out.quiet) print_stderr("roofline: {}\n", text);
    };
    provenance.mpi = MpiProvenance{rank.launcher, rank.job, rank.rank, rank.size, {}};
    // Rank 0 writes its own file too: if the launcher ends the job while it waits
    // for the others (a rank failed), every rank's points are still on disk.
    const auto own_path = measure::rank_points_path(out.output, rank, rank.rank);
    try {
        write_points_file(own_path, points, &provenance);
    } catch (const std::exception& e) {
        print_stderr("roofline [rank {}]: error: cannot write this rank's points: {}\n", rank.rank, e.what());
        if (rank.rank != 0) {
            rescue_points(points, provenance, fmt::format("roofline-points-rank{}-{}.json", rank.rank, ::getpid()),
                          fmt::format("rank {}'s points", rank.rank));
            return false;
        }
    }
    if (rank.rank != 0) return true;

    measure::RankPoints own{0, provenance.host, points};
    const auto job = measure::gather_job(rank, std::move(own), out.output, out.started_epoch_seconds,
                                         out.wait_seconds, [&](int missing) {
                                             note(fmt::format("waiting up to {:.0f} s for {} other rank(s) to "
                                                              "write their points ({})",
                                                              out.wait_seconds, missing,
                                                              measure::rank_points_path(out.output, rank, 1)));
                                         });
    for (const auto& problem : job.problems) print_stderr("roofline: warning: a rank's points: {}\n", problem);
    if (!job.missing.empty()) {
        std::vector<std::string> ranks;
        for (int r : job.missing) ranks.push_back(std::to_string(r));
        print_stderr(
                   "roofline: warning: no points from rank(s) {} after {:.0f} s (each rank writes {}; across nodes "
                   "the ranks need a file system they share): the job's sums leave them out\n",
                   fmt::join(ranks, " "), out.wait_seconds,
                   message_name(measure::rank_points_path(out.output, rank, job.missing.front())));
    }
    const auto all = measure::job_points(job.ranks);
    MpiProvenance job_mpi{rank.launcher, rank.job, -1, rank.size, std::vector<std::string>(rank.size)};
    for (const auto& r : job.ranks) job_mpi.hosts[static_cast<std::size_t>(r.rank)] = r.host;
    auto job_provenance = provenance;
    job_provenance.mpi = std::move(job_mpi);
    {  // the job's result: printed under -q too
        fmt::print("MPI job of {} rank(s) ({}{}): each rank's points, then the sum over ranks (FLOPs and bytes "
                   "summed, seconds of the slowest rank)\n",
                   rank.size, terminal_text(rank.launcher), rank.job.empty() ? "" : ", job " + terminal_text(rank.job));
        print_measured_points(all, machine);
    }
    // Every destination is tried; when one failed, the job's points are also written where they
    // can be and the rank files stay, so that a job is never lost.
    std::unique_ptr<ResultsStore> store;  // opened only now: a failure is one destination's, said and rescued
    PointDestinations to{out.output, nullptr, fmt::to_string(fmt::join(provenance.command, " ")), "the job's points",
                         out.quiet};
    if (!out.no_store) to.store = [&] { return (store = ResultsStore::open_db_option(out.db)).get(); };
    const bool ok = deliver_points(all, job_provenance, to);
    // The job's file (or store) holds every rank's points now.
    if (ok) {
        std::error_code ec;
        std::filesystem::remove(own_path, ec);
        for (const auto& f : job.files) std::filesystem::remove(f, ec);
    }
    return ok;
}

} // namespace roofline::cli
