// MPI ranks: who we are from the launcher's environment, where each rank's
// points go, the job's points (each rank, and the sum over ranks), times taken
// from an earlier launch, and the job's provenance through a points file.
#include "core/math_library_flops.hpp"
#include "io/points_json.hpp"
#include "io/temp_dir.hpp"
#include "measure/merge.hpp"
#include "measure/mpi_job.hpp"
#include "measure/mpi_rank.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <map>
#include <stdexcept>
#include <string>

using namespace roofline;
using namespace roofline::measure;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

Point point(const std::string& name, double flops, double bytes, double seconds, int threads = 1) {
    Point p;
    p.name = name;
    p.work = flops;
    p.bytes["L1"] = bytes;
    p.seconds = seconds;
    p.threads = threads;
    p.source = PointOrigin::instrument;
    p.details["flops_f64_add"] = flops;
    p.details["calls"] = 3;
    p.details["sample_period_seconds"] = 1e-4;
    return p;
}

const Point& named(const std::vector<Point>& points, const std::string& name) {
    for (const auto& p : points)
        if (p.name == name) return p;
    throw std::out_of_range("no point " + name);
}

} // namespace

TEST(MpiRank, OpenMpiVariables) {
    const auto r = detect_mpi_rank(env_of({{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                                           {"PMIX_RANK", "1"}, {"PMIX_NAMESPACE", "12345"}}));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->rank, 1);
    EXPECT_EQ(r->size, 4);
    EXPECT_EQ(r->job, "12345");
    EXPECT_EQ(r->launcher, "Open MPI");
}

TEST(MpiRank, HydraAndSlurmAndPlainPrograms) {
    const auto hydra = detect_mpi_rank(env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"PMI_FD", "6"}}));
    ASSERT_TRUE(hydra);
    EXPECT_EQ(hydra->size, 2);
    EXPECT_EQ(hydra->launcher, "MPICH/Hydra");
    EXPECT_TRUE(hydra->job.empty());
    EXPECT_FALSE(rank_can_rerun(*hydra, env_of({{"PMI_RANK", "0"}, {"PMI_FD", "6"}})));

    const auto step = detect_mpi_rank(
        env_of({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_STEP_ID", "0"}, {"SLURM_JOB_ID", "77"}}));
    ASSERT_TRUE(step);
    EXPECT_EQ(step->rank, 3);
    EXPECT_EQ(step->job, "77.0");
    // A batch script has SLURM_PROCID but is no step's task: not a rank.
    EXPECT_FALSE(detect_mpi_rank(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}, {"SLURM_JOB_ID", "77"}})));
    EXPECT_FALSE(detect_mpi_rank(env_of({})));
    // Inconsistent or malformed variables are not a rank we could place.
    EXPECT_FALSE(detect_mpi_rank(env_of({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}})));
    EXPECT_FALSE(detect_mpi_rank(env_of({{"PMI_RANK", "x1"}, {"PMI_SIZE", "2"}})));
    EXPECT_FALSE(detect_mpi_rank(env_of({{"PMI_RANK", "-1"}, {"PMI_SIZE", "2"}})));
}

TEST(MpiRank, OpenMpiRanksMayRerunWithTheHashStore) {
    const auto env = env_of({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"PMIX_RANK", "0"}});
    EXPECT_TRUE(rank_can_rerun(*detect_mpi_rank(env), env));
    bool hash = false;
    for (const auto& [k, v] : rank_rerun_env()) hash |= k == "PMIX_GDS_MODULE" && v == "hash";
    EXPECT_TRUE(hash);
}

TEST(MpiRank, RankFilesGoNextToTheJobFile) {
    MpiRank r{0, 2, "4242", "Open MPI"};
    EXPECT_EQ(rank_points_path("out/job.json", r, 1), "out/job.rank1.json");
    EXPECT_EQ(rank_points_path("job", r, 3), "job.rank3");
    EXPECT_EQ(rank_points_path("", r, 1), ".roofline-4242.rank1.json");
    r.job = "a/b c";
    EXPECT_EQ(rank_points_path("", r, 0), ".roofline-a_b_c.rank0.json");
}

