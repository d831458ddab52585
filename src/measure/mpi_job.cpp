#include "measure/mpi_job.hpp"

#include "core/cluster_roofline.hpp"
#include "io/points_json.hpp"
#include "measure/rank_rendezvous.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>

namespace roofline::measure {
namespace {

// Details that are counts (summed over ranks); the others (sample periods ...) are per rank.
bool is_count_detail(const std::string& key) {
    for (const char* prefix : {"flops_", "bytes_", "event_"})
        if (key.rfind(prefix, 0) == 0) return true;
    // math_library_flops: the FLOPs run in libm (core/math_library_flops), so the job's sum says
    // its note with the job's share, as each rank's point does.
    return key == "calls" || key == "timed_calls" || key == "samples" || key == "math_library_flops";
}

double epoch_seconds(std::filesystem::file_time_type t) {
    const auto sys = std::chrono::file_clock::to_sys(t);
    return std::chrono::duration<double>(sys.time_since_epoch()).count();
}

} // namespace

std::string rank_point_name(const std::string& name, int rank) { return fmt::format("{} [rank {}]", name, rank); }

std::vector<Point> job_points(const std::vector<RankPoints>& ranks) {
    std::vector<Point> out;
    std::vector<std::string> order;  // region names in first-seen order
    std::map<std::string, std::vector<std::pair<const Point*, const RankPoints*>>> by_name;
    for (const auto& r : ranks) {
        for (const auto& p : r.points) {
            Point q = p;
            q.name = rank_point_name(p.name, r.rank);
            q.details["mpi_rank"] = r.rank;
            out.push_back(std::move(q));
            auto& list = by_name[p.name];
            if (list.empty()) order.push_back(p.name);
            list.emplace_back(&p, &r);
        }
    }
    using Entry = std::pair<const Point*, const RankPoints*>;
    // FLOPs, bytes and counts summed over `entries`; seconds the longest one's (the ranks run at once).
    const auto summed = [](const std::string& name, const std::vector<Entry>& entries) {
        Point sum;
        sum.name = name;
        sum.work_unit = entries.front().first->work_unit;
        sum.source = entries.front().first->source;
        sum.threads = 0;
        std::set<std::string> hosts;
        for (const auto& [p, r] : entries) {
            if (p->work_unit != sum.work_unit) continue;  // not the same kind of work: not summed
            sum.work += p->work;
            sum.work_counted = sum.work_counted && p->work_counted;  // a sum with a rank not counted is not counted
            for (const auto& [level, bytes] : p->bytes) sum.bytes[level] += bytes;
            sum.seconds = std::max(sum.seconds, p->seconds);
            sum.threads += p->threads;
            for (const auto& [key, value] : p->details)
                if (is_count_detail(key)) sum.details[key] += value;
            hosts.insert(r->host);
        }
        sum.details["mpi_ranks"] = static_cast<double>(entries.size());
        sum.details["mpi_hosts"] = static_cast<double>(hosts.size());
        return sum;
    };
    for (const auto& name : order) {
        const auto& list = by_name[name];
        if (list.size() < 2) continue;
        out.push_back(summed(name, list));
        if (out.back().details["mpi_hosts"] < 2) continue;
        // Over several nodes the job's point has no one node's roofline: each
        // node's share ("NAME [node H]", its ranks summed) is put on its node's.
        std::map<std::string, std::vector<Entry>> by_host;
        for (const auto& e : list) by_host[e.second->host].push_back(e);
        for (const auto& [host, entries] : by_host) {
            Point node = summed(node_point_name(name, host), entries);
            node.series = name + " per node";
            out.push_back(std::move(node));
        }
    }
    return out;
}

GatheredJob gather_job(const MpiRank& self, RankPoints own, const std::string& job_output,
                       double started_epoch_seconds, double timeout_seconds,
                       const std::function<void(int missing)>& waiting) {
    GatheredJob job;
    job.ranks.push_back(std::move(own));
    std::vector<int> others;
    for (int r = 0; r < self.size; ++r)
        if (r != self.rank) others.push_back(r);
    const auto arrived = [&](int rank) {
        const auto path = rank_points_path(job_output, self, rank);
        std::error_code ec;
        const auto mtime = std::filesystem::last_write_time(path, ec);
        if (ec) return false;
        try {
            auto doc = read_points_document(path);
            const auto* mpi = doc.provenance && doc.provenance->mpi ? &*doc.provenance->mpi : nullptr;
            const bool this_launch = mpi && mpi->rank == rank &&
                                     (self.job.empty() ? epoch_seconds(mtime) >= started_epoch_seconds - 1
                                                       : mpi->job == self.job);
            if (!this_launch) return false;  // left from an earlier launch: the rank has not written yet
            job.ranks.push_back({rank, doc.provenance->host, std::move(doc.points)});
            job.files.push_back(path);
        } catch (const std::exception& e) {
            job.problems.push_back(e.what());
        }
        return true;
    };
    job.missing = wait_for_ranks(others, timeout_seconds, arrived, waiting);
    std::sort(job.ranks.begin(), job.ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    return job;
}

} // namespace roofline::measure