TEST(MpiJob, EachRankThenTheSumOverRanks) {
    std::vector<RankPoints> ranks = {{0, "n1", {point("solve", 100, 800, 2.0, 2), point("(program)", 110, 900, 3.0)}},
                                     {1, "n1", {point("solve", 300, 1600, 4.0, 2), point("(program)", 310, 1700, 5.0)}},
                                     {2, "n2", {point("solve", 200, 1000, 1.0, 2)}}};
    const auto points = job_points(ranks);
    EXPECT_EQ(points.size(), 5u + 2u + 2u);  // ranks, the job's sums, solve's two nodes
    const auto& r1 = named(points, "solve [rank 1]");
    EXPECT_DOUBLE_EQ(r1.work, 300);
    EXPECT_DOUBLE_EQ(r1.details.at("mpi_rank"), 1);
    const auto& sum = named(points, "solve");
    EXPECT_DOUBLE_EQ(sum.work, 600);
    EXPECT_DOUBLE_EQ(sum.bytes.at("L1"), 3400);
    EXPECT_DOUBLE_EQ(sum.seconds, 4.0);  // the slowest rank
    EXPECT_EQ(sum.threads, 6);
    EXPECT_DOUBLE_EQ(sum.details.at("flops_f64_add"), 600);
    EXPECT_DOUBLE_EQ(sum.details.at("calls"), 9);
    EXPECT_EQ(sum.details.count("sample_period_seconds"), 0u);  // not a count: not summed
    EXPECT_DOUBLE_EQ(sum.details.at("mpi_ranks"), 3);
    EXPECT_DOUBLE_EQ(sum.details.at("mpi_hosts"), 2);
    const auto& program = named(points, "(program)");
    EXPECT_DOUBLE_EQ(program.details.at("mpi_ranks"), 2);  // rank 2 had none
    EXPECT_DOUBLE_EQ(program.details.at("mpi_hosts"), 1);
    EXPECT_FALSE(std::any_of(points.begin(), points.end(), [](const Point& p) {
        return p.name.rfind("(program) [node", 0) == 0;  // one node: the job's point is the node's
    }));
    // solve ran on two nodes: each node's ranks summed, for its own node's roofline.
    const auto& n1 = named(points, "solve [node n1]");
    EXPECT_DOUBLE_EQ(n1.work, 400);
    EXPECT_DOUBLE_EQ(n1.bytes.at("L1"), 2400);
    EXPECT_DOUBLE_EQ(n1.seconds, 4.0);
    EXPECT_EQ(n1.threads, 4);
    EXPECT_DOUBLE_EQ(n1.details.at("mpi_ranks"), 2);
    EXPECT_DOUBLE_EQ(n1.details.at("mpi_hosts"), 1);
    EXPECT_EQ(n1.series, "solve per node");
    const auto& n2 = named(points, "solve [node n2]");
    EXPECT_DOUBLE_EQ(n2.work, 200);
    EXPECT_DOUBLE_EQ(n2.seconds, 1.0);
}

// The FLOPs a rank ran in libm are a count: the job's sum carries their sum, so its math-library
// note (core/math_library_flops) is said with the job's share, as each rank's is (it was left out).
TEST(MpiJob, TheSumCarriesTheRanksMathLibraryFlops) {
    auto a = point("solve", 100, 800, 2.0), b = point("solve", 300, 800, 2.0);
    a.details["math_library_flops"] = 50;
    b.details["math_library_flops"] = 250;
    const auto points = job_points({{0, "n1", {a}}, {1, "n1", {b}}});
    const auto& sum = named(points, "solve");
    EXPECT_DOUBLE_EQ(sum.details.at("math_library_flops"), 300);
    const auto m = math_library_flops(sum);
    ASSERT_TRUE(m);
    EXPECT_DOUBLE_EQ(m->share, 0.75);
}

TEST(MpiJob, OneRankHasNoSum) {
    const auto points = job_points({{0, "n1", {point("solve", 100, 800, 2.0)}}});
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].name, "solve [rank 0]");
}

TEST(MpiJob, GathersTheOtherRanksOfThisLaunchOnly) {
    TempDir dir("roofline-mpi-test");
    const auto out = dir.file("job.json");
    MpiRank self{0, 3, "job-7", "Open MPI"};
    Provenance prov;
    prov.host = "n2";
    prov.mpi = MpiProvenance{"Open MPI", "job-7", 1, 3, {}};
    write_points_file(rank_points_path(out, self, 1), {point("solve", 5, 40, 1.0)}, &prov);
    // Rank 2's file is from an earlier launch: not taken, and waited for.
    prov.mpi = MpiProvenance{"Open MPI", "job-6", 2, 3, {}};
    write_points_file(rank_points_path(out, self, 2), {point("solve", 9, 40, 1.0)}, &prov);
    int told = -1;
    const auto job = gather_job(self, {0, "n1", {point("solve", 1, 8, 1.0)}}, out, 0, 0.2,
                                [&](int missing) { told = missing; });
    ASSERT_EQ(job.ranks.size(), 2u);
    EXPECT_EQ(job.ranks[1].rank, 1);
    EXPECT_EQ(job.ranks[1].host, "n2");
    EXPECT_EQ(job.missing, std::vector<int>{2});
    EXPECT_EQ(job.files.size(), 1u);
    EXPECT_EQ(told, -1);  // a wait this short says nothing
}

TEST(MpiJob, ProvenanceRoundTripsThroughAPointsFile) {
    TempDir dir("roofline-mpi-test");
    Provenance prov;
    prov.command = {"./app", "1"};
    prov.host = "n1";
    prov.mpi = MpiProvenance{"Open MPI", "99", -1, 2, {"n1", "n2"}};
    write_points_file(dir.file("p.json"), {point("solve", 1, 8, 1.0)}, &prov);
    const auto doc = read_points_document(dir.file("p.json"));
    ASSERT_TRUE(doc.provenance && doc.provenance->mpi);
    EXPECT_EQ(doc.provenance->command, prov.command);
    EXPECT_EQ(doc.provenance->mpi->rank, -1);
    EXPECT_EQ(doc.provenance->mpi->ranks, 2);
    EXPECT_EQ(doc.provenance->mpi->hosts, (std::vector<std::string>{"n1", "n2"}));
    EXPECT_EQ(doc.points.size(), 1u);
}

TEST(EarlierTimes, TakesARanksOwnTimesFromAJobFile) {
    const auto job = job_points({{0, "n1", {point("solve", 1, 8, 2.0), point("(program)", 1, 8, 3.0)}},
                                 {1, "n1", {point("solve", 1, 8, 4.0), point("(program)", 1, 8, 5.0)}}});
    const auto t = earlier_times(job, 1, "times.json");
    ASSERT_EQ(t.timings.size(), 1u);
    EXPECT_EQ(t.timings[0].name, "solve");
    EXPECT_DOUBLE_EQ(t.timings[0].seconds, 4.0);
    EXPECT_EQ(t.timings[0].calls, 3);
    EXPECT_DOUBLE_EQ(t.wall_seconds, 5.0);
    EXPECT_THROW(earlier_times(job, 2, "times.json"), std::invalid_argument);
    EXPECT_THROW(earlier_times(job, std::nullopt, "times.json"), std::invalid_argument);  // which rank?
    // A plain points file gives its regions to any run.
    const auto plain = earlier_times({point("solve", 1, 8, 2.0)}, std::nullopt, "t.json");
    EXPECT_DOUBLE_EQ(plain.timings.at(0).seconds, 2.0);
    EXPECT_DOUBLE_EQ(plain.wall_seconds, 0.0);
}
